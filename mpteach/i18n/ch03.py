"""Messages of chapter 03 (autocasting): its self-checks."""

MESSAGES = {
    "checks.ch03.not_pair": {
        "en": "Expected a pair of dtype names such as ('float16', 'float32'); got {value!r}.",
        "zh": "这里需要一对 dtype 名称，例如 ('float16', 'float32')，但答案是 {value!r}。",
        "es": "Se esperaba un par de nombres de dtype como ('float16', 'float32'); se recibió {value!r}.",
        "ko": "('float16', 'float32')처럼 dtype 이름 한 쌍이 필요합니다. 받은 값: {value!r}.",
        "ru": "Ожидалась пара имён dtype, например ('float16', 'float32'); получено {value!r}.",
    },
    "checks.ch03.read_ok": {
        "en": "Right: inside call the float32 kernel is read as bfloat16; outside it is float32 again.",
        "zh": "正确：在 call 内部，float32 的 kernel 被读成 bfloat16；在外部它又是 float32。",
        "es": "Correcto: dentro de call el kernel float32 se lee como bfloat16; fuera vuelve a ser float32.",
        "ko": "정답입니다. call 안에서는 float32 커널이 bfloat16으로 읽히고, 밖에서는 다시 float32입니다.",
        "ru": "Верно: внутри call матрица весов kernel (float32) читается как bfloat16, а снаружи она снова float32.",
    },
    "checks.ch03.read_swapped": {
        "en": "Swapped: the order is (inside call, outside call). The variable is stored in float32 and only read in the compute dtype inside call.",
        "zh": "顺序反了：应为（call 内部，call 外部）。变量以 float32 保存，只在 call 内部按计算 dtype 读取。",
        "es": "Al revés: el orden es (dentro de call, fuera de call). La variable se guarda en float32 y solo se lee en el dtype de cálculo dentro de call.",
        "ko": "순서가 바뀌었습니다. 순서는 (call 안, call 밖)입니다. 변수는 float32로 저장되고 call 안에서만 연산 dtype으로 읽힙니다.",
        "ru": "Порядок перепутан: правильный — (внутри call, снаружи call). Переменная хранится в float32 и читается в dtype вычислений только внутри call.",
    },
    "checks.ch03.read_inside": {
        "en": 'Inside call a read is not {answer!r}: the layer reads its variables in its compute dtype, which for mixed_bfloat16 is the part after "mixed_".',
        "zh": '在 call 内部读到的不是 {answer!r}：层按计算 dtype 读取变量，对 mixed_bfloat16 来说就是 "mixed_" 后面的部分。',
        "es": "Dentro de call la lectura no es {answer!r}: la capa lee sus variables en su dtype de cálculo, que en mixed_bfloat16 es lo que sigue a «mixed_».",
        "ko": 'call 안에서 읽은 값은 {answer!r} dtype이 아닙니다. 레이어는 변수를 연산 dtype으로 읽으며, mixed_bfloat16의 연산 dtype은 "mixed_" 뒤의 부분입니다.',
        "ru": "Внутри call чтение даёт не {answer!r}: слой читает переменные в своём dtype вычислений, а у mixed_bfloat16 это часть после «mixed_».",
    },
    "checks.ch03.read_outside": {
        "en": "Outside call the kernel is not {answer!r}: it is stored, and read, in the variable dtype (float32).",
        "zh": "在 call 外部 kernel 不是 {answer!r}：它以变量 dtype（float32）保存和读取。",
        "es": "Fuera de call el kernel no es {answer!r}: se guarda, y se lee, en el dtype de las variables (float32).",
        "ko": "call 밖에서 커널은 {answer!r} dtype이 아닙니다. 변수 dtype(float32)으로 저장되고 읽힙니다.",
        "ru": "Снаружи call матрица весов kernel — не {answer!r}: она хранится и читается в dtype переменных (float32).",
    },
    "checks.ch03.version_missing": {
        "en": "No entry for {version!r}: give the pair of output dtypes for 'keras2' and for 'keras3'.",
        "zh": "缺少 {version!r} 这一项：请为 'keras2' 和 'keras3' 各给出一对输出 dtype。",
        "es": "Falta la entrada {version!r}: indica el par de dtypes de salida para 'keras2' y para 'keras3'.",
        "ko": "{version!r} 항목이 없습니다. 'keras2'와 'keras3' 각각의 출력 dtype 쌍을 적으세요.",
        "ru": "Нет записи для {version!r}: укажите пару dtype выходов для 'keras2' и для 'keras3'.",
    },
    "checks.ch03.cast_keras2": {
        "en": 'Keras 2 did not give {answer}: it cast only the first argument, so a becomes float64 and b stays float32 (the "bug" in the old documentation).',
        "zh": "Keras 2 的结果不是 {answer}：它只转换第一个参数，所以 a 变成 float64，b 仍是 float32（旧文档里的那个“bug”）。",
        "es": "Keras 2 no daba {answer}: solo convertía el primer argumento, así que a pasaba a float64 y b seguía en float32 (el «error» de la documentación antigua).",
        "ko": 'Keras 2에서는 {answer} 결과가 나오지 않습니다. 첫 번째 인자만 캐스팅했으므로 a는 float64가 되고 b는 float32로 남습니다(옛 문서의 "버그").',
        "ru": "Keras 2 давал не {answer}: он приводил только первый аргумент, поэтому a становится float64, а b остаётся float32 («баг» из старой документации).",
    },
    "checks.ch03.cast_keras3": {
        "en": "Keras 3 does not give {answer}: it casts every floating-point argument, positional or "
        "keyword, to the compute dtype float64.",
        "zh": "Keras 3 的结果不是 {answer}：它会把每个浮点参数（位置参数或关键字参数）都转换为计算 dtype float64。",
        "es": "Keras 3 no da {answer}: convierte todos los argumentos de coma flotante, posicionales o "
        "con nombre, al dtype de cálculo float64.",
        "ko": "Keras 3에서는 {answer} 결과가 나오지 않습니다. 위치 인자든 키워드 인자든 모든 부동소수점 인자를 연산 dtype인 float64로 캐스팅합니다.",
        "ru": "Keras 3 даёт не {answer}: он приводит все аргументы с плавающей точкой, позиционные "
        "и именованные, к dtype вычислений float64.",
    },
    "checks.ch03.cast_ok": {
        "en": "Right: Keras 2 cast only the first argument; Keras 3 casts them all.",
        "zh": "正确：Keras 2 只转换第一个参数；Keras 3 会全部转换。",
        "es": "Correcto: Keras 2 solo convertía el primer argumento; Keras 3 los convierte todos.",
        "ko": "정답입니다. Keras 2는 첫 번째 인자만 캐스팅했고, Keras 3는 모두 캐스팅합니다.",
        "ru": "Верно: Keras 2 приводил только первый аргумент, Keras 3 приводит все.",
    },
    "checks.ch03.noise_not_class": {
        "en": "Give the layer class itself (answer = AddNoise), not a {actual}; the check builds it "
        "under several policies.",
        "zh": "请给出层的类本身（answer = AddNoise），而不是 {actual}；检查程序会在几种策略下创建它。",
        "es": "Responde con la clase de la capa (answer = AddNoise), no con un {actual}; la comprobación la crea "
        "con varias políticas.",
        "ko": "{actual} 객체가 아니라 레이어 클래스 자체를 answer에 넣으세요(answer = AddNoise). 검사에서 여러 정책으로 레이어를 만듭니다.",
        "ru": "Передайте сам класс слоя (answer = AddNoise), а не {actual}; проверка создаёт его "
        "с несколькими политиками.",
    },
    "checks.ch03.noise_error": {
        "en": "Under {policy!r} the layer raised {error}. The inputs arrive in the compute dtype, but the "
        "noise was made in float32: create it with dtype=inputs.dtype (or self.compute_dtype).",
        "zh": "在 {policy!r} 下该层抛出了 {error}。输入以计算 dtype 传入，但噪声是按 float32 生成的：请用 dtype=inputs.dtype（或 self.compute_dtype）创建它。",
        "es": "Con {policy!r} la capa lanzó {error}. Las entradas llegan en el dtype de cálculo, pero el "
        "ruido se creó en float32: créalo con dtype=inputs.dtype (o self.compute_dtype).",
        "ko": "{policy!r} 정책에서 레이어가 {error} 예외를 일으켰습니다. 입력은 연산 dtype으로 들어오는데 잡음은 float32로 만들어졌습니다. dtype=inputs.dtype(또는 self.compute_dtype)으로 만드세요.",
        "ru": "С политикой {policy!r} слой вызвал исключение {error}. Входы приходят в dtype вычислений, а шум создан в float32: создавайте его с dtype=inputs.dtype (или self.compute_dtype).",
    },
    "checks.ch03.noise_dtype": {
        "en": "Under {policy!r} the output is {dtype}, not the compute dtype {compute}. Do not cast the "
        "inputs yourself; make the noise in inputs.dtype instead.",
        "zh": "在 {policy!r} 下输出是 {dtype}，而不是计算 dtype {compute}。不要自己转换输入；"
        "改为按 inputs.dtype 生成噪声。",
        "es": "Con {policy!r} la salida es {dtype}, no el dtype de cálculo {compute}. No conviertas tú "
        "las entradas; crea el ruido en inputs.dtype.",
        "ko": "{policy!r} 정책에서 출력 dtype이 연산 dtype({compute})이 아니라 {dtype}입니다. 입력을 직접 캐스팅하지 말고 잡음을 inputs.dtype으로 만드세요.",
        "ru": "С политикой {policy!r} выход имеет dtype {dtype}, а не dtype вычислений {compute}. Не "
        "приводите входы сами; создавайте шум в inputs.dtype.",
    },
    "checks.ch03.noise_none": {
        "en": "Under {policy!r} the output equals the input: the layer added no noise.",
        "zh": "在 {policy!r} 下输出等于输入：该层没有加入噪声。",
        "es": "Con {policy!r} la salida es igual a la entrada: la capa no añadió ruido.",
        "ko": "{policy!r} 정책에서 출력이 입력과 같습니다. 레이어가 잡음을 더하지 않았습니다.",
        "ru": "С политикой {policy!r} выход равен входу: слой не добавил шума.",
    },
    "checks.ch03.noise_stddev": {
        "en": "Under {policy!r} the noise has a standard deviation of about {std}; the task asks for 0.1 (stddev=0.1).",
        "zh": "在 {policy!r} 下，噪声的标准差约为 {std}；题目要求的是 0.1（stddev=0.1）。",
        "es": "Con {policy!r} el ruido tiene una desviación típica de unos {std}; la tarea pide 0.1 (stddev=0.1).",
        "ko": "{policy!r} 정책에서 잡음의 표준편차가 약 {std}입니다. 문제에서 요구하는 값은 0.1(stddev=0.1)입니다.",
        "ru": "С политикой {policy!r} стандартное отклонение шума около {std}; в задании требуется 0,1 (stddev=0.1).",
    },
    "checks.ch03.noise_ok": {
        "en": "Right: the noise is made in the compute dtype, so the layer works under every policy.",
        "zh": "正确：噪声按计算 dtype 生成，所以该层在每种策略下都能工作。",
        "es": "Correcto: el ruido se crea en el dtype de cálculo, así que la capa funciona con cualquier política.",
        "ko": "정답입니다. 잡음을 연산 dtype으로 만들기 때문에 레이어가 모든 정책에서 동작합니다.",
        "ru": "Верно: шум создаётся в dtype вычислений, поэтому слой работает с любой политикой.",
    },
    "out.ch03.outside_scope": {
        "en": "outside: {value}",
        "zh": "作用域外：{value}",
        "es": "fuera del ámbito: {value}",
        "ko": "스코프 밖: {value}",
        "ru": "вне области: {value}",
    },
    "out.ch03.inside_scope": {
        "en": "inside: {value} | stored as {stored}",
        "zh": "作用域内：{value} | 存储为 {stored}",
        "es": "dentro del ámbito: {value} | almacenada como {stored}",
        "ko": "스코프 안: {value} | 저장 dtype: {stored}",
        "ru": "внутри области: {value} | хранится как {stored}",
    },
    "out.ch03.after_scope": {
        "en": "after: {value}",
        "zh": "离开作用域后：{value}",
        "es": "al salir del ámbito: {value}",
        "ko": "스코프를 나온 뒤: {value}",
        "ru": "после выхода: {value}",
    },
    "out.ch03.keras_kernel_output": {
        "en": "keras:   kernel {kernel} -> output {output}",
        "zh": "keras：  kernel {kernel} -> 输出 {output}",
        "es": "keras:   kernel {kernel} -> salida {output}",
        "ko": "keras:   커널 {kernel} -> 출력 {output}",
        "ru": "keras:   kernel {kernel} -> выход {output}",
    },
    "out.ch03.mpteach_kernel_output": {
        "en": "mpteach: kernel {kernel} -> output {output}",
        "zh": "mpteach：kernel {kernel} -> 输出 {output}",
        "es": "mpteach: kernel {kernel} -> salida {output}",
        "ko": "mpteach: 커널 {kernel} -> 출력 {output}",
        "ru": "mpteach: kernel {kernel} -> выход {output}",
    },
    "out.ch03.identical_outputs": {
        "en": "identical outputs: {value}",
        "zh": "输出完全相同：{value}",
        "es": "salidas idénticas: {value}",
        "ko": "출력 동일: {value}",
        "ru": "выходы совпадают: {value}",
    },
    "out.ch03.mpteach_read_inside": {
        "en": "mpteach, read inside:  {value}",
        "zh": "mpteach，在作用域内读取：{value}",
        "es": "mpteach, leída dentro del ámbito: {value}",
        "ko": "mpteach, 스코프 안에서 읽은 값: {value}",
        "ru": "mpteach, чтение внутри области: {value}",
    },
    "out.ch03.mpteach_read_outside": {
        "en": "mpteach, read outside: {value}",
        "zh": "mpteach，在作用域外读取：{value}",
        "es": "mpteach, leída fuera del ámbito:  {value}",
        "ko": "mpteach, 스코프 밖에서 읽은 값: {value}",
        "ru": "mpteach, чтение вне области:    {value}",
    },
    "out.ch03.keras_read_inside": {
        "en": "keras,   read inside:  {value}",
        "zh": "keras，  在作用域内读取：{value}",
        "es": "keras,   leída dentro del ámbito: {value}",
        "ko": "keras,   스코프 안에서 읽은 값: {value}",
        "ru": "keras,   чтение внутри области: {value}",
    },
    "out.ch03.keras_read_outside": {
        "en": "keras,   read outside: {value}",
        "zh": "keras，  在作用域外读取：{value}",
        "es": "keras,   leída fuera del ámbito:  {value}",
        "ko": "keras,   스코프 밖에서 읽은 값: {value}",
        "ru": "keras,   чтение вне области:    {value}",
    },
    "out.ch03.two_weights_inside_call": {
        "en": "{layer:<13} inside call: cast_me {cast_me}, keep_me {keep_me}",
        "zh": "{layer:<13} call 内部：cast_me {cast_me}，keep_me {keep_me}",
        "es": "{layer:<13} dentro de call: cast_me {cast_me}, keep_me {keep_me}",
        "ko": "{layer:<13} call 안: cast_me {cast_me}, keep_me {keep_me}",
        "ru": "{layer:<13} внутри call: cast_me {cast_me}, keep_me {keep_me}",
    },
    "out.ch03.input_variable_read": {
        "en": "{layer}: input {input}, variable w read as {read}",
        "zh": "{layer}：输入 {input}，变量 w 读取为 {read}",
        "es": "{layer}: entrada {input}, la variable w se lee como {read}",
        "ko": "{layer}: 입력 {input}, 변수 w는 {read} dtype으로 읽힘",
        "ru": "{layer}: вход {input}, переменная w читается как {read}",
    },
    "out.ch03.mp_all": {
        "en": "mp, all (Keras 3)",
        "zh": "mp，转换全部参数（同 Keras 3）",
        "es": "mp, todos (Keras 3)",
        "ko": "mp, 전부(Keras 3)",
        "ru": "mp, все (Keras 3)",
    },
    "out.ch03.mp_first": {
        "en": "mp, first (Keras 2)",
        "zh": "mp，只转换第一个（同 Keras 2）",
        "es": "mp, solo el primero (Keras 2)",
        "ko": "mp, 첫 번째만(Keras 2)",
        "ru": "mp, только первый (Keras 2)",
    },
    "out.ch03.output_regularization_loss": {
        "en": "output: {output} | regularization loss: {loss}",
        "zh": "输出：{output} | 正则化损失：{loss}",
        "es": "salida: {output} | pérdida de regularización: {loss}",
        "ko": "출력: {output} | 규제 손실: {loss}",
        "ru": "выход: {output} | потери регуляризации: {loss}",
    },
    "out.ch03.matmul_of_ones": {
        "en": "{fmt} matmul of 10,000 ones: {value} | dtype: {dtype}",
        "zh": "{fmt} matmul 对 10000 个 1 求和：{value} | dtype：{dtype}",
        "es": "suma de 10 000 unos con matmul en {fmt}: {value} | dtype: {dtype}",
        "ko": "{fmt} matmul로 1을 10,000개 더한 값: {value} | dtype: {dtype}",
        "ru": "сумма 10 000 единиц через matmul в {fmt}: {value} | dtype: {dtype}",
    },
}
