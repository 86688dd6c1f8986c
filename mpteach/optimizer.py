"""Dynamic loss scaling around any Keras optimizer: the idea of Keras 3's ``LossScaleOptimizer``.

float16 gradients underflow: anything below 2**-24 becomes 0. So multiply the loss by a large
*loss scale* before ``tape.gradient`` (every gradient is scaled with it, by the chain rule) and
divide the gradients by the same scale before the update. Too large a scale overflows to inf;
then the step is skipped and the scale halved. After ``dynamic_growth_steps`` good steps in a row
the scale is doubled again. The rule itself is :func:`mpteach.loss_scale.update_loss_scale`.

A training step::

    with tf.GradientTape() as tape:
        loss = loss_fn(model(x), y)
        scaled_loss = optimizer.scale_loss(loss)
    grads = tape.gradient(scaled_loss, model.trainable_variables)
    optimizer.apply(grads, model.trainable_variables)  # unscales, skips or steps, updates the scale

>>> import keras, tensorflow as tf
>>> optimizer = LossScaleOptimizer(keras.optimizers.SGD(0.5), initial_scale=8.0)
>>> w = tf.Variable(1.0)
>>> optimizer.apply([tf.constant(8.0)], [w])  # gradient 1.0, scaled by 8
>>> w.numpy(), optimizer.loss_scale.numpy()
(np.float32(0.5), np.float32(8.0))
>>> optimizer.apply([tf.constant(float("inf"))], [w])  # overflow: skip the step, halve the scale
>>> w.numpy(), optimizer.loss_scale.numpy(), optimizer.iterations.numpy()
(np.float32(0.5), np.float32(4.0), np.int64(1))
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import keras
import tensorflow as tf

from mpteach import i18n
from mpteach.loss_scale import DEFAULT_GROWTH_STEPS, DEFAULT_INITIAL_SCALE, update_loss_scale


class LossScaleOptimizer(tf.Module):
    """Wraps a Keras optimizer and applies dynamic loss scaling (Keras 3 semantics).

    Args:
        inner_optimizer: the ``keras.optimizers.Optimizer`` that does the update.
        initial_scale: the first loss scale (a positive finite number), 2**15 by default.
        dynamic_growth_steps: double the scale after this many finite steps in a row (2000).
        dynamic: ``False`` keeps ``initial_scale`` forever (Keras 2's fixed loss scaling; as in
            Keras, a fixed scale checks nothing and applies every step).

    As in Keras 3, a skipped step leaves the variables, the slots *and* ``iterations`` untouched
    (Keras 2 counted it). Unlike Keras 3, the inf/NaN check is agreed between the replicas of a
    ``tf.distribute`` strategy, so one bad replica skips the step on all of them (make the
    optimizer and call ``build(variables)`` inside ``strategy.scope()``, as for any Keras
    optimizer in a custom loop). Keras 2's API (``get_scaled_loss``, ``get_unscaled_gradients``,
    then ``apply_gradients``) works too; see :meth:`get_unscaled_gradients`.

    >>> import keras
    >>> optimizer = LossScaleOptimizer(keras.optimizers.SGD(0.1))
    >>> float(optimizer.scale_loss(2.0))
    65536.0
    >>> LossScaleOptimizer(keras.optimizers.SGD(0.1), initial_scale=0)
    Traceback (most recent call last):
    ...
    ValueError: initial_scale must be a positive finite number such as 32768; got initial_scale=0.
    """

    def __init__(
        self,
        inner_optimizer: keras.optimizers.Optimizer,
        initial_scale: float = DEFAULT_INITIAL_SCALE,
        dynamic_growth_steps: int | None = DEFAULT_GROWTH_STEPS,
        dynamic: bool = True,
        name: str | None = None,
    ) -> None:
        _check_arguments(inner_optimizer, initial_scale, dynamic_growth_steps, dynamic)
        super().__init__(name=name or "loss_scale_optimizer")
        self.inner_optimizer = inner_optimizer
        # The inner optimizer must not scale a second time (Keras 3 does the same).
        inner_optimizer.loss_scale_factor = None
        self.initial_scale = float(initial_scale)
        self.dynamic = dynamic
        self.dynamic_growth_steps = int(dynamic_growth_steps) if dynamic else None
        self._scale = tf.Variable(self.initial_scale, trainable=False, name="loss_scale")
        self._counter = tf.Variable(0, dtype=tf.int64, trainable=False, name="dynamic_counter")
        self._variables: list | None = None  # set by build()
        # Who unscales the gradients: apply() (Keras 3), or get_unscaled_gradients() (Keras 2).
        # Fixed by the first of the two that is used, so that gradients are never unscaled twice.
        self._unscaled_by: str | None = None
        self._last_unscaled: list = []

    # ---- state -------------------------------------------------------------------------------
    @property
    def loss_scale(self) -> tf.Tensor:
        """The current loss scale (a float32 tensor)."""
        return tf.convert_to_tensor(self._scale)

    @property
    def dynamic_counter(self) -> tf.Tensor | None:
        """Finite steps since the scale last changed (int64), or None for a fixed scale."""
        return tf.convert_to_tensor(self._counter) if self.dynamic else None

    @property
    def iterations(self) -> Any:
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self) -> Any:
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value: Any) -> None:
        self.inner_optimizer.learning_rate = value

    def build(self, var_list: Sequence[Any]) -> None:
        """Create the inner optimizer's slots for ``var_list`` (``apply`` does it when needed)."""
        self._variables = list(var_list)
        if not self.inner_optimizer.built:
            self.inner_optimizer.build(self._variables)

    # ---- a training step ---------------------------------------------------------------------
    def scale_loss(self, loss: Any) -> tf.Tensor:
        """``loss * loss_scale``, in float32 (float64 for a float64 loss) so it cannot overflow."""
        loss = tf.convert_to_tensor(loss)
        return _widen(loss) * tf.cast(self._scale, _widen(loss).dtype)

    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Any] | None = None) -> None:
        """Check ``grads`` (still scaled) for inf/NaN; if all are finite, unscale them and let the
        inner optimizer step, else skip the step; then update the scale. (Keras 3 does the same,
        in the same order.)"""
        grads = list(grads)
        if trainable_variables is None and self._variables is None:
            raise ValueError("apply() without trainable_variables needs build(var_list) first.")
        if trainable_variables is None:
            variables = self._variables
        else:
            variables = list(trainable_variables)
            if self._variables is None:
                self.build(variables)
        if len(grads) != len(variables):
            raise ValueError(f"Got {len(grads)} gradients for {len(variables)} variables.")
        if self._unscaled_by is None:
            self._unscaled_by = "apply"

        context = tf.distribute.get_replica_context()
        if context is None:
            raise ValueError("apply() must be called in a replica context (inside strategy.run).")
        finite = tf.constant(True)  # a fixed scale applies every step, as in Keras 2
        if self.dynamic:
            # One replica with inf/NaN gradients makes every replica skip the step.
            bad = tf.cast(tf.logical_not(_all_finite(grads)), tf.int32)
            finite = tf.equal(context.all_reduce(tf.distribute.ReduceOp.SUM, bad), 0)
        # The step (and the inner optimizer's own gradient all-reduce) runs under a cond; a
        # strategy allows that only in its cross-replica context, hence merge_call.
        context.merge_call(self._step_if_finite, args=(grads, variables, finite))

    def minimize(self, loss: Callable[[], Any], var_list: Sequence[Any]) -> tf.Tensor:
        """One whole step, as Keras 2's ``minimize``: scale ``loss()``, take the gradients of
        ``var_list``, unscale them, step or skip. Returns the (unscaled) loss.

        Keras 3's TensorFlow optimizers have no ``minimize``: write the ``GradientTape`` step
        (``scale_loss``, ``tape.gradient``, ``apply``), which is exactly what this does.

        >>> import keras
        >>> w = tf.Variable(3.0)
        >>> optimizer = LossScaleOptimizer(keras.optimizers.SGD(0.5))
        >>> loss = optimizer.minimize(lambda: w * w, [w])  # gradient 6: w = 3 - 0.5 * 6
        >>> float(loss), float(w.numpy())
        (9.0, 0.0)
        >>> optimizer.minimize(w * w, [w])
        Traceback (most recent call last):
        ...
        TypeError: loss must be a callable that returns the loss, as in Keras 2's minimize(); got an object of type EagerTensor.
        """
        if not callable(loss):
            raise TypeError(
                "loss must be a callable that returns the loss, as in Keras 2's minimize(); "
                f"got an object of type {type(loss).__name__}."
            )
        var_list = list(var_list)
        with tf.GradientTape() as tape:
            value = loss()
            scaled_loss = self.scale_loss(value)
        grads = tape.gradient(scaled_loss, var_list)
        if self._unscaled_by == "get_unscaled_gradients":  # a Keras 2 style optimizer
            grads = self.get_unscaled_gradients(grads)
        self.apply(grads, var_list)
        return value

    def apply_gradients(self, grads_and_vars: Iterable[tuple[Any, Any]]) -> None:
        """``apply`` for ``[(gradient, variable), ...]``, as Keras optimizers have it."""
        pairs = list(grads_and_vars)
        self.apply([grad for grad, _ in pairs], [variable for _, variable in pairs])

    def _step_if_finite(self, strategy: Any, grads: list, variables: list, finite: Any) -> None:
        finite = strategy.experimental_local_results(finite)[0]  # the same on every replica
        scale = tf.convert_to_tensor(self._scale)  # unscale with the scale *before* the update

        def step() -> None:
            strategy.extended.call_for_each_replica(
                lambda grads: self.inner_optimizer.apply(
                    [self._unscale(g, v, scale) for g, v in zip(grads, variables, strict=True)],
                    variables,
                ),
                args=(grads,),
            )

        tf.cond(finite, step, lambda: None)
        if self.dynamic:
            counter = tf.convert_to_tensor(self._counter)
            growth_steps = self.dynamic_growth_steps
            new_scale, new_counter = update_loss_scale(
                scale, counter, finite, growth_steps, select=tf.where
            )
            self._scale.assign(new_scale)
            self._counter.assign(new_counter)

    def _unscale(self, grad: Any, variable: Any, scale: tf.Tensor) -> Any:
        # Keras 3 leaves None gradients, and variables that take their gradient as their new
        # value (float8 scaling factors: `overwrite_with_gradient`), alone.
        if grad is None or getattr(variable, "overwrite_with_gradient", False):
            return grad
        return _divide(grad, scale) if self._unscaled_by == "apply" else grad

    # ---- Keras 2's API (TF <= 2.15 guides) ---------------------------------------------------
    def get_scaled_loss(self, loss: Any) -> tf.Tensor:
        """Keras 2's name for :meth:`scale_loss`."""
        return self.scale_loss(loss)

    def get_unscaled_gradients(self, grads: Sequence[Any]) -> list:
        """Keras 2's manual unscaling: ``[g / loss_scale, ...]`` (``None`` stays ``None``).

        After it, ``apply_gradients`` (and ``apply``) of this optimizer no longer unscale. It
        refuses an optimizer whose ``apply`` has already unscaled gradients, and gradients that
        it returned itself, so no gradient is ever divided by the scale twice.
        """
        if self._unscaled_by == "apply":
            raise RuntimeError(i18n.t("optimizer.apply_unscales"))
        grads = list(grads)
        if any(any(g is done for done in self._last_unscaled) for g in grads if g is not None):
            raise RuntimeError(i18n.t("optimizer.already_unscaled"))
        self._unscaled_by = "get_unscaled_gradients"
        scale = tf.convert_to_tensor(self._scale)
        self._last_unscaled = [None if g is None else _divide(g, scale) for g in grads]
        return list(self._last_unscaled)

    # ---- saving ------------------------------------------------------------------------------
    def get_config(self) -> dict[str, Any]:
        config = {
            "name": self.name,
            "inner_optimizer": keras.saving.serialize_keras_object(self.inner_optimizer),
            "initial_scale": self.initial_scale,
            "dynamic_growth_steps": self.dynamic_growth_steps,
        }
        if not self.dynamic:
            config["dynamic"] = False
        return config

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> LossScaleOptimizer:
        config = dict(config)
        inner = keras.saving.deserialize_keras_object(config.pop("inner_optimizer"))
        return cls(inner, **config)


def _widen(x: tf.Tensor) -> tf.Tensor:
    """float16, bfloat16 -> float32; float64 stays: the dtype Keras 3 scales and unscales in."""
    return tf.cast(x, tf.float64 if x.dtype == tf.float64 else tf.float32)


def _divide(grad: Any, scale: tf.Tensor) -> Any:
    if isinstance(grad, tf.IndexedSlices):  # sparse gradients (embeddings) stay sparse
        return tf.IndexedSlices(_divide(grad.values, scale), grad.indices, grad.dense_shape)
    grad = _widen(tf.convert_to_tensor(grad))
    return grad / tf.cast(scale, grad.dtype)


def _all_finite(grads: Sequence[Any]) -> tf.Tensor:
    checks = [
        tf.reduce_all(tf.math.is_finite(g.values if isinstance(g, tf.IndexedSlices) else g))
        for g in grads
        if g is not None
    ]
    return tf.reduce_all(checks) if checks else tf.constant(True)


def _check_arguments(
    inner_optimizer: Any, initial_scale: Any, dynamic_growth_steps: Any, dynamic: Any
) -> None:
    if isinstance(inner_optimizer, (LossScaleOptimizer, keras.optimizers.LossScaleOptimizer)):
        raise TypeError(
            "A LossScaleOptimizer cannot wrap another LossScaleOptimizer; got "
            f"inner_optimizer={inner_optimizer!r}. Wrap its inner_optimizer instead."
        )
    if not isinstance(inner_optimizer, keras.optimizers.Optimizer):
        raise TypeError(
            "inner_optimizer must be a keras.optimizers.Optimizer such as "
            f"keras.optimizers.SGD(0.1); got inner_optimizer={inner_optimizer!r} of type "
            f"{type(inner_optimizer).__name__}."
        )
    if not isinstance(dynamic, bool):
        raise TypeError(f"dynamic must be True or False; got dynamic={dynamic!r}.")
    if (
        isinstance(initial_scale, bool)
        or not isinstance(initial_scale, numbers.Real)
        or not math.isfinite(initial_scale)
        or initial_scale <= 0
    ):
        raise ValueError(
            "initial_scale must be a positive finite number such as 32768; got "
            f"initial_scale={initial_scale!r}."
        )
    if not dynamic:
        if dynamic_growth_steps not in (None, DEFAULT_GROWTH_STEPS):
            raise ValueError(
                "dynamic_growth_steps must be None when dynamic=False (a fixed scale never "
                f"grows); got dynamic_growth_steps={dynamic_growth_steps!r}."
            )
    elif (
        isinstance(dynamic_growth_steps, bool)
        or not isinstance(dynamic_growth_steps, numbers.Integral)
        or dynamic_growth_steps < 1
    ):
        raise ValueError(
            "dynamic_growth_steps must be an integer >= 1 such as 2000; got "
            f"dynamic_growth_steps={dynamic_growth_steps!r}."
        )
