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
        "en": "TensorFlow is not installed in this runtime (Colab's TPU runtimes have none). "
        "Run `%pip install tensorflow` or switch to a CPU/GPU runtime; recorded results are shown instead.",
        "zh": "此运行时没有安装 TensorFlow（Colab 的 TPU 运行时不带 TensorFlow）。"
        "请运行 `%pip install tensorflow` 或切换到 CPU/GPU 运行时；本章将改为展示已记录的结果。",
        "es": "Este entorno no tiene TensorFlow instalado (los entornos TPU de Colab no lo incluyen). "
        "Ejecuta `%pip install tensorflow` o cambia a un entorno CPU/GPU; se mostrarán resultados registrados.",
        "ko": "이 런타임에는 TensorFlow가 설치되어 있지 않습니다(Colab TPU 런타임에는 없습니다). "
        "`%pip install tensorflow`를 실행하거나 CPU/GPU 런타임으로 바꾸세요. 대신 기록된 결과를 보여 줍니다.",
        "ru": "В этой среде не установлен TensorFlow (в TPU-средах Colab его нет). Выполните `%pip install tensorflow` или переключитесь на среду с CPU/GPU; вместо этого будут показаны записанные результаты.",
    },
    "course.general.cpu": {
        "en": "No GPU or TPU here: every example runs on the CPU. Results are the same; speed differs by hardware.",
        "zh": "这里没有 GPU 或 TPU：所有示例都在 CPU 上运行。结果相同，速度取决于硬件。",
        "es": "Aquí no hay GPU ni TPU: todos los ejemplos se ejecutan en la CPU. Los resultados son los mismos; la velocidad depende del hardware.",
        "ko": "GPU나 TPU가 없으므로 모든 예제가 CPU에서 실행됩니다. 결과는 같고 속도만 하드웨어에 따라 다릅니다.",
        "ru": "GPU и TPU здесь нет: все примеры выполняются на CPU. Результаты те же, скорость зависит от оборудования.",
    },
    "course.general.gpu": {
        "en": "A GPU is available: TensorFlow places the examples on it. Results are the same as on a CPU.",
        "zh": "检测到 GPU：TensorFlow 会把示例放在 GPU 上运行。结果与 CPU 上相同。",
        "es": "Hay una GPU disponible: TensorFlow ejecuta los ejemplos en ella. Los resultados son los mismos que en CPU.",
        "ko": "GPU를 사용할 수 있습니다. TensorFlow가 예제를 GPU에 배치합니다. 결과는 CPU에서와 같습니다.",
        "ru": "Доступен GPU: TensorFlow выполняет примеры на нём. Результаты те же, что и на CPU.",
    },
    "course.general.tpu": {
        "en": "A TPU runtime: bfloat16 is the TPU's native 16-bit format; the examples themselves run on the host CPU.",
        "zh": "TPU 运行时：bfloat16 是 TPU 原生的 16 位格式；本章示例在主机 CPU 上运行。",
        "es": "Entorno TPU: bfloat16 es el formato nativo de 16 bits de la TPU; los ejemplos se ejecutan en la CPU del host.",
        "ko": "TPU 런타임입니다. bfloat16은 TPU의 기본 16비트 형식이며, 예제 자체는 호스트 CPU에서 실행됩니다.",
        "ru": "Среда TPU: bfloat16 — родной 16-битный формат TPU; сами примеры выполняются на CPU хоста.",
    },
}
