"""Findings and the report that shows them: a table in a notebook, plain text elsewhere.

A :class:`Finding` stores *facts* (a stable code, where, under which policies, and the values
its messages need); its what/why/fix text is looked up in the message catalogue when it is
shown, so that one report reads in any of the course's languages. Code snippets are not
translated: they live here, in :data:`SNIPPETS`.

>>> finding = Finding("float16-variable", "MyLayer/kernel", ("mixed_float16",), {"dtype": "float16"})
>>> finding.severity, finding.what("en")
('error', 'The trainable variable is stored in float16 instead of float32.')
>>> report = Report("MyLayer", [finding], checked=("float32", "mixed_float16"))
>>> report.ok, report.codes, len(report)
(False, ('float16-variable',), 1)
>>> Report("MyLayer", []).ok
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from mpteach import i18n
from mpteach.i18n import LANGUAGES, get_language, t

SEVERITIES = ("error", "warning", "info")
PHASES = ("", "training")

# Every finding code and its usual severity. error: the layer breaks or trains wrongly;
# warning: slower or less accurate than it should be; info: worth knowing, nothing wrong here.
# A dtype problem that crashes is an error; the same problem silently promoted to float32 by
# keras.ops is reported with the same code as a warning (Finding.severity says which).
CODES: dict[str, str] = {
    # check_layer (and each layer of check_model)
    "uncast-tensor-creation": "error",
    "autocast-off-variable": "error",
    "dtype-mismatch": "error",
    "unsupported-half-op": "error",
    "call-fails": "error",
    "float16-variable": "error",
    "non-finite-output": "error",
    "non-finite-gradient": "error",
    "vanishing-gradient": "warning",
    "float32-output": "warning",
    "manual-cast": "warning",
    "keras2-uncast-argument": "info",
    "numeric-divergence": "error",
    "float-indices": "error",
    "rounded-variable-update": "error",
    "float32-batch": "error",
    "float32-tensor": "error",
    "divergence-without-effect": "info",
    # check_model
    "no-loss-scaling": "error",
    "unscaled-train-step": "error",
    "train-step-fails": "error",
    "unscaled-optimizers": "error",
    "check-skipped": "info",
    "call-time-layer": "warning",
    "half-softmax": "warning",
    "half-output": "warning",
    "half-loss": "warning",
    "cpu-float16": "warning",
    "slow-float16": "warning",
    "slow-bfloat16": "warning",
    "tensor-core-size": "info",
}

# Compute the sensitive part in float32, then go back to the compute dtype.
_FLOAT32_ISLAND = """x32 = ops.cast(inputs, "float32")
y32 = ...  # the sensitive computation, in float32
return ops.cast(y32, self.compute_dtype)"""

# Fix snippets (code stays code in every language). Placeholders are the finding's values.
SNIPPETS: dict[str, str] = {
    "uncast-tensor-creation": (
        "noise = tf.random.normal(tf.shape(inputs), dtype=inputs.dtype)\n"
        "noise = keras.random.normal(ops.shape(inputs), dtype=self.compute_dtype)"
    ),
    "autocast-off-variable": "return inputs * ops.cast(self.{attribute}, self.compute_dtype)",
    "dtype-mismatch": "y = ops.cast(y, self.compute_dtype)",
    "unsupported-half-op": _FLOAT32_ISLAND,
    "call-fails": "zeros = ops.zeros(ops.shape(inputs), dtype=self.compute_dtype)",
    "float16-variable": (
        'self.kernel = self.add_weight(shape=(n_in, units), initializer="glorot_uniform")'
    ),
    "non-finite-output": _FLOAT32_ISLAND,
    "non-finite-gradient": _FLOAT32_ISLAND,
    "vanishing-gradient": _FLOAT32_ISLAND,
    "float32-output": _FLOAT32_ISLAND,
    "manual-cast": "y = ops.matmul(inputs, self.kernel) + self.bias",
    "keras2-uncast-argument": (
        "def call(self, a, b):\n    b = ops.cast(b, self.compute_dtype)\n    ..."
    ),
    "numeric-divergence": _FLOAT32_ISLAND,
    "float-indices": 'token_ids = keras.Input(shape=(sequence_length,), dtype="int32")',
    "rounded-variable-update": (
        "# a statistic: autocast=False, and its new value from float32 operands\n"
        "self.{attribute} = self.add_weight(..., trainable=False, autocast=False)\n"
        'x32 = ops.cast(inputs, "float32")\n'
        "self.{attribute}.assign(momentum * self.{attribute} + (1 - momentum) * ops.mean(x32, axis=0))\n"
        "# a trainable weight that call masks: use the product, do not store it\n"
        "y = ops.matmul(inputs, self.{attribute} * self.mask)"
    ),
    "float32-batch": (
        "real = ops.cast(real, fake.dtype)  # the batch in the model's compute dtype\n"
        "# or compute this part in float32:\n"
        'diff = ops.cast(fake, "float32") - real'
    ),
    "float32-tensor": (
        "rate = ops.cast(self.rates[t], x.dtype)  # the constant in the compute dtype, where used\n"
        "# or compute this part in float32:\n"
        'y = rate * ops.cast(x, "float32")'
    ),
    "divergence-without-effect": _FLOAT32_ISLAND,
    "unscaled-optimizers": (
        "self.g_optimizer = keras.optimizers.LossScaleOptimizer(g_optimizer)  # each of them\n"
        "with tf.GradientTape() as tape:\n"
        "    g_loss = ...\n"
        "    scaled_loss = self.g_optimizer.scale_loss(g_loss)\n"
        "grads = tape.gradient(scaled_loss, self.generator.trainable_weights)\n"
        "self.g_optimizer.apply(grads, self.generator.trainable_weights)"
    ),
    "check-skipped": "report = mp.doctor.check_model(model, sample_batch=(x, y))",
    "unscaled-train-step": (
        "with tf.GradientTape() as tape:\n"
        "    loss = ...\n"
        "    scaled_loss = self.optimizer.scale_loss(loss)\n"
        "grads = tape.gradient(scaled_loss, self.trainable_weights)\n"
        "self.optimizer.apply_gradients(zip(grads, self.trainable_weights))"
    ),
    "train-step-fails": (
        "y = ops.cast(y, self.compute_dtype)  # where two dtypes meet\n"
        'y32 = ops.cast(x, "float32")  # where an operation has no 16-bit kernel'
    ),
    "call-time-layer": (
        "def __init__(self, **kwargs):\n"
        "    super().__init__(**kwargs)\n"
        "    self.add = keras.layers.Add()  # made once, with the layer's policy\n"
        "def call(self, inputs):\n"
        "    return self.add([inputs, self.block(inputs)])"
    ),
    "no-loss-scaling": (
        "optimizer = keras.optimizers.LossScaleOptimizer(optimizer)\n"
        "with tf.GradientTape() as tape:\n"
        "    loss = loss_fn(y, model(x, training=True))\n"
        "    scaled_loss = optimizer.scale_loss(loss)\n"
        "grads = tape.gradient(scaled_loss, model.trainable_variables)\n"
        "optimizer.apply(grads, model.trainable_variables)"
    ),
    "half-softmax": (
        "x = keras.layers.Dense(n_classes)(x)\n"
        'outputs = keras.layers.Activation("softmax", dtype="float32")(x)'
    ),
    "half-output": 'outputs = keras.layers.Activation("linear", dtype="float32")(x)',
    "half-loss": 'loss = loss_fn(y, ops.cast(model(x), "float32"))',
    "cpu-float16": (
        'tf.config.optimizer.set_experimental_options({{"remapping": False}})\n'
        "model.compile(..., jit_compile=True)"
    ),
    "slow-float16": 'keras.mixed_precision.set_global_policy("{best}")',
    "slow-bfloat16": 'keras.mixed_precision.set_global_policy("{best}")',
    "tensor-core-size": "units = 8 * math.ceil(units / 8)",
}

_COLOURS = {"error": "#b42318", "warning": "#b35900", "info": "#175cd3"}


@dataclass(frozen=True)
class Phrase:
    """A value that is itself a catalogue message, shown in the report's language, with the
    values of its own placeholders (``(name, value)`` pairs)."""

    key: str
    values: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Finding:
    """One problem: ``code`` (see :data:`CODES`), where (``path``), under which ``policies``.

    ``values`` fill the placeholders of the code's messages: strings, :class:`Phrase`, or tuples
    of names, which are listed as the language lists them (:func:`mpteach.i18n.join`);
    ``source`` lists the lines of code it is about, e.g. ``"AddRandom.call:7: ..."``.
    ``policies`` is empty when the finding does not depend on the policy. ``phase`` is
    ``"training"`` for what happens only when the layer or model trains (``training=True``,
    a training step), ``""`` otherwise.
    """

    code: str
    path: str
    policies: tuple[str, ...] = ()
    values: Mapping[str, object] = field(default_factory=dict)
    source: tuple[str, ...] = ()
    severity: str = ""
    phase: str = ""

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(
                f"code={self.code!r} is not a finding code; choose one of {sorted(CODES)}."
            )
        if not self.severity:
            object.__setattr__(self, "severity", CODES[self.code])
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity={self.severity!r}; choose one of {SEVERITIES}.")
        if self.phase not in PHASES:
            raise ValueError(f"phase={self.phase!r}; choose one of {PHASES}.")

    def _text(self, part: str, lang: str | None) -> str:
        values = {name: self._shown(value, lang) for name, value in self.values.items()}
        return t(f"doctor.{self.code}.{part}", lang, **values)

    @staticmethod
    def _shown(value: object, lang: str | None) -> object:
        if isinstance(value, Phrase):
            return t(value.key, lang, **dict(value.values))
        return i18n.join(value, lang) if isinstance(value, tuple) else value

    def what(self, lang: str | None = None) -> str:
        """What is wrong, in ``lang`` (default: the current language)."""
        return self._text("what", lang)

    def why(self, lang: str | None = None) -> str:
        """Why it matters."""
        return self._text("why", lang)

    def fix(self, lang: str | None = None) -> str:
        """How to fix it, in words; :attr:`snippet` shows it in code."""
        return self._text("fix", lang)

    @property
    def snippet(self) -> str:
        """The fix as code (the same in every language)."""
        return SNIPPETS[self.code].format(**self.values)


def check_language(lang: str | None) -> str | None:
    """``lang`` itself if it is ``None`` or one of the course's languages; else a ``ValueError``."""
    if lang is not None and lang not in LANGUAGES:
        choices = ", ".join(repr(x) for x in LANGUAGES)
        raise ValueError(f"lang={lang!r} is not available; choose one of {choices}.")
    return lang


# A value shown once per policy: a dtype ("float16") or a share ("100%").
_SHORT_VALUE = re.compile(r"^[\w.%+-]+$")


def _joined(old: object, new: object) -> object:
    """``old`` and ``new`` shown together: dtypes and shares as ``"float16/bfloat16"``, tuples of
    names or paths as one tuple without repeats; sentences keep the first policy's."""
    if isinstance(old, tuple) and isinstance(new, tuple):
        return old + tuple(item for item in new if item not in old)
    if new == old or not isinstance(new, str) or not isinstance(old, str):
        return old
    if _SHORT_VALUE.match(new) and all(_SHORT_VALUE.match(part) for part in old.split("/")):
        return old if new in old.split("/") else f"{old}/{new}"
    return old


def merge(findings: Iterable[Finding]) -> list[Finding]:
    """One finding per (code, path): the policies of repeats are joined, and short values that
    differ between policies are shown together (``"float16/bfloat16"``, names once each);
    sentences (error messages) keep the first policy's. Sorted by severity, then path."""
    merged: dict[tuple[str, str], Finding] = {}
    for f in findings:
        key = (f.code, f.path)
        if key not in merged:
            merged[key] = f
            continue
        old = merged[key]
        values = dict(old.values)
        for name, value in f.values.items():
            values[name] = _joined(values[name], value) if name in values else value
        policies = old.policies + tuple(p for p in f.policies if p not in old.policies)
        source = old.source + tuple(s for s in f.source if s not in old.source)
        merged[key] = Finding(f.code, f.path, policies, values, source, old.severity, old.phase)
    return sorted(merged.values(), key=lambda f: (SEVERITIES.index(f.severity), f.path, f.code))


class Report:
    """The findings of a check: ``.ok``, ``.findings``, iteration; a table in a notebook.

    ``ok`` is true when there is no error and no warning (``info`` findings are notes).
    Text is in ``lang``, or in the current language (:func:`mpteach.set_language`) when
    ``lang`` is ``None``.
    """

    def __init__(
        self,
        subject: str,
        findings: Iterable[Finding],
        checked: tuple[str, ...] = (),
        lang: str | None = None,
    ) -> None:
        self.subject = subject
        self.findings: tuple[Finding, ...] = tuple(merge(findings))
        self.checked = checked
        self.lang = check_language(lang)

    @property
    def ok(self) -> bool:
        return not any(f.severity in ("error", "warning") for f in self.findings)

    @property
    def codes(self) -> tuple[str, ...]:
        """The finding codes, in report order (handy in tests and self-checks)."""
        return tuple(f.code for f in self.findings)

    def __iter__(self) -> Iterator[Finding]:
        return iter(self.findings)

    def __len__(self) -> int:
        return len(self.findings)

    def __getitem__(self, index: int) -> Finding:
        return self.findings[index]

    def _lang(self) -> str:
        return self.lang or get_language()

    def _header(self) -> tuple[str, str]:
        lang = self._lang()
        title = t("doctor.title", lang, subject=self.subject)
        if self.checked:
            title += " — " + t("doctor.checked", lang, policies=i18n.join(self.checked, lang))
        if not self.findings:
            return title, t("doctor.ok", lang)
        counts = {s: sum(f.severity == s for f in self.findings) for s in SEVERITIES}
        return title, t("doctor.summary", lang, **counts)

    def _where(self, f: Finding) -> str:
        policies = i18n.join(f.policies, self._lang()) or t("doctor.any_policy", self._lang())
        phase = f" · {t('doctor.phase.training', self._lang())}" if f.phase else ""
        return f"{f.path} · {policies}{phase}"

    def __str__(self) -> str:
        lang = self._lang()
        lines = list(self._header())
        for f in self.findings:
            severity = t(f"doctor.severity.{f.severity}", lang)
            lines += ["", f"[{severity}] {f.code} · {self._where(f)}"]
            parts = (
                ("what", f.what(lang), f.source),  # the lines of code it is about
                ("why", f.why(lang), ()),
                ("fix", f.fix(lang), f.snippet.splitlines()),
            )
            for label, text, code in parts:
                head = f"  {t(f'doctor.label.{label}', lang)}"
                head += "" if head.endswith("：") else " "  # a full-width colon holds its space
                lines.append(i18n.wrap(text, 100, head, " " * 4))
                lines += [" " * 6 + line for line in code]
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        lang = self._lang()
        esc = html.escape
        title, summary = self._header()
        head = f"<div><b>{esc(title)}</b><br>{esc(summary)}</div>"
        if not self.findings:
            return head
        cell = '<td style="text-align:left;vertical-align:top">'  # JupyterLab right-aligns cells
        heads = "".join(
            f'<th style="text-align:left">{esc(t(f"doctor.header.{h}", lang))}</th>'
            for h in ("severity", "where", "problem", "fix")
        )
        rows = []
        for f in self.findings:
            severity = esc(t(f"doctor.severity.{f.severity}", lang))
            source = "".join(f"<br><code>{esc(line)}</code>" for line in f.source)
            policies = esc(i18n.join(f.policies, lang) or t("doctor.any_policy", lang))
            if f.phase:
                policies += f" · {esc(t('doctor.phase.training', lang))}"
            rows.append(
                "<tr>"
                f'{cell}<b style="color:{_COLOURS[f.severity]}">{severity}</b><br>'
                f"<small><code>{esc(f.code)}</code></small></td>"
                f"{cell}<code>{esc(f.path)}</code><br><small>{policies}</small></td>"
                f"{cell}{esc(f.what(lang))}{source}<br><small>{esc(f.why(lang))}</small></td>"
                f"{cell}{esc(f.fix(lang))}<pre style='margin:4px 0'>{esc(f.snippet)}</pre></td>"
                "</tr>"
            )
        body = "".join(rows)
        return f"{head}<table><thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table>"
