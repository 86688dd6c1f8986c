"""Errors of :class:`mpteach.PolicyMap`, in the learner's language."""

MESSAGES = {
    "policy.map_ambiguous": {
        "en": "Path {path!r} matches multiple policy keys: {matches}. Each path may match at most one key of a PolicyMap.",
        "zh": "路径 {path!r} 匹配了多个策略键：{matches}。在 PolicyMap 中，每个路径最多只能匹配一个键。",
        "es": "La ruta {path!r} coincide con varias claves de política: {matches}. En un PolicyMap, cada ruta puede coincidir como mucho con una clave.",
        "ko": "경로 {path!r}에 일치하는 정책 키가 여러 개입니다: {matches}. PolicyMap에서 각 경로는 키 하나에만 일치할 수 있습니다.",
        "ru": "Путь {path!r} совпадает с несколькими ключами политик: {matches}. В PolicyMap каждый путь может совпадать не более чем с одним ключом.",
    },
}
