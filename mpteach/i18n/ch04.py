"""Messages of chapter 04 (custom layers): its self-checks."""

MESSAGES = {
    "checks.ch04.not_class": {
        "en": "Give the layer class itself (a subclass of keras.layers.Layer), not a {actual}; "
        "the check builds it under several policies.",
        "zh": "请给出层的类本身（keras.layers.Layer 的子类），而不是 {actual}；检查程序会在几种策略下创建它。",
        "es": "Responde con la clase de la capa (una subclase de keras.layers.Layer), no con un {actual}; "
        "la comprobación la crea con varias políticas.",
        "ko": "{actual} 객체가 아니라 레이어 클래스 자체(keras.layers.Layer의 하위 클래스)를 answer에 넣으세요. 검사에서 여러 정책으로 레이어를 만듭니다.",
        "ru": "Передайте сам класс слоя (подкласс keras.layers.Layer), а не {actual}; "
        "проверка создаёт его с несколькими политиками.",
    },
    "checks.ch04.raised": {
        "en": "Under {policy!r} the layer raised {error}. Look for a tensor made or cast to a fixed dtype: "
        "use self.compute_dtype (or inputs.dtype) instead.",
        "zh": "在 {policy!r} 下该层抛出了 {error}。请找出被创建为或转换为固定 dtype 的张量："
        "改用 self.compute_dtype（或 inputs.dtype）。",
        "es": "Con {policy!r} la capa lanzó {error}. Busca un tensor creado o convertido a un dtype fijo: "
        "usa self.compute_dtype (o inputs.dtype).",
        "ko": "{policy!r} 정책에서 레이어가 {error} 예외를 일으켰습니다. 고정 dtype으로 만들거나 캐스팅한 텐서를 찾아 self.compute_dtype(또는 inputs.dtype)을 쓰세요.",
        "ru": "С политикой {policy!r} слой выбросил {error}. Найдите тензор, созданный или приведённый "
        "к фиксированному типу, и используйте self.compute_dtype (или inputs.dtype).",
    },
    "checks.ch04.weights_dtype": {
        "en": "Under {policy!r} the weights are stored as {stored}, not {right}. Let add_weight choose: "
        "leave out its dtype argument, and it uses the variable dtype.",
        "zh": "在 {policy!r} 下权重保存为 {stored}，而不是 {right}。让 add_weight 自己决定："
        "不传 dtype 参数，它就会使用变量 dtype。",
        "es": "Con {policy!r} los pesos se guardan como {stored}, no como {right}. Deja que add_weight elija: sin el argumento dtype usa el dtype de las variables.",
        "ko": "{policy!r} 정책에서 가중치가 {right} dtype이 아니라 {stored} dtype으로 저장됩니다. dtype은 add_weight가 정하게 두세요. dtype 인자를 빼면 add_weight가 변수 dtype을 사용합니다.",
        "ru": "С политикой {policy!r} веса хранятся как {stored}, а не {right}. Пусть выбирает add_weight: "
        "без аргумента dtype он берёт dtype переменных.",
    },
    "checks.ch04.output_dtype": {
        "en": "Under {policy!r} the output is {dtype}, not the compute dtype {compute}. If you compute a "
        "part in float32, cast the result back to self.compute_dtype.",
        "zh": "在 {policy!r} 下输出是 {dtype}，而不是计算 dtype {compute}。如果某一部分用 float32 计算，"
        "请把结果转换回 self.compute_dtype。",
        "es": "Con {policy!r} la salida es {dtype}, no el dtype de cálculo {compute}. Si calculas una parte en float32, vuelve a convertir el resultado a self.compute_dtype.",
        "ko": "{policy!r} 정책에서 출력 dtype이 연산 dtype({compute})이 아니라 {dtype}입니다. 일부를 float32로 계산했다면 결과를 self.compute_dtype으로 되돌리세요.",
        "ru": "С политикой {policy!r} выход имеет dtype {dtype}, а не dtype вычислений {compute}. Если часть "
        "считается в float32, приведите результат обратно к self.compute_dtype.",
    },
    "checks.ch04.dense_shape": {
        "en": "For 2 inputs of size 3 and units=4 the layer should have a kernel and a bias and give shape (2, 4); it gave {shape}.",
        "zh": "对于 2 个大小为 3 的输入和 units=4，该层应有 kernel 和 bias，输出形状应为 (2, 4)；实际是 {shape}。",
        "es": "Con 2 entradas de tamaño 3 y units=4 la capa debería tener un kernel y un sesgo y dar la forma (2, 4); dio {shape}.",
        "ko": "크기 3인 입력 2개와 units=4이면 레이어에 커널과 바이어스가 있고 출력 형태가 (2, 4)여야 하는데, 실제 출력 형태는 {shape}입니다.",
        "ru": "Для 2 входов размера 3 и units=4 у слоя должны быть kernel и bias, а выход должен иметь форму (2, 4); получена форма {shape}.",
    },
    "checks.ch04.dense_values": {
        "en": "Under {policy!r} the output is not inputs @ kernel + bias (compared with a float64 computation).",
        "zh": "在 {policy!r} 下输出不等于 inputs @ kernel + bias（与 float64 计算结果比较）。",
        "es": "Con {policy!r} la salida no es inputs @ kernel + bias (comparada con un cálculo en float64).",
        "ko": "{policy!r} 정책에서 출력이 inputs @ kernel + bias와 다릅니다(float64 계산과 비교).",
        "ru": "С политикой {policy!r} выход не равен inputs @ kernel + bias (сравнение с расчётом в float64).",
    },
    "checks.ch04.dense_ok": {
        "en": "Right: no casts, no policy lookups. add_weight and autocasting do the work under every policy.",
        "zh": "正确：不需要任何转换，也不需要查询策略。add_weight 和自动类型转换在每种策略下都会完成这些工作。",
        "es": "Correcto: sin conversiones ni consultas de política. add_weight y la conversión automática "
        "hacen el trabajo con cualquier política.",
        "ko": "정답입니다. 캐스팅도 정책 조회도 필요 없습니다. 모든 정책에서 add_weight와 오토캐스팅이 처리합니다.",
        "ru": "Верно: ни приведений, ни запросов политики. add_weight и автоприведение делают всё "
        "при любой политике.",
    },
    "checks.ch04.dense_ok_with_casts": {
        "en": "Right: inputs @ kernel + bias under every policy. The casts or policy lookups in call are not needed, though: autocasting reads the kernel in the compute dtype and Keras casts the inputs, so call can simply be inputs @ self.kernel + self.bias.",
        "zh": "正确：在每种策略下都计算了 inputs @ kernel + bias。不过 call 里的类型转换或策略查询并不需要：自动类型转换会以计算 dtype 读取 kernel，Keras 也会转换输入，所以 call 只需写 inputs @ self.kernel + self.bias。",
        "es": "Correcto: inputs @ kernel + bias con cualquier política. Aun así, las conversiones o consultas de política de call sobran: la conversión automática lee el kernel en el dtype de cálculo y Keras convierte las entradas, así que call puede ser simplemente inputs @ self.kernel + self.bias.",
        "ko": "정답입니다. 모든 정책에서 inputs @ kernel + bias를 계산합니다. 다만 call 안의 캐스팅이나 정책 조회는 필요 없습니다. 오토캐스팅이 kernel을 연산 dtype으로 읽고 Keras가 입력을 캐스팅하므로, call은 inputs @ self.kernel + self.bias만으로 충분합니다.",
        "ru": "Верно: inputs @ kernel + bias при любой политике. Но приведения и запросы политики в call не нужны: автоприведение читает kernel в dtype вычислений, а Keras приводит входы, так что call может быть просто inputs @ self.kernel + self.bias.",
    },
    "checks.ch04.dense_ok_plain": {
        "en": "Right: inputs @ kernel + bias, in the compute dtype, under every policy.",
        "zh": "正确：在每种策略下都以计算 dtype 计算了 inputs @ kernel + bias。",
        "es": "Correcto: inputs @ kernel + bias, en el dtype de cálculo, con cualquier política.",
        "ko": "정답입니다. 모든 정책에서 연산 dtype으로 inputs @ kernel + bias를 계산합니다.",
        "ru": "Верно: inputs @ kernel + bias в dtype вычислений при любой политике.",
    },
    "checks.ch04.rms_overflow": {
        "en": "Under {policy!r} an input of 300 gave {value} instead of 1. 300² = 90000 is above 65504, float16's largest value: compute the mean of squares in float32, then cast back.",
        "zh": "在 {policy!r} 下输入 300 得到了 {value}，而不是 1。300² = 90000 超过了 float16 的最大值 65504：请用 float32 计算平方的均值，再转换回来。",
        "es": "Con {policy!r} una entrada de 300 dio {value} en vez de 1. 300² = 90 000 supera 65 504, el mayor valor de float16: calcula la media de los cuadrados en float32 y luego vuelve a convertir el resultado.",
        "ko": "{policy!r} 정책에서 입력 300에 대한 출력이 1이 아니라 {value}입니다. 300² = 90,000은 float16의 최댓값 65,504보다 큽니다. 제곱의 평균을 float32로 계산한 뒤 연산 dtype으로 되돌리세요.",
        "ru": "С политикой {policy!r} вход 300 дал {value} вместо 1. 300² = 90 000 больше 65 504 — наибольшего числа float16: считайте среднее квадратов в float32, затем приводите обратно.",
    },
    "checks.ch04.rms_values": {
        "en": "Under {policy!r} the row [1, -2, 3, -4] gave {got} instead of {expected}: divide the inputs by their root mean square, sqrt(mean(x²)) over the last axis.",
        "zh": "在 {policy!r} 下，行 [1, -2, 3, -4] 得到了 {got}，而不是 {expected}：请把输入除以它们的均方根，即沿最后一个轴计算的 sqrt(mean(x²))。",
        "es": "Con {policy!r} la fila [1, -2, 3, -4] dio {got} en vez de {expected}: divide las entradas por su raíz cuadrática media, sqrt(mean(x²)) sobre el último eje.",
        "ko": "{policy!r} 정책에서 행 [1, -2, 3, -4]의 출력: {got}(기댓값: {expected}). 입력을 마지막 축에 대한 제곱평균제곱근, 즉 sqrt(mean(x²)) 값으로 나누세요.",
        "ru": "С политикой {policy!r} строка [1, -2, 3, -4] дала {got} вместо {expected}: разделите входы на их среднеквадратичное значение, sqrt(mean(x²)) по последней оси.",
    },
    "checks.ch04.rms_shape": {
        "en": "The output has the shape {shape}; a normalization keeps the shape of its inputs, (2, 4) here.",
        "zh": "输出的形状是 {shape}；归一化层的输出应与输入形状相同，这里是 (2, 4)。",
        "es": "La salida tiene la forma {shape}; una normalización conserva la forma de sus entradas, aquí (2, 4).",
        "ko": "출력의 형태: {shape}. 정규화는 입력의 형태를 그대로 유지해야 하며, 여기서는 (2, 4)입니다.",
        "ru": "Выход имеет форму {shape}; нормализация сохраняет форму входа, здесь (2, 4).",
    },
    "checks.ch04.rms_ok": {
        "en": "Right: the sensitive part runs in float32 and the output is back in the compute dtype, "
        "as BatchNormalization does.",
        "zh": "正确：敏感部分用 float32 计算，输出又回到计算 dtype，和 BatchNormalization 的做法一样。",
        "es": "Correcto: la parte delicada se calcula en float32 y la salida vuelve al dtype de cálculo, "
        "como hace BatchNormalization.",
        "ko": "정답입니다. 민감한 부분은 float32로 계산하고 출력은 연산 dtype으로 되돌립니다. "
        "BatchNormalization과 같은 방식입니다.",
        "ru": "Верно: чувствительная часть считается в float32, а выход возвращается в dtype вычислений, "
        "как в BatchNormalization.",
    },
    "out.ch04.exists": {
        "en": "{name} exists: {value}",
        "zh": "{name} 存在：{value}",
        "es": "{name} existe: {value}",
        "ko": "{name} 존재 여부: {value}",
        "ru": "{name} существует: {value}",
    },
    "out.ch04.read_before_cast": {
        "en": "weights read before tf.cast: {value}",
        "zh": "tf.cast 之前读到的权重：{value}",
        "es": "pesos leídos antes de tf.cast: {value}",
        "ko": "tf.cast 전에 읽은 가중치: {value}",
        "ru": "веса, прочитанные до tf.cast: {value}",
    },
    "out.ch04.output_weights_stored": {
        "en": "output: {output} | weights stored: {stored}",
        "zh": "输出：{output} | 权重存储为：{stored}",
        "es": "salida: {output} | pesos almacenados en: {stored}",
        "ko": "출력: {output} | 가중치 저장 dtype: {stored}",
        "ru": "выход: {output} | хранение весов: {stored}",
    },
    "out.ch04.layer_output_stored": {
        "en": "{layer} output: {output} | {variable} stored: {stored}",
        "zh": "{layer} 输出：{output} | {variable} 存储为：{stored}",
        "es": "salida de {layer}: {output} | {variable} se almacena en: {stored}",
        "ko": "{layer} 출력: {output} | {variable} 저장 dtype: {stored}",
        "ru": "выход {layer}: {output} | хранение {variable}: {stored}",
    },
    "out.ch04.simple_dense_row": {
        "en": "{policy:<15} kernel {kernel:<8} output {output:<9} same as Dense: {same}",
        "zh": "{policy:<15} kernel {kernel:<8} 输出 {output:<9} 与 Dense 一致：{same}",
        "es": "{policy:<15} kernel {kernel:<8} salida {output:<9} igual que Dense: {same}",
        "ko": "{policy:<15} 커널 {kernel:<8} 출력 {output:<9} Dense와 동일: {same}",
        "ru": "{policy:<15} kernel {kernel:<8} выход {output:<9} как у Dense: {same}",
    },
    "out.ch04.inside_call_output": {
        "en": "inside call: {seen} | output: {output}",
        "zh": "call 内部：{seen} | 输出：{output}",
        "es": "dentro de call: {seen} | salida: {output}",
        "ko": "call 안: {seen} | 출력: {output}",
        "ru": "внутри call: {seen} | выход: {output}",
    },
    "out.ch04.under_policies": {
        "en": "under {policies}",
        "zh": "在 {policies} 下",
        "es": "con {policies}",
        "ko": "{policies} 정책에서",
        "ru": "при политиках {policies}",
    },
    "out.ch04.float16_at_float32": {
        "en": "float16 inputs @ float32 weights",
        "zh": "float16 输入 @ float32 权重",
        "es": "entradas float16 @ pesos float32",
        "ko": "float16 입력 @ float32 가중치",
        "ru": "входы float16 @ веса float32",
    },
}
