"""Messages of chapter 08 (performance): checks and what this machine means for it."""

MESSAGES = {
    "course.ch08.cpu": {
        "en": "No GPU or TPU here: the live measurements time this CPU. GPU numbers come from published measurements, each with its hardware and source; for TPUs there is only a vendor claim, labelled as one.",
        "zh": "这里没有 GPU 或 TPU：现场测量的是这颗 CPU。GPU 的数据来自公开发表的测量，每一条都注明了硬件和出处；TPU 只有厂商宣称的数字，并已标明。",
        "es": "Aquí no hay GPU ni TPU: las mediciones de este cuaderno cronometran esta CPU. Las cifras de GPU vienen de mediciones publicadas, cada una con su hardware y su fuente; para las TPU solo hay una afirmación del fabricante, señalada como tal.",
        "ko": "GPU나 TPU가 없으므로 여기서 직접 하는 측정은 이 CPU에서 이루어집니다. GPU 수치는 하드웨어와 출처를 밝힌 공개 측정값에서 가져왔습니다. TPU에 대해서는 벤더의 주장밖에 없으며, 주장임을 표시해 두었습니다.",
        "ru": "GPU и TPU здесь нет: замеры, запускаемые в блокноте, выполняются на этом CPU. Цифры для GPU взяты из опубликованных измерений, у каждого указаны оборудование и источник; для TPU есть только заявление производителя, помеченное как таковое.",
    },
    "course.ch08.gpu": {
        "en": "A GPU is available: the live measurements time it, so you can see its Tensor Cores at work. Raise the sizes for clearer numbers.",
        "zh": "检测到 GPU：现场测量的就是它，你可以看到 Tensor Core 的效果。把规模调大，数字会更清楚。",
        "es": "Hay una GPU disponible: las mediciones que se hacen aquí la cronometran, así que verás trabajar sus Tensor Cores. Aumenta los tamaños para obtener cifras más claras.",
        "ko": "GPU를 사용할 수 있습니다. 여기서 직접 하는 측정은 GPU에서 이루어지므로 Tensor Core가 실제로 동작하는 모습을 볼 수 있습니다. 크기를 키우면 수치가 더 분명해집니다.",
        "ru": "Доступен GPU: замеры, запускаемые в блокноте, выполняются на нём, и вы увидите работу тензорных ядер. Увеличьте размеры, чтобы цифры были нагляднее.",
    },
    "course.ch08.tpu": {
        "en": "A TPU runtime: the live measurements here time the host CPU, not the TPU. No published float32-vs-bfloat16 TPU training measurement was found; the TPU figure is a vendor claim, labelled as one.",
        "zh": "TPU 运行时：这里现场测量的是主机 CPU，而不是 TPU。我们没有找到已发表的 TPU 上 float32 与 bfloat16 训练的对比测量；TPU 的数字是厂商宣称，并已标明。",
        "es": "Entorno TPU: las mediciones que se hacen aquí cronometran la CPU del host, no la TPU. No se encontró ninguna medición publicada de entrenamiento en TPU con float32 frente a bfloat16; la cifra de TPU es una afirmación del fabricante, señalada como tal.",
        "ko": "TPU 런타임입니다. 여기서 직접 하는 측정은 TPU가 아니라 호스트 CPU에서 이루어집니다. TPU에서 float32와 bfloat16의 훈련을 비교한 공개 측정값은 찾지 못했으며, TPU 수치는 벤더의 주장으로 표시되어 있습니다.",
        "ru": "Среда TPU: замеры, запускаемые в блокноте, выполняются на CPU хоста, а не на TPU. Опубликованного измерения обучения на TPU в float32 против bfloat16 найти не удалось; цифра для TPU — заявление производителя, помеченное как таковое.",
    },
    "checks.ch08.need_int": {
        "en": "Expected a whole number, but the answer is of type {actual}.",
        "zh": "这里需要一个整数，但答案的类型是 {actual}。",
        "es": "Se esperaba un número entero, pero la respuesta es de tipo {actual}.",
        "ko": "정수가 필요하지만 답의 타입은 {actual}입니다.",
        "ru": "Ожидалось целое число, а ответ имеет тип {actual}.",
    },
    "checks.ch08.too_small": {
        "en": "{answer} is smaller than {size}: padding may add unused rows, never remove needed ones.",
        "zh": "{answer} 小于 {size}：填充只能增加用不到的行，不能去掉需要的行。",
        "es": "{answer} es menor que {size}: el relleno puede añadir filas sin usar, nunca quitar las necesarias.",
        "ko": "입력한 값({answer})은 {size}보다 작습니다. 패딩은 쓰지 않는 행을 더할 수는 있어도 필요한 행을 뺄 수는 없습니다.",
        "ru": "{answer} меньше {size}: дополнение может добавить неиспользуемые строки, но не убрать нужные.",
    },
    "checks.ch08.not_multiple": {
        "en": "{answer} is not a multiple of {multiple} (the remainder is {remainder}).",
        "zh": "{answer} 不是 {multiple} 的倍数（余数是 {remainder}）。",
        "es": "{answer} no es múltiplo de {multiple} (el resto es {remainder}).",
        "ko": "입력한 값({answer})은 {multiple}의 배수가 아닙니다(나머지 {remainder}).",
        "ru": "{answer} не кратно {multiple} (остаток {remainder}).",
    },
    "checks.ch08.too_big": {
        "en": "{answer} is a multiple of {multiple}, but it wastes {waste} rows: a smaller multiple of {multiple} also holds {size}.",
        "zh": "{answer} 是 {multiple} 的倍数，但浪费了 {waste} 行：一个更小的 {multiple} 的倍数也能容纳 {size}。",
        "es": "{answer} es múltiplo de {multiple}, pero desperdicia {waste} filas: un múltiplo de {multiple} más pequeño también da cabida a {size}.",
        "ko": "입력한 값({answer})은 {multiple}의 배수이지만 {waste}개 행을 낭비합니다. {multiple}의 배수 중 더 작은 값으로도 {size}개를 담을 수 있습니다.",
        "ru": "{answer} кратно {multiple}, но число лишних строк — {waste}: меньшее кратное {multiple} тоже вмещает {size}.",
    },
    "checks.ch08.tensor_cores_ok": {
        "en": "Right: {best} is the smallest multiple of {multiple} that holds {size} outputs; the extra logits are never the right answer, so training simply learns to ignore them.",
        "zh": "正确：{best} 是能容纳 {size} 个输出的最小的 {multiple} 的倍数；多出来的 logits 永远不是正确答案，训练会学会忽略它们。",
        "es": "Correcto: {best} es el menor múltiplo de {multiple} que contiene {size} salidas; los logits de más nunca son la respuesta correcta, así que el entrenamiento aprende a ignorarlos.",
        "ko": "정답입니다. {size}개 출력을 담는 {multiple}의 배수 중 가장 작은 값은 {best}입니다. 남는 로짓은 정답이 될 일이 없으므로 모델은 훈련 중에 이를 무시하는 법을 배울 뿐입니다.",
        "ru": "Верно: {best} — наименьшее кратное {multiple}, вмещающее {size} выходов; лишние логиты никогда не бывают правильным ответом, и модель в ходе обучения просто учится их игнорировать.",
    },
    "checks.ch08.tpu_ok": {
        "en": "Right: {best} is the smallest multiple of {multiple} that holds {size} units. This helps float32 on a TPU as much as bfloat16.",
        "zh": "正确：{best} 是能容纳 {size} 个单元的最小的 {multiple} 的倍数。这在 TPU 上对 float32 和 bfloat16 同样有帮助。",
        "es": "Correcto: {best} es el menor múltiplo de {multiple} que contiene {size} unidades. En una TPU esto ayuda a float32 tanto como a bfloat16.",
        "ko": "정답입니다. {size}개 유닛을 담는 {multiple}의 배수 중 가장 작은 값은 {best}입니다. TPU에서는 bfloat16뿐 아니라 float32에도 똑같이 도움이 됩니다.",
        "ru": "Верно: {best} — наименьшее кратное {multiple}, вмещающее {size} нейронов. На TPU это помогает float32 так же, как bfloat16.",
    },
}
