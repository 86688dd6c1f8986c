"""Messages shared by every part of the course."""

MESSAGES = {
    "common.language_name": {
        "en": "English",
        "zh": "中文",
        "es": "Español",
        "ko": "한국어",
        "ru": "Русский",
    },
    "common.list_separator": {
        "en": ", ",
        "zh": "、",
        "es": ", ",
        "ko": ", ",
        "ru": ", ",
    },
    "common.label_value": {
        "en": "{label}: {value}",
        "zh": "{label}：{value}",
        "es": "{label}: {value}",
        "ko": "{label}: {value}",
        "ru": "{label}: {value}",
    },
    "common.percent": {
        "en": "{value} %",
        "zh": "{value}%",
        "es": "{value} %",
        "ko": "{value}%",
        "ru": "{value} %",
    },
    "common.invalid_number": {
        "en": "Not a number: {text!r}. Type a decimal number such as 0.1, 1e-5 or -65504.",
        "zh": "不是数字：{text!r}。请输入十进制数，例如 0.1、1e-5 或 -65504。",
        "es": "No es un número: {text!r}. Escribe un número decimal como 0.1, 1e-5 o -65504.",
        "ko": "숫자가 아닙니다: {text!r}. 0.1, 1e-5, -65504 같은 십진수를 입력하세요.",
        "ru": "Это не число: {text!r}. Введите десятичное число, например 0.1, 1e-5 или -65504.",
    },
    "common.number_out_of_range": {
        "en": "Out of range: {text!r}. Type a number from {low} to {high}.",
        "zh": "超出范围：{text!r}。请输入 {low} 到 {high} 之间的数。",
        "es": "Fuera de rango: {text!r}. Escribe un número entre {low} y {high}.",
        "ko": "범위를 벗어났습니다: {text!r}. {low}부터 {high}까지의 숫자를 입력하세요.",
        "ru": "Вне диапазона: {text!r}. Введите число от {low} до {high}.",
    },
    "common.number_beyond_float64": {
        "en": "Beyond float64: {text!r}. Type 0 or a number whose magnitude lies between {tiny} and {huge}.",
        "zh": "超出 float64 的范围：{text!r}。请输入 0，或绝对值在 {tiny} 与 {huge} 之间的数。",
        "es": "Fuera del alcance de float64: {text!r}. Escribe 0 o un número cuyo valor absoluto esté entre {tiny} y {huge}.",
        "ko": "float64 범위를 벗어났습니다: {text!r}. 0 또는 절댓값이 {tiny} 이상 {huge} 이하인 숫자를 입력하세요.",
        "ru": "За пределами float64: {text!r}. Введите 0 или число, модуль которого лежит между {tiny} и {huge}.",
    },
}
