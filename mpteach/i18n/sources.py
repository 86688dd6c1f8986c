"""The data mpteach quotes, in every language: published measurements and vendor claims.

``mpteach/data/published_measurements.json`` and ``mpteach/data/vendor_claims.json`` are written in
English. Each of their strings that a learner reads as prose (what was run, notes, precisions,
units, table titles, the claims' sources, quotes and hardware) is translated here, and
:func:`mpteach.i18n.localized` finds it by its English text: the ``"en"`` text of a message *is* the
data string, where a ``{placeholder}`` stands for a name or number that stays as it is (matched
greedily). A data string must match exactly one message, or be listed in :data:`NAMES` (product,
model and version names, kept in every language); anything else is an error, so a new data row
cannot print English in a translated notebook.
"""

NAMES = frozenset({
    # systems
    "NVIDIA DGX A100 (8x A100 80G)", "NVIDIA DGX A100 (8x A100 80GB)", "NVIDIA DGX A100 (8xA100 80G)",
    "NVIDIA DGX A100 (8x A100 40GB)", "NVIDIA DGX-1 (8x V100 16G)", "NVIDIA DGX-1 (8x V100 16GB)",
    "NVIDIA DGX-1 (8xV100 32G)", "NVIDIA DGX-1 (8x V100 32GB)", "NVIDIA DGX-1 V100 (8x V100 16GB)",
    "NVIDIA DGX-1 V100 (8x V100 32GB)", "NVIDIA DGX-2 (16x V100 32GB)",
    "NVIDIA DGX-2 V100 (16x V100 32GB)",
    # models
    "Mask R-CNN", "nnU-Net 2D", "nnU-Net 3D", "Wide & Deep", "BERT-Large", "ELECTRA-base",
    "ResNet-50", "ResNet-152",
    # frameworks and precisions
    "TensorFlow 1.15", "TensorFlow 2.2", "TensorFlow 2.4", "FP32", "TF32", "fp32",
})  # fmt: skip

MESSAGES = {
    # --- published measurements: what was run (`model`, `workload`)
    "sources.model.unet_medical": {
        "en": "U-Net (medical image segmentation)",
        "zh": "U-Net（医学图像分割）",
        "es": "U-Net (segmentación de imágenes médicas)",
        "ko": "U-Net(의료 영상 분할)",
        "ru": "U-Net (сегментация медицинских изображений)",
    },
    "sources.workload.training": {
        "en": "training",
        "zh": "训练",
        "es": "entrenamiento",
        "ko": "훈련",
        "ru": "обучение",
    },
    "sources.workload.synthetic_imagenet": {
        "en": "training, synthetic ImageNet data (tf_cnn_benchmarks)",
        "zh": "训练，合成 ImageNet 数据（tf_cnn_benchmarks）",
        "es": "entrenamiento, datos sintéticos de ImageNet (tf_cnn_benchmarks)",
        "ko": "훈련, 합성 ImageNet 데이터(tf_cnn_benchmarks)",
        "ru": "обучение, синтетические данные ImageNet (tf_cnn_benchmarks)",
    },
    "sources.workload.pretraining_lamb": {
        "en": "pre-training (LAMB), sequence length {length}",
        "zh": "预训练（LAMB），序列长度 {length}",
        "es": "preentrenamiento (LAMB), longitud de secuencia {length}",
        "ko": "사전 훈련(LAMB), 시퀀스 길이 {length}",
        "ru": "предобучение (LAMB), длина последовательности {length}",
    },
    "sources.workload.pretraining": {
        "en": "pre-training, sequence length {length}",
        "zh": "预训练，序列长度 {length}",
        "es": "preentrenamiento, longitud de secuencia {length}",
        "ko": "사전 훈련, 시퀀스 길이 {length}",
        "ru": "предобучение, длина последовательности {length}",
    },
    "sources.workload.squad": {
        "en": "fine-tuning, SQuAD v1.1 (sequence length {length})",
        "zh": "微调，SQuAD v1.1（序列长度 {length}）",
        "es": "ajuste fino, SQuAD v1.1 (longitud de secuencia {length})",
        "ko": "파인튜닝, SQuAD v1.1(시퀀스 길이 {length})",
        "ru": "дообучение, SQuAD v1.1 (длина последовательности {length})",
    },
    # --- where and with what (`system`, `framework`)
    "sources.system.log_folder": {
        "en": "{gpu} ({gpus} GPU; log folder {folder})",
        "zh": "{gpu}（{gpus} 块 GPU；日志文件夹 {folder}）",
        "es": "{gpu} ({gpus} GPU; carpeta de registros {folder})",
        "ko": "{gpu}(GPU {gpus}개, 로그 폴더 {folder})",
        "ru": "{gpu} ({gpus} GPU; папка с логами {folder})",
    },
    "sources.framework.ngc_unstated_for_table": {
        "en": "NGC container (version not stated for this table)",
        "zh": "NGC 容器（此表未注明版本）",
        "es": "contenedor NGC (versión no indicada para esta tabla)",
        "ko": "NGC 컨테이너(이 표에는 버전 명시 없음)",
        "ru": "контейнер NGC (версия для этой таблицы не указана)",
    },
    "sources.framework.ngc_unstated": {
        "en": "TensorFlow2 NGC container (version not stated)",
        "zh": "TensorFlow2 NGC 容器（未注明版本）",
        "es": "contenedor NGC de TensorFlow2 (versión no indicada)",
        "ko": "TensorFlow2 NGC 컨테이너(버전 명시 없음)",
        "ru": "контейнер NGC с TensorFlow2 (версия не указана)",
    },
    "sources.framework.ngc_image": {
        "en": "NGC container tensorflow:{tag}",
        "zh": "NGC 容器 tensorflow:{tag}",
        "es": "contenedor NGC tensorflow:{tag}",
        "ko": "NGC 컨테이너 tensorflow:{tag}",
        "ru": "контейнер NGC tensorflow:{tag}",
    },
    "sources.framework.ngc_version": {
        "en": "NGC container TensorFlow {version}",
        "zh": "NGC 容器 TensorFlow {version}",
        "es": "contenedor NGC TensorFlow {version}",
        "ko": "NGC 컨테이너 TensorFlow {version}",
        "ru": "контейнер NGC TensorFlow {version}",
    },
    # --- how it was measured (`precision`, `throughput.unit`, `notes`, `speedup_note`)
    "sources.precision.mixed": {
        "en": "mixed precision",
        "zh": "混合精度",
        "es": "precisión mixta",
        "ko": "혼합 정밀도",
        "ru": "смешанная точность",
    },
    "sources.precision.fp16_fp32_variables": {
        "en": "fp16, fp32 vars",
        "zh": "fp16（变量 fp32）",
        "es": "fp16, variables fp32",
        "ko": "fp16(변수 fp32)",
        "ru": "fp16, переменные fp32",
    },
    "sources.unit.images": {
        "en": "images/s",
        "zh": "图像/秒",
        "es": "imágenes/s",
        "ko": "이미지/초",
        "ru": "изобр./с",
    },
    "sources.unit.sequences": {
        "en": "sequences/s",
        "zh": "序列/秒",
        "es": "secuencias/s",
        "ko": "시퀀스/초",
        "ru": "послед./с",
    },
    "sources.unit.samples": {
        "en": "samples/s",
        "zh": "样本/秒",
        "es": "muestras/s",
        "ko": "샘플/초",
        "ru": "примеров/с",
    },
    "sources.notes.xla_volumes": {
        "en": "run with --xla; the text says volumes per second, the table header img/s",
        "zh": "以 --xla 运行；正文的单位是每秒处理的体数据（volume）数，表头写的却是 img/s",
        "es": "ejecutado con --xla; el texto habla de volúmenes por segundo, y la cabecera de la tabla, de img/s",
        "ko": "--xla 사용, 단위는 본문에서 초당 볼륨 수, 표 머리글에서 img/s",
        "ru": "запуск с --xla; в тексте единица — объёмы (3D-снимки) в секунду, в заголовке таблицы — img/s",
    },
    "sources.notes.accumulation_steady": {
        "en": "gradient accumulation {baseline_steps} ({baseline}) and {mixed_steps} (mixed precision) steps; steady-state throughput",
        "zh": "梯度累积 {baseline_steps} 步（{baseline}）和 {mixed_steps} 步（混合精度）；稳态吞吐量",
        "es": "acumulación de gradientes en {baseline_steps} ({baseline}) y {mixed_steps} (precisión mixta) pasos; velocidad de procesamiento en régimen estable",
        "ko": "그래디언트 누적 {baseline_steps}스텝({baseline}) 및 {mixed_steps}스텝(혼합 정밀도), 정상 상태 처리량",
        "ru": "шагов накопления градиентов: {baseline_steps} ({baseline}) и {mixed_steps} (смешанная точность); пропускная способность в установившемся режиме",
    },
    "sources.notes.accumulation_epoch": {
        "en": "gradient accumulation {baseline_steps} ({baseline}) and {mixed_steps} (mixed precision) steps; averaged over an entire training epoch",
        "zh": "梯度累积 {baseline_steps} 步（{baseline}）和 {mixed_steps} 步（混合精度）；整个训练轮次的平均值",
        "es": "acumulación de gradientes en {baseline_steps} ({baseline}) y {mixed_steps} (precisión mixta) pasos; promedio de toda una época de entrenamiento",
        "ko": "그래디언트 누적 {baseline_steps}스텝({baseline}) 및 {mixed_steps}스텝(혼합 정밀도), 훈련 에포크 전체의 평균",
        "ru": "шагов накопления градиентов: {baseline_steps} ({baseline}) и {mixed_steps} (смешанная точность); среднее за целую эпоху обучения",
    },
    "sources.notes.epoch_average": {
        "en": "averaged over an entire training epoch",
        "zh": "整个训练轮次的平均值",
        "es": "promedio de toda una época de entrenamiento",
        "ko": "훈련 에포크 전체의 평균",
        "ru": "среднее за целую эпоху обучения",
    },
    "sources.notes.epochs_mean": {
        "en": "mean throughput over {epochs} epochs",
        "zh": "{epochs} 个轮次的平均吞吐量",
        "es": "velocidad de procesamiento media en {epochs} épocas",
        "ko": "{epochs}에포크 평균 처리량",
        "ru": "средняя пропускная способность, эпох: {epochs}",
    },
    "sources.notes.tf_cnn_fp16": {
        "en": "fp16 = tf_cnn_benchmarks --use_fp16=True, which keeps variables in fp32; 'total images/sec' of one run of {batches} batches; the source states no speedup",
        "zh": "fp16 = tf_cnn_benchmarks --use_fp16=True，变量仍保存为 fp32；数值是单次运行 {batches} 个批次的 'total images/sec'；来源没有给出加速比",
        "es": "fp16 = tf_cnn_benchmarks --use_fp16=True, que mantiene las variables en fp32; 'total images/sec' de una ejecución de {batches} lotes; la fuente no indica la aceleración",
        "ko": "fp16 = tf_cnn_benchmarks --use_fp16=True(변수는 fp32로 유지), 값은 {batches}배치를 한 번 실행한 'total images/sec', 출처에 속도 향상 표기 없음",
        "ru": "fp16 = tf_cnn_benchmarks --use_fp16=True, при котором переменные остаются в fp32; «total images/sec» одного запуска из {batches} батчей; ускорения источник не приводит",
    },
    "sources.speedup_note.contradiction": {
        "en": "the table states {stated}, but its own throughputs give {mixed} / {baseline} = {ratio}",
        "zh": "表中写的是 {stated}，但按它自己的吞吐量计算是 {mixed} / {baseline} = {ratio}",
        "es": "la tabla indica {stated}, pero sus propias velocidades de procesamiento dan {mixed} / {baseline} = {ratio}",
        "ko": "표에는 {stated}배로 적혀 있지만, 표 자체의 처리량으로 계산하면 {mixed} / {baseline} = {ratio}",
        "ru": "в таблице указано {stated}, но её же значения пропускной способности дают {mixed} / {baseline} = {ratio}",
    },
    # --- the table or file each row was copied from (`source.table`)
    "sources.table.training": {
        "en": "Training performance: {system}",
        "zh": "训练性能：{system}",
        "es": "Rendimiento de entrenamiento: {system}",
        "ko": "훈련 성능: {system}",
        "ru": "Производительность обучения: {system}",
    },
    "sources.table.pretraining_single_node": {
        "en": "Pre-training training performance: Single-node on {system}",
        "zh": "预训练性能：单节点 {system}",
        "es": "Rendimiento de preentrenamiento: un solo nodo, {system}",
        "ko": "사전 훈련 성능: 단일 노드 {system}",
        "ru": "Производительность предобучения на одном узле: {system}",
    },
    "sources.table.squad": {
        "en": "Fine-tuning training performance for SQuAD v1.1 on {system}",
        "zh": "SQuAD v1.1 微调性能：{system}",
        "es": "Rendimiento del ajuste fino en SQuAD v1.1: {system}",
        "ko": "SQuAD v1.1 파인튜닝 성능: {system}",
        "ru": "Производительность дообучения на SQuAD v1.1: {system}",
    },
    "sources.table.pretraining": {
        "en": "Pre-training NVIDIA {system}",
        "zh": "预训练：NVIDIA {system}",
        "es": "Preentrenamiento: NVIDIA {system}",
        "ko": "사전 훈련: NVIDIA {system}",
        "ru": "Предобучение: NVIDIA {system}",
    },
    "sources.table.finetuning": {
        "en": "Fine-tuning NVIDIA {system}",
        "zh": "微调：NVIDIA {system}",
        "es": "Ajuste fino: NVIDIA {system}",
        "ko": "파인튜닝: NVIDIA {system}",
        "ru": "Дообучение: NVIDIA {system}",
    },
    "sources.table.tf_cnn_logs": {
        "en": "tf_cnn_benchmarks training logs (summarised in {fp32_csv} and {fp16_csv})",
        "zh": "tf_cnn_benchmarks 训练日志（汇总于 {fp32_csv} 和 {fp16_csv}）",
        "es": "registros de entrenamiento de tf_cnn_benchmarks (resumidos en {fp32_csv} y {fp16_csv})",
        "ko": "tf_cnn_benchmarks 훈련 로그({fp32_csv}, {fp16_csv}에 요약됨)",
        "ru": "логи обучения tf_cnn_benchmarks (сводные таблицы: {fp32_csv} и {fp16_csv})",
    },
    # --- vendor claims: where they are published (`source`)
    "sources.claim.source.tensorflow": {
        "en": "TensorFlow guide: Mixed precision",
        "zh": "TensorFlow 指南《混合精度》",
        "es": "Guía de TensorFlow «Precisión mixta»",
        "ko": "TensorFlow 가이드 「혼합 정밀도」",
        "ru": "Руководство TensorFlow «Смешанная точность»",
    },
    "sources.claim.source.keras": {
        "en": "Keras API: Mixed precision",
        "zh": "Keras API 文档《混合精度》",
        "es": "Documentación de la API de Keras «Precisión mixta»",
        "ko": "Keras API 문서 「혼합 정밀도」",
        "ru": "Документация Keras API «Смешанная точность»",
    },
    "sources.claim.source.nvidia": {
        "en": "NVIDIA: Automatic Mixed Precision for Deep Learning",
        "zh": "NVIDIA《深度学习的自动混合精度》",
        "es": "NVIDIA «Precisión mixta automática para aprendizaje profundo»",
        "ko": "NVIDIA 「딥러닝을 위한 자동 혼합 정밀도」",
        "ru": "NVIDIA «Автоматическая смешанная точность для глубокого обучения»",
    },
    "sources.claim.source.pytorch": {
        "en": "PyTorch recipe: Automatic Mixed Precision",
        "zh": "PyTorch 教程《自动混合精度》",
        "es": "Receta de PyTorch «Precisión mixta automática»",
        "ko": "PyTorch 레시피 「자동 혼합 정밀도」",
        "ru": "Рецепт PyTorch «Автоматическая смешанная точность»",
    },
    # --- what they claim (`quote`: translated; the English quote is shown beside it)
    "sources.claim.quote.gpus": {
        "en": "more than 3 times on modern GPUs",
        "zh": "在现代 GPU 上快 3 倍以上",
        "es": "más de 3 veces en las GPU modernas",
        "ko": "최신 GPU에서 3배 이상",
        "ru": "более чем в 3 раза на современных GPU",
    },
    "sources.claim.quote.tpus": {
        "en": "60% on TPUs",
        "zh": "在 TPU 上快 60%",
        "es": "un 60 % en las TPU",
        "ko": "TPU에서 60%",
        "ru": "на 60 % на TPU",
    },
    "sources.claim.quote.cpus": {
        "en": "more than 2 times on latest Intel CPUs",
        "zh": "在最新的 Intel CPU 上快 2 倍以上",
        "es": "más de 2 veces en las CPU Intel más recientes",
        "ko": "최신 Intel CPU에서 2배 이상",
        "ru": "более чем в 2 раза на новейших процессорах Intel",
    },
    "sources.claim.quote.gpus_and_tpus": {
        "en": "more than 3 times on modern GPUs and 60% on TPUs",
        "zh": "在现代 GPU 上快 3 倍以上，在 TPU 上快 60%",
        "es": "más de 3 veces en las GPU modernas y un 60 % en las TPU",
        "ko": "최신 GPU에서 3배 이상, TPU에서 60%",
        "ru": "более чем в 3 раза на современных GPU и на 60 % на TPU",
    },
    "sources.claim.quote.volta_turing": {
        "en": "speedups of up to 3X on NVIDIA Volta and Turing GPUs",
        "zh": "在 NVIDIA Volta 和 Turing GPU 上最高可加速 3 倍",
        "es": "aceleraciones de hasta 3× en las GPU NVIDIA Volta y Turing",
        "ko": "NVIDIA Volta 및 Turing GPU에서 최대 3배의 속도 향상",
        "ru": "ускорение до 3 раз на GPU NVIDIA Volta и Turing",
    },
    "sources.claim.quote.significant": {
        "en": "significant (2-3X) speedup",
        "zh": "显著的（2-3 倍）加速",
        "es": "una aceleración significativa (de 2 a 3×)",
        "ko": "상당한(2~3배) 속도 향상",
        "ru": "значительное ускорение (в 2–3 раза)",
    },
    # --- what hardware they are about (`hardware`)
    "sources.claim.hardware.compute_capability_7": {
        "en": "NVIDIA GPUs with compute capability 7.0 or higher",
        "zh": "计算能力 7.0 及以上的 NVIDIA GPU",
        "es": "GPU NVIDIA con capacidad de cómputo 7.0 o superior",
        "ko": "compute capability 7.0 이상의 NVIDIA GPU",
        "ru": "GPU NVIDIA с compute capability 7.0 и выше",
    },
    "sources.claim.hardware.cloud_tpus": {
        "en": "Cloud TPUs",
        "zh": "Google Cloud 上的 Cloud TPU",
        "es": "Cloud TPU de Google",
        "ko": "Google Cloud의 Cloud TPU",
        "ru": "TPU в Google Cloud",
    },
    "sources.claim.hardware.intel_amx": {
        "en": "Intel CPUs with AMX (4th generation Xeon and later)",
        "zh": "支持 AMX 的 Intel CPU（第 4 代 Xeon 及更新的型号）",
        "es": "CPU Intel con AMX (Xeon de 4.ª generación y posteriores)",
        "ko": "AMX를 지원하는 Intel CPU(4세대 Xeon 이후)",
        "ru": "процессоры Intel с AMX (Xeon 4-го поколения и новее)",
    },
    "sources.claim.hardware.volta_turing": {
        "en": "NVIDIA Volta and Turing GPUs (V100, T4)",
        "zh": "NVIDIA Volta 和 Turing GPU（V100、T4）",
        "es": "GPU NVIDIA Volta y Turing (V100, T4)",
        "ko": "NVIDIA Volta 및 Turing GPU(V100, T4)",
        "ru": "GPU NVIDIA Volta и Turing (V100, T4)",
    },
    "sources.claim.hardware.volta_to_ampere": {
        "en": "NVIDIA Volta, Turing and Ampere GPUs; modest on Kepler, Maxwell and Pascal",
        "zh": "NVIDIA Volta、Turing 和 Ampere GPU；在 Kepler、Maxwell 和 Pascal 上收益有限",
        "es": "GPU NVIDIA Volta, Turing y Ampere; aceleración modesta en Kepler, Maxwell y Pascal",
        "ko": "NVIDIA Volta, Turing, Ampere GPU(Kepler, Maxwell, Pascal에서는 향상 폭이 작음)",
        "ru": "GPU NVIDIA Volta, Turing и Ampere; на Kepler, Maxwell и Pascal ускорение скромнее",
    },
    # --- how the figure is meant (`kind`: the claim says "more than 3 times", "up to 3X", ...)
    "sources.claim.kind.more_than": {
        "en": "more than",
        "zh": "以上",
        "es": "más de",
        "ko": "이상",
        "ru": "более чем",
    },
    "sources.claim.kind.about": {
        "en": "about",
        "zh": "约",
        "es": "aproximadamente",
        "ko": "약",
        "ru": "около",
    },
    "sources.claim.kind.up_to": {
        "en": "up to",
        "zh": "最高",
        "es": "hasta",
        "ko": "최대",
        "ru": "до",
    },
    "sources.claim.kind.range": {
        "en": "{low} to {high} times",
        "zh": "{low} 到 {high} 倍",
        "es": "de {low} a {high} veces",
        "ko": "{low}~{high}배",
        "ru": "в {low}–{high} раза",
    },
}
