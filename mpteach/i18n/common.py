"""Messages shared by every part of the course."""

MESSAGES = {
    "common.language_name": {
        "en": "English",
        "zh": "中文",
        "es": "Español",
        "ko": "한국어",
        "ru": "Русский",
    },
    "common.invalid_number": {
        "en": "Not a number: {text!r}. Type a decimal number such as 0.1, 1e-5 or -65504.",
        "zh": "不是数字:{text!r}。请输入十进制数,例如 0.1、1e-5 或 -65504。",
        "es": "No es un número: {text!r}. Escribe un número decimal como 0.1, 1e-5 o -65504.",
        "ko": "숫자가 아닙니다: {text!r}. 0.1, 1e-5, -65504 같은 십진수를 입력하세요.",
        "ru": "Это не число: {text!r}. Введите десятичное число, например 0.1, 1e-5 или -65504.",
    },
}
