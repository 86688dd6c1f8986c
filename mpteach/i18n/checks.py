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
    "checks.not_softmax": {
        "en": 'This {layer} does not apply a softmax. The model\'s last step turns logits into probabilities: use the "softmax" activation.',
        "zh": '这个 {layer} 没有做 softmax。模型的最后一步要把 logits 变成概率：请使用 "softmax" 激活函数。',
        "es": 'Esta capa {layer} no aplica una softmax. El último paso del modelo convierte logits en probabilidades: usa la activación "softmax".',
        "ko": '이 {layer} 레이어는 softmax를 적용하지 않습니다. 모델의 마지막 단계는 로짓을 확률로 바꿔야 하므로 "softmax" 활성화를 사용하세요.',
        "ru": 'Этот {layer} не применяет softmax. Последний шаг модели превращает логиты в вероятности: используйте активацию "softmax".',
    },
}
