"""Errors of :class:`mpteach.LossScaleOptimizer`, in the learner's language."""

MESSAGES = {
    "optimizer.apply_unscales": {
        "en": "This optimizer's apply() already unscales the gradients (Keras 3 style): calling get_unscaled_gradients() too would divide them by the loss scale twice. Use scale_loss() + apply(), or a new LossScaleOptimizer for a Keras 2 style loop.",
        "zh": "这个优化器的 apply() 本身就会对梯度反缩放（Keras 3 的方式）：再调用 get_unscaled_gradients() 会把梯度除以损失缩放因子两次。请使用 scale_loss() + apply()，或者为 Keras 2 风格的循环新建一个 LossScaleOptimizer。",
        "es": "El apply() de este optimizador ya desescala los gradientes (estilo Keras 3): llamar además a get_unscaled_gradients() los dividiría dos veces por la escala de pérdida. Usa scale_loss() + apply(), o un LossScaleOptimizer nuevo para un bucle al estilo de Keras 2.",
        "ko": "이 옵티마이저의 apply()는 이미 그래디언트를 언스케일링합니다(Keras 3 방식). get_unscaled_gradients()까지 호출하면 그래디언트를 손실 스케일로 두 번 나누게 됩니다. scale_loss() + apply()를 쓰거나, Keras 2 방식의 루프에는 새 LossScaleOptimizer를 쓰세요.",
        "ru": "apply() этого оптимизатора уже снимает масштаб с градиентов (как в Keras 3): если вызвать ещё и get_unscaled_gradients(), градиенты будут дважды поделены на масштаб потерь. Используйте scale_loss() + apply() или новый LossScaleOptimizer для цикла в стиле Keras 2.",
    },
    "optimizer.already_unscaled": {
        "en": "These gradients were already unscaled by get_unscaled_gradients().",
        "zh": "这些梯度已经由 get_unscaled_gradients() 反缩放过了。",
        "es": "Estos gradientes ya los desescaló get_unscaled_gradients().",
        "ko": "이 그래디언트는 이미 get_unscaled_gradients()로 언스케일되었습니다.",
        "ru": "С этих градиентов масштаб уже снят вызовом get_unscaled_gradients().",
    },
}
