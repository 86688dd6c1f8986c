"""mpteach.doctor: find the mixed-precision mistakes in a Keras 3 layer or model.

* :func:`check_layer` makes the layer under float32, ``mixed_float16`` and ``mixed_bfloat16``,
  calls it (and, if it has one, its training branch with ``training=True``), differentiates
  through it and compares with the float32 layer holding the same weights: dtype errors, float32
  outputs, float16 variables, hand-written casts, inf/NaN or vanishing values in 16 bits, outputs
  further from float32 than rounding explains, whole numbers used as indices that 16 bits round,
  float32 statistics updated in 16 bits, Keras 2 argument casting.
* :func:`check_model` checks a model as it is: each layer by its path, against its float32 twin
  (the same model with its 16-bit layers switched to float32 for the moment), float32 outputs and
  softmax, the loss, one real training step on ``sample_batch`` (with copies of the optimizers,
  every variable put back), loss scaling in a custom ``train_step``, Tensor Core sizes, and the
  hardware it runs on.

The Keras 2 rule: Keras 3 casts every floating argument of ``call``, Keras 2 (tf-keras) only the
first. A layer that takes several tensors is fine under Keras 3, so the finding is a note, and
only when it is true: the doctor calls the layer once the Keras 2 way (first argument cast,
the others as given) and reports what would break.

Both return a :class:`Report` of :class:`Finding` objects, each with a stable ``code`` (see
:data:`CODES`), a severity, a layer path, ``phase="training"`` for what only training shows, and
what/why/fix text in the course's languages plus a code snippet. In a notebook a report shows as
a table.

>>> import numpy as np
>>> from mpteach import doctor
>>> report = doctor.check_layer(doctor.gallery.HalfWeights, np.ones((2, 4), "float32"))
>>> print(report)  # doctest: +ELLIPSIS
Mixed-precision check: HalfWeights — checked under float32, mixed_float16, mixed_bfloat16
errors: 1 · warnings: 0 · notes: 0
<BLANKLINE>
[error] float16-variable · HalfWeights/kernel · mixed_float16, mixed_bfloat16
  What: The trainable variable is stored in float16/bfloat16 instead of float32.
...
"""

from __future__ import annotations

from mpteach.doctor import gallery
from mpteach.doctor.layer import check_layer
from mpteach.doctor.model import check_model
from mpteach.doctor.report import CODES, Finding, Report

__all__ = ["CODES", "Finding", "Report", "check_layer", "check_model", "gallery"]
