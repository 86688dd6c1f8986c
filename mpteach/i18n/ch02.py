"""Messages of chapter 02 (dtype policies): its self-checks."""

MESSAGES = {
    "checks.ch02.policy_dtypes_ok": {
        "en": 'Right: only the "mixed_" policies keep their variables in float32.',
        "zh": '正确：只有 "mixed_" 策略把变量保存为 float32。',
        "es": "Correcto: solo las políticas «mixed_» guardan sus variables en float32.",
        "ko": '정답입니다. "mixed_" 정책만 변수를 float32로 저장합니다.',
        "ru": "Верно: только политики «mixed_» хранят переменные в float32.",
    },
    "checks.ch02.policy_missing": {
        "en": "No entry for {name!r}: give a pair (compute_dtype, variable_dtype) for each of "
        "'float16', 'mixed_float16' and 'mixed_bfloat16'.",
        "zh": "缺少 {name!r} 这一项：请为 'float16'、'mixed_float16' 和 'mixed_bfloat16' "
        "各给出一对 (compute_dtype, variable_dtype)。",
        "es": "Falta la entrada {name!r}: indica un par (compute_dtype, variable_dtype) para cada una de 'float16', 'mixed_float16' y 'mixed_bfloat16'.",
        "ko": "{name!r} 항목이 없습니다. 'float16', 'mixed_float16', 'mixed_bfloat16' 각각에 "
        "(compute_dtype, variable_dtype) 쌍을 적으세요.",
        "ru": "Нет записи для {name!r}: укажите пару (compute_dtype, variable_dtype) для "
        "'float16', 'mixed_float16' и 'mixed_bfloat16'.",
    },
    "checks.ch02.policy_not_pair": {
        "en": "{name!r} maps to {value!r}; give a pair (compute_dtype, variable_dtype), "
        "for example ('float32', 'float32').",
        "zh": "{name!r} 对应的是 {value!r}；请给出一对 (compute_dtype, variable_dtype)，"
        "例如 ('float32', 'float32')。",
        "es": "{name!r} corresponde a {value!r}; indica un par (compute_dtype, variable_dtype), por ejemplo ('float32', 'float32').",
        "ko": "{name!r}의 값이 {value!r}입니다. ('float32', 'float32')처럼 "
        "(compute_dtype, variable_dtype) 쌍을 적으세요.",
        "ru": "Для {name!r} указано {value!r}; нужна пара (compute_dtype, variable_dtype), "
        "например ('float32', 'float32').",
    },
    "checks.ch02.policy_swapped": {
        "en": "{name!r}: the two dtypes are swapped. The order is (compute_dtype, variable_dtype): "
        "a mixed policy computes in 16 bits and stores in 32.",
        "zh": "{name!r}：两个 dtype 顺序反了。正确的顺序是 (compute_dtype, variable_dtype)：混合策略用 16 位计算，用 32 位保存。",
        "es": "{name!r}: los dos dtypes están al revés. El orden es (compute_dtype, variable_dtype): "
        "una política mixta calcula en 16 bits y guarda en 32.",
        "ko": "{name!r}: 두 dtype의 순서가 바뀌었습니다. 순서는 (compute_dtype, variable_dtype)이며, "
        "혼합 정책은 16비트로 계산하고 32비트로 저장합니다.",
        "ru": "{name!r}: типы переставлены местами. Порядок — (compute_dtype, variable_dtype): "
        "смешанная политика считает в 16 битах, а хранит в 32.",
    },
    "checks.ch02.policy_compute": {
        "en": '{name!r} does not compute in {answer!r}. The compute dtype is the name itself, or the part after "mixed_".',
        "zh": '{name!r} 的计算 dtype 不是 {answer!r}。计算 dtype 就是名字本身，或者 "mixed_" 后面的部分。',
        "es": "{name!r} no calcula en {answer!r}. El dtype de cálculo es el propio nombre o la parte que sigue a «mixed_».",
        "ko": '{name!r} 정책은 {answer!r} dtype으로 연산하지 않습니다. 연산 dtype은 이름 그 자체이거나 "mixed_" 뒤의 부분입니다.',
        "ru": "Политика {name!r} считает не в {answer!r}. Её dtype вычислений — это само имя или его часть после «mixed_».",
    },
    "checks.ch02.policy_variable_mixed": {
        "en": '{name!r} does not store its variables in {answer!r}: every "mixed_" policy keeps variables in float32, so that small updates are not rounded away.',
        "zh": '{name!r} 不会把变量保存为 {answer!r}：所有 "mixed_" 策略都把变量保存为 float32，这样微小的更新不会被舍入掉。',
        "es": "{name!r} no guarda sus variables en {answer!r}: toda política «mixed_» las guarda en float32, para que las actualizaciones pequeñas no se pierdan al redondear.",
        "ko": '{name!r} 정책은 변수를 {answer!r} dtype으로 저장하지 않습니다. 모든 "mixed_" 정책은 작은 업데이트가 반올림으로 사라지지 않도록 변수를 float32로 저장합니다.',
        "ru": "{name!r} хранит переменные не в {answer!r}: любая политика «mixed_» держит их в float32, чтобы малые обновления не терялись при округлении.",
    },
    "checks.ch02.policy_variable_pure": {
        "en": "{name!r} is not a mixed policy: a plain dtype name sets both dtypes, "
        "the variables' included, to that dtype (not {answer!r}).",
        "zh": "{name!r} 不是混合策略：普通的 dtype 名字会把两个 dtype（包括变量的）"
        "都设为这个类型（而不是 {answer!r}）。",
        "es": "{name!r} no es una política mixta: un nombre de dtype simple fija los dos dtypes, "
        "también el de las variables, a ese tipo (no a {answer!r}).",
        "ko": "{name!r} 정책은 혼합 정책이 아닙니다. 일반 dtype 이름은 변수 dtype을 포함해 두 dtype을 모두 그 dtype으로 정합니다({answer!r} 아님).",
        "ru": "{name!r} — не смешанная политика: простое имя типа задаёт этот тип и для вычислений, и для переменных (а не {answer!r}).",
    },
    "checks.ch02.layer_is_class": {
        "en": "{name} is a class. Build a layer by calling it, {name}(...), and give that layer.",
        "zh": "{name} 是一个类。请调用 {name}(...) 创建一个层，然后给出这个层。",
        "es": "{name} es una clase. Crea una capa llamándola, {name}(...), y responde con esa capa.",
        "ko": "{name} 자체는 클래스입니다. {name}(...)처럼 호출해 레이어를 만들고 그 레이어를 answer에 넣으세요.",
        "ru": "{name} — это класс. Создайте слой вызовом {name}(...) и передайте этот слой.",
    },
    "checks.ch02.float32_layer_ok": {
        "en": 'Right: dtype="float32" overrides the global policy for this one layer.',
        "zh": '正确：dtype="float32" 只为这一层覆盖全局策略。',
        "es": 'Correcto: dtype="float32" prevalece sobre la política global solo para esta capa.',
        "ko": '정답입니다. dtype="float32"는 이 레이어 하나에 대해서만 전역 정책을 덮어씁니다.',
        "ru": 'Верно: dtype="float32" переопределяет глобальную политику только для этого слоя.',
    },
    "checks.ch02.float32_layer_mixed": {
        "en": "This layer took the global policy {name!r} and computes in 16 bits. "
        'Pass dtype="float32" when you build it.',
        "zh": '这个层采用了全局策略 {name!r}，用 16 位计算。创建它时请传入 dtype="float32"。',
        "es": "Esta capa tomó la política global {name!r} y calcula en 16 bits. "
        'Pasa dtype="float32" al crearla.',
        "ko": '이 레이어는 전역 정책({name!r})을 받아 16비트로 연산합니다. 만들 때 dtype="float32"를 넘기세요.',
        "ru": 'Этот слой получил глобальную политику {name!r} и считает в 16 битах. Передайте dtype="float32" при создании.',
    },
    "checks.ch02.float32_layer_other": {
        "en": 'This layer has the policy {name!r}, which computes in {compute}. Ask for float32: dtype="float32".',
        "zh": '这个层的策略是 {name!r}，用 {compute} 计算。请指定 float32：dtype="float32"。',
        "es": 'Esta capa tiene la política {name!r}, que calcula en {compute}. Pide float32: dtype="float32".',
        "ko": '이 레이어의 정책은 {name!r}이고 {compute} dtype으로 연산합니다. dtype="float32"로 float32를 지정하세요.',
        "ru": 'У этого слоя политика {name!r}, он считает в {compute}. Укажите float32: dtype="float32".',
    },
    "checks.ch02.global_is_name": {
        "en": "{answer!r} is a string. Give the policy object itself: answer = keras.config.dtype_policy().",
        "zh": "{answer!r} 是字符串。请给出策略对象本身：answer = keras.config.dtype_policy()。",
        "es": "{answer!r} es una cadena. Responde con el propio objeto de la política: answer = keras.config.dtype_policy().",
        "ko": "입력한 값({answer!r})은 문자열입니다. answer = keras.config.dtype_policy()처럼 정책 객체 자체를 answer에 넣으세요.",
        "ru": "{answer!r} — строка. Передайте сам объект политики: answer = keras.config.dtype_policy().",
    },
    "checks.ch02.global_is_mpteach": {
        "en": "This is an mpteach Policy. Keras layers read Keras's own global policy: set it with "
        "keras.config.set_dtype_policy and give keras.config.dtype_policy().",
        "zh": "这是 mpteach 的 Policy。Keras 的层读取的是 Keras 自己的全局策略："
        "请用 keras.config.set_dtype_policy 设置，并给出 keras.config.dtype_policy()。",
        "es": "Esto es una Policy de mpteach. Las capas de Keras leen la política global de Keras: fíjala con keras.config.set_dtype_policy y responde con keras.config.dtype_policy().",
        "ko": "이것은 mpteach의 Policy입니다. Keras 레이어는 Keras 자체의 전역 정책을 읽습니다. keras.config.set_dtype_policy로 설정하고 keras.config.dtype_policy()를 answer에 넣으세요.",
        "ru": "Это Policy из mpteach. Слои Keras читают собственную глобальную политику Keras: "
        "задайте её через keras.config.set_dtype_policy и передайте keras.config.dtype_policy().",
    },
    "checks.ch02.global_ok": {
        "en": "Right. The old loss_scale= argument has no place on today's policy: compile() wraps "
        "the optimizer in a LossScaleOptimizer for mixed_float16 (chapter 06).",
        "zh": "正确。如今的策略已不再接受旧的 loss_scale= 参数：对于 mixed_float16，compile() 会把优化器包装进 LossScaleOptimizer（第 06 章）。",
        "es": "Correcto. El antiguo argumento loss_scale= ya no existe en la política: con "
        "mixed_float16, compile() envuelve el optimizador en un LossScaleOptimizer (capítulo 06).",
        "ko": "정답입니다. 예전의 loss_scale= 인자는 현재의 정책에는 없습니다. mixed_float16이면 compile()이 옵티마이저를 LossScaleOptimizer로 감쌉니다(06장).",
        "ru": "Верно. Старого аргумента loss_scale= у политики больше нет: для mixed_float16 "
        "compile() сам оборачивает оптимизатор в LossScaleOptimizer (глава 06).",
    },
    "checks.ch02.global_pure_float16": {
        "en": 'The global policy is "float16", so variables would be float16 too. '
        'The old Policy("mixed_float16", loss_scale=...) means "mixed_float16".',
        "zh": '全局策略是 "float16"，这样变量也会是 float16。'
        '旧的 Policy("mixed_float16", loss_scale=...) 对应的是 "mixed_float16"。',
        "es": 'La política global es "float16", así que las variables también serían float16. '
        'La antigua Policy("mixed_float16", loss_scale=...) equivale a "mixed_float16".',
        "ko": '전역 정책이 "float16"이라 변수도 float16이 됩니다. '
        '예전의 Policy("mixed_float16", loss_scale=...)는 "mixed_float16"에 해당합니다.',
        "ru": 'Глобальная политика — "float16", и переменные тоже были бы float16. '
        'Старая Policy("mixed_float16", loss_scale=...) означает "mixed_float16".',
    },
    "checks.ch02.global_other": {
        "en": 'The global policy is {name!r}; the old code asked for "mixed_float16".',
        "zh": '全局策略是 {name!r}；旧代码要求的是 "mixed_float16"。',
        "es": 'La política global es {name!r}; el código antiguo pedía "mixed_float16".',
        "ko": '전역 정책이 {name!r}입니다. 예전 코드는 "mixed_float16"을 요청했습니다.',
        "ru": 'Глобальная политика — {name!r}; старый код запрашивал "mixed_float16".',
    },
    "checks.ch02.global_not_set": {
        "en": 'This is a {name!r} policy, but the global policy is still {current!r}: nothing was set. Set it with keras.config.set_dtype_policy("mixed_float16"), then read it back with keras.config.dtype_policy().',
        "zh": '这是一个 {name!r} 策略，但全局策略仍然是 {current!r}：什么都没有设置。请用 keras.config.set_dtype_policy("mixed_float16") 设置全局策略，再用 keras.config.dtype_policy() 把它读回来。',
        "es": 'Esta es una política {name!r}, pero la política global sigue siendo {current!r}: no se ha fijado nada. Fíjala con keras.config.set_dtype_policy("mixed_float16") y vuelve a leerla con keras.config.dtype_policy().',
        "ko": '이것은 {name!r} 정책이지만 전역 정책은 바뀌지 않았습니다(현재: {current!r}). keras.config.set_dtype_policy("mixed_float16")로 전역 정책을 설정한 다음 keras.config.dtype_policy()로 다시 읽으세요.',
        "ru": 'Это политика {name!r}, но глобальная политика по-прежнему {current!r}: ничего не установлено. Установите её через keras.config.set_dtype_policy("mixed_float16"), а затем прочитайте через keras.config.dtype_policy().',
    },
    "out.ch02.col_policy": {
        "en": "policy",
        "zh": "策略",
        "es": "política",
        "ko": "정책",
        "ru": "политика",
    },
    "out.ch02.global_policy": {
        "en": "global policy: {value}",
        "zh": "全局策略：{value}",
        "es": "política global: {value}",
        "ko": "전역 정책: {value}",
        "ru": "глобальная политика: {value}",
    },
    "out.ch02.kept": {
        "en": "{value} (kept)",
        "zh": "{value}（保持不变）",
        "es": "{value} (sin cambios)",
        "ko": "{value} (그대로 유지)",
        "ru": "{value} (без изменений)",
    },
    "out.ch02.none_refused": {
        "en": "keras: {bad} -> ValueError; use {good}",
        "zh": "keras：{bad} -> ValueError；请改用 {good}",
        "es": "keras: {bad} -> ValueError; usa {good}",
        "ko": "keras: {bad} -> ValueError(대신 {good} 사용)",
        "ru": "keras: {bad} -> ValueError; используйте {good}",
    },
    "out.ch02.after_none": {
        "en": "mpteach after None: {value}",
        "zh": "mpteach（设为 None 之后）：{value}",
        "es": "mpteach después de None: {value}",
        "ko": "mpteach, None으로 설정한 뒤: {value}",
        "ru": "mpteach после None: {value}",
    },
    "out.ch02.by_name": {
        "en": "by name: {value}",
        "zh": "用名称指定：{value}",
        "es": "por nombre: {value}",
        "ko": "이름으로 지정: {value}",
        "ru": "по имени: {value}",
    },
    "out.ch02.by_policy": {
        "en": "by policy: {value}",
        "zh": "用策略对象指定：{value}",
        "es": "con un objeto de política: {value}",
        "ko": "정책 객체로 지정: {value}",
        "ru": "объектом политики: {value}",
    },
    "out.ch02.same_policy": {
        "en": "same policy: {value}",
        "zh": "两者策略相同：{value}",
        "es": "misma política: {value}",
        "ko": "같은 정책: {value}",
        "ru": "политики совпадают: {value}",
    },
    "out.ch02.default": {
        "en": "default: {value}",
        "zh": "默认：{value}",
        "es": "por defecto: {value}",
        "ko": "기본값: {value}",
        "ru": "по умолчанию: {value}",
    },
    "out.ch02.input_output_kernel": {
        "en": "{policy:<14} input {input} -> output {output}, kernel {kernel}",
        "zh": "{policy:<14} 输入 {input} -> 输出 {output}，kernel {kernel}",
        "es": "{policy:<14} entrada {input} -> salida {output}, kernel {kernel}",
        "ko": "{policy:<14} 입력 {input} -> 출력 {output}, 커널 {kernel}",
        "ru": "{policy:<14} вход {input} -> выход {output}, kernel {kernel}",
    },
    "out.ch02.gone": {
        "en": "{name}: {error} (gone)",
        "zh": "{name}：{error}（已移除）",
        "es": "{name}: {error} (ya no existe)",
        "ko": "{name}: {error} (삭제됨)",
        "ru": "{name}: {error} (удалено)",
    },
    "out.ch02.no_argument": {
        "en": "{call}: {error} (no {argument} argument)",
        "zh": "{call}：{error}（没有 {argument} 参数）",
        "es": "{call}: {error} (no hay argumento {argument})",
        "ko": "{call}: {error} ({argument} 인자 없음)",
        "ru": "{call}: {error} (аргумента {argument} нет)",
    },
    "out.ch02.available": {
        "en": "{name} available: {value}",
        "zh": "{name} 可用：{value}",
        "es": "{name} disponible: {value}",
        "ko": "{name} 사용 가능: {value}",
        "ru": "функция {name} доступна: {value}",
    },
}
