"""Messages shared by every chapter's self-checks."""

MESSAGES = {
    "checks.unanswered": {
        "en": "Replace the ... with your answer, then run the cell again.",
        "zh": "请把 ... 替换成你的答案，然后重新运行这个单元格。",
        "es": "Sustituye los ... por tu respuesta y vuelve a ejecutar la celda.",
        "ko": "... 부분을 여러분의 답으로 바꾼 뒤 셀을 다시 실행하세요.",
        "ru": "Замените ... своим ответом и запустите ячейку ещё раз.",
    },
    "checks.wrong_type": {
        "en": "Expected {expected}, but the answer is {actual}.",
        "zh": "应为 {expected}，但答案是 {actual}。",
        "es": "Se esperaba {expected}, pero la respuesta es {actual}.",
        "ko": "필요한 것은 {expected}인데 답은 {actual}입니다.",
        "ru": "Ожидалось: {expected}, а ответ — {actual}.",
    },
    "checks.need_number": {
        "en": "Expected a number (such as 1000.0 or 2**-8), but the answer is of type {actual}.",
        "zh": "这里需要一个数（例如 1000.0 或 2**-8），但答案的类型是 {actual}。",
        "es": "Se esperaba un número (como 1000.0 o 2**-8), pero la respuesta es de tipo {actual}.",
        "ko": "숫자(예: 1000.0 또는 2**-8)가 필요하지만 답의 타입은 {actual}입니다.",
        "ru": "Ожидалось число (например, 1000.0 или 2**-8), а ответ имеет тип {actual}.",
    },
}
