"""Messages of the chapters' setup cell."""

MESSAGES = {
    "course.where_colab": {
        "en": "Running in Google Colab",
        "zh": "运行环境：Google Colab",
        "es": "Se ejecuta en Google Colab",
        "ko": "Google Colab에서 실행 중",
        "ru": "Запуск в Google Colab",
    },
    "course.where_local": {
        "en": "Running in a local Jupyter kernel",
        "zh": "运行环境：本地 Jupyter 内核",
        "es": "Se ejecuta en un kernel local de Jupyter",
        "ko": "로컬 Jupyter 커널에서 실행 중",
        "ru": "Запуск в локальном ядре Jupyter",
    },
    "course.no_tensorflow": {
        "en": "No TensorFlow in this runtime (Colab's TPU runtimes have none): the cells that use it stop "
        "with “No module named 'tensorflow'”, while the float formats, the loss-scale simulator, the recorded "
        "results and the widgets built on them still run. To run every cell, switch to a CPU or GPU runtime; "
        "installing TensorFlow here would conflict with the runtime's JAX packages.",
        "zh": "此运行时没有 TensorFlow（Colab 的 TPU 运行时都没有）：用到它的单元格会因“No module named "
        "'tensorflow'”而停止；浮点格式、损失缩放模拟器、已记录的结果以及基于它们的小部件仍可运行。"
        "要运行全部单元格，请切换到 CPU 或 GPU 运行时；在这里安装 TensorFlow 会与运行时自带的 JAX 软件包冲突。",
        "es": "Este entorno no tiene TensorFlow (los entornos TPU de Colab no lo incluyen): las celdas que lo usan "
        "se detienen con «No module named 'tensorflow'», mientras que los formatos de coma flotante, el simulador "
        "del escalado de la pérdida, los resultados registrados y los widgets basados en ellos siguen funcionando. "
        "Para ejecutar todas las celdas, cambia a un entorno CPU o GPU; instalar TensorFlow aquí entraría en "
        "conflicto con los paquetes de JAX del entorno.",
        "ko": "이 런타임에는 TensorFlow가 없습니다(Colab TPU 런타임에는 모두 없습니다). TensorFlow를 쓰는 셀은 "
        "“No module named 'tensorflow'” 오류로 멈추지만, 부동소수점 형식, 손실 스케일링 시뮬레이터, 기록된 결과와 "
        "이를 바탕으로 한 위젯은 그대로 실행됩니다. 모든 셀을 실행하려면 CPU 또는 GPU 런타임으로 바꾸세요. "
        "여기에 TensorFlow를 설치하면 런타임의 JAX 패키지와 충돌합니다.",
        "ru": "В этой среде нет TensorFlow (в TPU-средах Colab его нет): ячейки, которые его используют, "
        "останавливаются с ошибкой «No module named 'tensorflow'», а форматы чисел с плавающей точкой, симулятор "
        "масштабирования потерь, записанные результаты и виджеты на их основе продолжают работать. Чтобы "
        "выполнить все ячейки, переключитесь на среду с CPU или GPU; установка TensorFlow здесь приведёт к "
        "конфликту с пакетами JAX этой среды.",
    },
    "course.general.cpu": {
        "en": "No GPU or TPU here: every example runs on the CPU. Dtypes and behaviour are the same on any hardware; speed differs, and so can the last digits of a result.",
        "zh": "这里没有 GPU 或 TPU：所有示例都在 CPU 上运行。dtype 和行为在任何硬件上都相同；不同的是速度，结果的最后几位数字也可能不同。",
        "es": "Aquí no hay GPU ni TPU: todos los ejemplos se ejecutan en la CPU. Los dtypes y el comportamiento son los mismos en cualquier hardware; cambia la velocidad, y pueden cambiar las últimas cifras de un resultado.",
        "ko": "GPU나 TPU가 없으므로 모든 예제가 CPU에서 실행됩니다. dtype과 동작은 어떤 하드웨어에서나 같고, 속도와 결과의 마지막 몇 자리는 다를 수 있습니다.",
        "ru": "GPU и TPU здесь нет: все примеры выполняются на CPU. Типы данных и поведение одинаковы на любом оборудовании; различаются скорость и, возможно, последние цифры результатов.",
    },
    "course.general.gpu": {
        "en": "A GPU is available: TensorFlow places the examples on it. Dtypes and behaviour are the same as on a CPU; the last digits of results can differ, because from Ampere (compute capability 8.0) on float32 matrix products use TF32 by default.",
        "zh": "检测到 GPU：TensorFlow 会把示例放在 GPU 上运行。dtype 和行为与 CPU 上相同；结果的最后几位数字可能不同，因为从 Ampere（计算能力 8.0）开始，float32 矩阵乘法默认使用 TF32。",
        "es": "Hay una GPU disponible: TensorFlow ejecuta los ejemplos en ella. Los dtypes y el comportamiento son los mismos que en CPU; las últimas cifras de los resultados pueden cambiar, porque desde Ampere (capacidad de cómputo 8.0) los productos de matrices en float32 usan TF32 por defecto.",
        "ko": "GPU를 사용할 수 있습니다. TensorFlow가 예제를 GPU에 배치합니다. dtype과 동작은 CPU에서와 같지만, Ampere(compute capability 8.0)부터는 float32 행렬 곱이 기본으로 TF32를 쓰기 때문에 결과의 마지막 몇 자리는 다를 수 있습니다.",
        "ru": "Доступен GPU: TensorFlow выполняет примеры на нём. Типы данных и поведение те же, что и на CPU; последние цифры результатов могут отличаться: начиная с Ampere (compute capability 8.0) матричные произведения в float32 по умолчанию используют TF32.",
    },
    "course.general.tpu": {
        "en": "A TPU runtime: bfloat16 is the TPU's native 16-bit format; the examples themselves run on the host CPU.",
        "zh": "TPU 运行时：bfloat16 是 TPU 原生的 16 位格式；本章示例在主机 CPU 上运行。",
        "es": "Entorno TPU: bfloat16 es el formato nativo de 16 bits de la TPU; los ejemplos se ejecutan en la CPU del host.",
        "ko": "TPU 런타임입니다. bfloat16은 TPU의 기본 16비트 형식이며, 예제 자체는 호스트 CPU에서 실행됩니다.",
        "ru": "Среда TPU: bfloat16 — родной 16-битный формат TPU; сами примеры выполняются на CPU хоста.",
    },
}
