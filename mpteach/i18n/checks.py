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
        "ko": "{expected}이(가) 필요하지만 답은 {actual}입니다.",
        "ru": "Ожидалось {expected}, а ответ — {actual}.",
    },
}
