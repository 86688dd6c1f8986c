"""mpteach.doctor: each broken gallery layer gets exactly its finding, correct ones and Keras's
own layers get none, models are checked layer by layer, bad input gets a clear error, and the
checks leave Keras and TensorFlow as they found them."""

from __future__ import annotations

import string
from contextlib import contextmanager

import keras
import numpy as np
import pytest
import tensorflow as tf

import mpteach
from mpteach import hardware, i18n
from mpteach.doctor import CODES, Finding, Report, check_layer, check_model, gallery, source
from mpteach.doctor.report import SNIPPETS, merge

pytestmark = pytest.mark.keras

T4 = hardware.HardwareInfo("Intel Xeon", frozenset(), 4, (hardware.GPUInfo("Tesla T4", (7, 5)),))
A100 = hardware.HardwareInfo("AMD EPYC", frozenset(), 8, (hardware.GPUInfo("A100", (8, 0)),))
AMX_CPU = hardware.HardwareInfo(
    "Xeon Sapphire Rapids", frozenset({"amx_bf16", "avx512_bf16", "avx512_fp16"}), 2
)
OLD_CPU = hardware.HardwareInfo("Old CPU", frozenset({"avx2"}), 2)


def _x(rows: int = 4, cols: int = 8, scale: float = 1.0, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal((rows, cols)) * scale).astype("float32")


@contextmanager
def _policy(name: str):
    """Build models under a policy, then go back to float32 (conftest restores it anyway)."""
    keras.config.set_dtype_policy(name)
    try:
        yield
    finally:
        keras.config.set_dtype_policy("float32")


# --- check_layer: the gallery ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(gallery.EXAMPLES))
def test_each_gallery_layer_gets_exactly_its_findings(name):
    example = gallery.EXAMPLES[name]
    report = check_layer(example.layer, example.inputs())
    assert report.codes == example.expected, str(report)
    severities = {f.severity for f in report}
    assert report.ok == (severities <= {"info"})


@pytest.mark.parametrize("name", sorted(gallery.BUILTINS))
def test_no_findings_on_keras_builtin_layers(name):
    make, inputs, call_kwargs = gallery.BUILTINS[name]
    report = check_layer(make, inputs(), call_kwargs=call_kwargs)
    assert report.ok and report.codes == (), str(report)


def test_every_layer_finding_code_has_a_gallery_example():
    model_codes = {
        "no-loss-scaling",
        "unscaled-train-step",
        "train-step-fails",
        "unscaled-optimizers",
        "check-skipped",
        "float32-batch",
        "divergence-without-effect",
        "call-time-layer",
        "half-softmax",
        "half-output",
        "half-loss",
        "cpu-float16",
        "slow-float16",
        "slow-bfloat16",
        "tensor-core-size",
    }
    shown = {code for example in gallery.EXAMPLES.values() for code in example.expected}
    assert shown == set(CODES) - model_codes


def test_range_problems_are_float16_only_and_dtype_problems_hit_both_policies():
    softmax = check_layer(gallery.NaiveSoftmax, gallery.EXAMPLES["NaiveSoftmax"].inputs())
    assert softmax[0].policies == ("mixed_float16",)  # bfloat16 has float32's range
    rbf = check_layer(gallery.GaussianRBF, gallery.EXAMPLES["GaussianRBF"].inputs())
    assert rbf[0].policies == ("mixed_float16",)
    assert "GaussianRBF/centers" in rbf[0].values["variables"]
    assert rbf[0].values["percent"] == "100%"
    noise = check_layer(gallery.AddRandom, _x())
    assert noise[0].policies == ("mixed_float16", "mixed_bfloat16")
    assert noise[0].values["compute"] == "float16/bfloat16"
    only_bf16 = check_layer(gallery.AddRandom, _x(), policies="mixed_bfloat16")
    assert only_bf16[0].policies == ("mixed_bfloat16",)
    assert only_bf16.checked == ("float32", "mixed_bfloat16")


def test_naive_softmax_is_fine_where_float16_does_not_overflow():
    small_logits = _x(scale=2.0)  # exp(x) stays far below 65504
    assert check_layer(gallery.NaiveSoftmax, small_logits).codes == ()


def test_uncast_tensor_creation_points_at_the_line_and_is_an_error_only_when_it_crashes():
    crash = check_layer(gallery.AddRandom, _x())[0]
    assert crash.severity == "error"
    assert any(
        line.startswith("AddRandom.call:")
        and line.endswith("noise = tf.random.normal(tf.shape(inputs))")
        for line in crash.source
    )
    assert any(line.endswith("return inputs + noise") for line in crash.source)
    silent = check_layer(gallery.KerasOpsNoise, _x())[0]  # keras.ops promote to float32
    assert silent.code == "uncast-tensor-creation" and silent.severity == "warning"


class MultiplyByFloat32(keras.layers.Layer):
    """tf.multiply does not promote: the autocast=False variable crashes the call."""

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", autocast=False)

    def call(self, inputs):
        return tf.multiply(inputs, self.scale)


def test_autocast_off_variable_is_proved_by_switching_autocast_on():
    crash = check_layer(MultiplyByFloat32, _x())
    assert crash.codes == ("autocast-off-variable",)
    assert crash[0].severity == "error" and crash[0].values["variables"] == ("scale",)
    assert "self.scale" in crash[0].snippet
    silent = check_layer(gallery.AutocastOffScale, _x())
    assert silent[0].severity == "warning"
    # RMSNorm keeps a float32 variable on purpose and casts back: nothing to report
    assert check_layer(gallery.RMSNorm, _x()).codes == ()


def test_manual_cast_names_the_variables_and_lines():
    (finding,) = check_layer(gallery.ManualCastDense, _x())
    assert finding.values["variables"] == ("self.kernel", "self.bias")
    assert finding.policies == ()  # a fact about the source, under any policy
    assert [line.split(": ", 1)[1] for line in finding.source] == [
        "kernel = tf.cast(self.kernel, policy.compute_dtype)",
        "bias = tf.cast(self.bias, policy.compute_dtype)",
    ]


def test_keras2_rule_reports_the_uncast_argument_and_what_would_happen():
    (finding,) = check_layer(gallery.MyLayer, (_x(), _x(seed=1)))
    assert finding.severity == "info" and finding.values["arguments"] == ("b",)
    assert "would return float32 outputs" in finding.what("en")

    class Mix(keras.layers.Layer):
        def call(self, a, b):
            return a * b

    (crash,) = check_layer(Mix, (_x(), _x(seed=1)))
    assert crash.code == "keras2-uncast-argument"
    assert "would fail with a dtype error" in crash.what("en")
    # a list in the first argument was cast whole by Keras 2 too
    assert check_layer(keras.layers.Add, [_x(), _x(seed=1)]).codes == ()


class Block(keras.layers.Layer):
    """A learner's block whose inner layer stores float16 weights."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = gallery.HalfWeights()
        self.dense = keras.layers.Dense(8)

    def call(self, inputs):
        return self.dense(self.inner(inputs))


def test_paths_are_stable_and_name_the_sublayer_and_attribute():
    for _ in range(3):  # Keras's automatic names move on; the report's paths do not
        keras.layers.Dense(1)
        gallery.HalfWeights()
    (finding,) = check_layer(gallery.HalfWeights, _x())
    assert finding.path == "HalfWeights/kernel"
    assert finding.values["dtype"] == "float16/bfloat16"
    (nested,) = check_layer(Block, _x())
    assert nested.code == "float16-variable"
    assert nested.path.startswith("Block/half_weights") and nested.path.endswith("/kernel")


class Float32Head(keras.layers.Layer):
    """A block that ends in a float32 softmax on purpose."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(8)
        self.softmax = keras.layers.Activation("softmax", dtype="float32")

    def call(self, inputs):
        return self.softmax(self.dense(inputs))


def test_a_float32_output_from_a_float32_sublayer_is_on_purpose():
    assert check_layer(Float32Head, _x()).codes == ()
    assert check_layer(gallery.classifier, _x(4, 32)).codes == ()  # a model is a layer too


def test_random_layers_are_not_blamed_for_zeros_in_different_places():
    report = check_layer(
        lambda: keras.layers.Dropout(0.5), _x(16, 32), call_kwargs={"training": True}
    )
    assert report.codes == ()


# --- check_layer: bad input and global state ----------------------------------------------------


def test_check_layer_refuses_bad_input_with_clear_errors():
    x = _x()
    with pytest.raises(TypeError, match=r"layer_factory must make a new layer.*lambda: Dense"):
        check_layer(keras.layers.Dense(3), x)
    with pytest.raises(TypeError, match="layer_factory must be a callable"):
        check_layer(42, x)
    with pytest.raises(TypeError, match=r"layer_factory\(\) must return a keras.layers.Layer"):
        check_layer(lambda: "dense", x)
    with pytest.raises(ValueError, match=r"layer_factory\(\) raised TypeError"):
        check_layer(lambda: keras.layers.Dense(), x)
    with pytest.raises(ValueError, match="inputs is required"):
        check_layer(gallery.SimpleDense, None)
    with pytest.raises(TypeError, match="inputs must contain at least one tensor"):
        check_layer(gallery.SimpleDense, "not a tensor")
    with pytest.raises(ValueError, match=r"policies=\('float16',\).*'mixed_float16'"):
        check_layer(gallery.SimpleDense, x, policies=("float16",))
    with pytest.raises(ValueError, match=r"lang='fr'.*'en', 'zh', 'es', 'ko', 'ru'"):
        check_layer(gallery.SimpleDense, x, lang="fr")
    with pytest.raises(TypeError, match="call_kwargs must be a dict"):
        check_layer(gallery.SimpleDense, x, call_kwargs=["training"])


def test_a_layer_that_cannot_be_built_from_the_inputs_gets_a_short_chained_error():
    previous = keras.config.dtype_policy()
    with pytest.raises(ValueError, match=r"Conv2D cannot be called on `inputs`") as caught:
        check_layer(lambda: keras.layers.Conv2D(8, 3), _x())
    assert caught.value.__cause__ is not None  # the Keras error, chained for whoever wants it
    assert "Traceback" not in str(caught.value) and len(str(caught.value)) < 600
    assert keras.config.dtype_policy() is previous


def test_check_layer_restores_the_global_policy_and_leaves_tensorflow_settings_alone():
    options = tf.config.optimizer.get_experimental_options()
    keras.config.set_dtype_policy("mixed_bfloat16")
    check_layer(gallery.AddRandom, _x())
    check_layer(gallery.AutocastOffScale, _x())
    assert keras.config.dtype_policy().name == "mixed_bfloat16"
    assert tf.config.optimizer.get_experimental_options() == options


# --- check_model --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "softmax_dtype", "expected"),
    [
        ("mixed_float16", "float32", ()),
        ("mixed_float16", "float16", ("half-softmax",)),
        ("mixed_float16", None, ("half-output",)),
        ("mixed_bfloat16", "float32", ()),
        ("mixed_bfloat16", "float16", ("half-softmax",)),
        ("float32", "float16", ()),
    ],
)
def test_model_outputs_and_softmax_must_be_float32(policy, softmax_dtype, expected):
    with _policy(policy):
        model = gallery.classifier(softmax_dtype=softmax_dtype)
    report = check_model(model, hardware=A100)
    assert report.codes == expected, str(report)
    for finding in report:
        assert finding.path == ("probabilities" if softmax_dtype else "logits")


def test_loss_scaling_is_required_for_float16_custom_loops_only():
    with _policy("mixed_float16"):
        model = gallery.classifier()
    sgd = keras.optimizers.SGD
    (finding,) = check_model(model, optimizer=sgd(), hardware=T4)
    assert finding.code == "no-loss-scaling" and finding.values["optimizer"] == "SGD"
    assert finding.severity == "error" and "scale_loss" in finding.snippet
    wrapped = keras.optimizers.LossScaleOptimizer(sgd())
    assert check_model(model, optimizer=wrapped, hardware=T4).ok
    assert check_model(model, optimizer=mpteach.LossScaleOptimizer(sgd()), hardware=T4).ok
    assert check_model(model, optimizer=sgd(loss_scale_factor=1024.0), hardware=T4).ok
    assert check_model(model, hardware=T4).ok  # no optimizer known: nothing to say
    model.compile(optimizer="sgd", loss="categorical_crossentropy")  # compile wraps it
    assert check_model(model, hardware=T4).ok
    model.compile(optimizer="sgd", loss="categorical_crossentropy", auto_scale_loss=False)
    assert check_model(model, hardware=T4).codes == ("no-loss-scaling",)
    with _policy("mixed_bfloat16"):
        bf16 = gallery.classifier()
    assert check_model(bf16, optimizer=sgd(), hardware=A100).ok  # bfloat16 needs no scaling


def test_float16_on_a_cpu_warns_about_the_fused_kernel_unless_a_remedy_is_on():
    with _policy("mixed_float16"):
        model = gallery.classifier()
    report = check_model(model, hardware=AMX_CPU)
    # and float16 gains nothing on it, AVX512-FP16 or not (0.91-1.04x recorded)
    assert report.codes == ("cpu-float16", "slow-float16")
    assert "mixed_bfloat16" in report[0].fix("en")  # this CPU has fast bfloat16
    assert "remapping" in report[0].snippet
    old = check_model(model, hardware=OLD_CPU)
    assert old.codes == ("cpu-float16", "slow-float16")
    assert "mixed_bfloat16" not in old[0].fix("en")
    assert old[1].values["best"] == "float32"
    options = tf.config.optimizer.get_experimental_options()
    try:
        tf.config.optimizer.set_experimental_options({"remapping": False})
        assert check_model(model, hardware=AMX_CPU).codes == ("slow-float16",)
    finally:
        tf.config.optimizer.set_experimental_options({"remapping": options.get("remapping", True)})
    model.compile(optimizer="adam", loss="mse", jit_compile=True)
    assert check_model(model, hardware=AMX_CPU).codes == ("slow-float16",)
    with _policy("mixed_float16"):
        plain = gallery.classifier()  # no remedy, on the AMD EPYC where the kernel was not slow
    assert check_model(plain, hardware=hardware.profile("amd-avx2")).codes == ("slow-float16",)


def test_bfloat16_without_fast_bfloat16_hardware():
    with _policy("mixed_bfloat16"):
        model = gallery.classifier()
    assert check_model(model, hardware=AMX_CPU).codes == ()
    assert check_model(model, hardware=A100).codes == ()
    for hw in (OLD_CPU, T4):
        (finding,) = check_model(model, hardware=hw)
        assert finding.code == "slow-bfloat16" and finding.values["device"] == hw.label
    assert check_model(model, hardware=T4)[0].values["best"] == "mixed_float16"


def test_sizes_that_are_not_multiples_of_8_are_listed_by_path():
    with _policy("mixed_float16"):
        model = keras.Sequential(
            [
                keras.Input((20,)),
                keras.layers.Dense(100, name="wide"),
                keras.layers.Dense(16, name="narrow"),
                keras.layers.Activation("softmax", dtype="float32"),
            ],
            name="net",
        )
    report = check_model(model, hardware=T4)
    assert report.codes == ("tensor-core-size", "tensor-core-size")
    assert [(f.path, f.values["dims"]) for f in report] == [
        ("net/narrow/kernel", ("100",)),
        ("net/wide/kernel", ("20", "100")),
    ]
    assert report.ok  # a performance note, not a mistake
    with _policy("float32"):
        plain = keras.Sequential([keras.Input((20,)), keras.layers.Dense(100)])
    assert check_model(plain, hardware=T4).codes == ()  # float32 does not use Tensor Cores
    with _policy("mixed_float16"):
        tokens = keras.Input((6,), dtype="int32")
        x = keras.layers.Embedding(50, 12, name="embed")(tokens)
        x = keras.layers.MultiHeadAttention(num_heads=3, key_dim=8, name="attention")(x, x)
        x = keras.layers.Activation("linear", dtype="float32")(x)
        attention = keras.Model(tokens, x)
    report = check_model(attention, hardware=T4)
    # the embedding width counts; the einsum kernels of attention (12×3×8) are not matrices
    assert [(f.path, f.values["dims"]) for f in report] == [("embed/embeddings", ("12",))]


def test_the_loss_of_a_custom_loop_must_be_float32():
    with _policy("mixed_float16"):
        model = gallery.classifier(softmax_dtype=None)
    x, y = _x(8, 32), np.eye(16, dtype="float32")[np.arange(8)]

    def mse(y_true, y_pred):
        return tf.reduce_mean(tf.square(y_true - y_pred))

    report = check_model(model, keras.optimizers.Adam(), (x, y), loss=mse, hardware=T4)
    assert report.codes == ("no-loss-scaling", "half-loss", "half-output")
    # a Keras loss casts the predictions to float32 first: a float32 output layer would give it
    # the same numbers, so there is nothing to say about the float16 logits
    keras_mse = keras.losses.MeanSquaredError()
    lso = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam())
    assert check_model(model, lso, (x, y), loss=keras_mse, hardware=T4).codes == ()
    model.compile(optimizer="adam", loss=keras.losses.MeanSquaredError(dtype="float16"))
    assert "half-loss" in check_model(model, sample_batch=(x, y), hardware=T4).codes


class Net(keras.Model):
    """A subclassed model around one gallery layer, with a float32 output."""

    def __init__(self, block, **kwargs):
        super().__init__(**kwargs)
        self.block = block
        self.head = keras.layers.Dense(16)
        self.out = keras.layers.Activation("linear", dtype="float32")

    def call(self, x):
        return self.out(self.head(self.block(x)))


@pytest.mark.parametrize(
    "name",
    [
        "AddRandom",
        "KerasOpsNoise",
        "ManualCastDense",
        "HalfWeights",
        "AutocastOffScale",
        "Float32Residual",
        "ForgotCastBack",
        "SpectrumNoCast",
        "SimpleDense",
        "RMSNorm",
    ],
)
def test_check_model_finds_each_layers_mistake_by_its_path(name):
    example = gallery.EXAMPLES[name]
    with _policy("mixed_float16"):
        model = Net(example.layer(name="block"), name="net")
    report = check_model(model, sample_batch=example.inputs(), hardware=T4)
    assert report.codes == example.expected, str(report)
    assert all(f.path.startswith("net/block") for f in report)


def test_inf_and_nan_are_checked_on_the_learners_own_batch():
    with _policy("mixed_float16"):
        model = Net(gallery.NaiveSoftmax(), name="net")
    logits = gallery.EXAMPLES["NaiveSoftmax"].inputs()
    assert check_model(model, sample_batch=logits, hardware=T4).codes == ("non-finite-output",)
    assert check_model(model, sample_batch=_x(scale=2.0), hardware=T4).codes == ()
    with _policy("mixed_float16"):
        norm = keras.Sequential(
            [
                keras.Input((8,)),
                keras.layers.Dense(8),
                gallery.EuclideanNorm(),
                keras.layers.Dense(8),
                keras.layers.Activation("linear", dtype="float32"),
            ],
            name="norm",
        )
    tiny = _x(scale=1e-5)  # squares underflow in float16: the gradient of sqrt at 0 is inf
    report = check_model(norm, sample_batch=tiny, hardware=T4)
    # the gradients are inf, and the twin comparison names the layer whose outputs became 0
    assert report.codes == ("non-finite-gradient", "numeric-divergence", "tensor-core-size")
    assert any("norm/dense" in name for name in report[0].values["variables"])
    assert report[1].path == norm.layers[1].path and report[1].values["error"] == "100%"


@pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
def test_no_false_positives_on_a_model_of_builtin_layers(policy):
    with _policy(policy):
        images = keras.Input((6, 6, 8))
        x = keras.layers.Conv2D(8, 3, padding="same", activation="relu")(images)
        x = keras.layers.BatchNormalization()(x)
        x = keras.layers.Reshape((36, 8))(x)
        x = keras.layers.LayerNormalization()(x)
        x = x + keras.layers.MultiHeadAttention(num_heads=2, key_dim=8)(x, x)
        x = keras.layers.LSTM(16)(x)
        x = keras.layers.Dense(16)(x)
        outputs = keras.layers.Activation("softmax", dtype="float32")(x)
        model = keras.Model(images, outputs)
    model.compile(optimizer="adam", loss="categorical_crossentropy")
    batch = (np.random.default_rng(0).standard_normal((8, 6, 6, 8)), np.eye(16)[:8])
    report = check_model(model, sample_batch=batch, hardware=A100)
    assert report.codes == (), str(report)


def test_check_model_refuses_bad_input_with_clear_errors():
    with _policy("mixed_float16"):
        model = gallery.classifier()
    with pytest.raises(TypeError, match=r"model must be a keras.Model \(for a single layer"):
        check_model(keras.layers.Dense(3))
    with pytest.raises(TypeError, match="model must be a keras.Model"):
        check_model("classifier")
    with pytest.raises(ValueError, match="has no layers"):
        check_model(keras.Sequential())
    with pytest.raises(ValueError, match=r"has no inputs yet.*sample_batch"):
        check_model(Net(keras.layers.Dense(8)))
    with pytest.raises(ValueError, match=r"cannot be called on sample_batch") as caught:
        check_model(model, sample_batch=_x(4, 7), hardware=T4)  # 7 features, 32 expected
    assert caught.value.__cause__ is not None
    with pytest.raises(ValueError, match=r"sample_batch must be x, \(x, y\)"):
        check_model(model, sample_batch=(1, 2, 3, 4), hardware=T4)
    with pytest.raises(TypeError, match="optimizer must be a Keras optimizer"):
        check_model(model, optimizer="sgd", hardware=T4)
    with pytest.raises(TypeError, match="hardware must be a mpteach.hardware.HardwareInfo"):
        check_model(model, hardware="gpu")
    with pytest.raises(TypeError, match="loss must be callable"):
        check_model(model, loss="mse", hardware=T4)
    with pytest.raises(ValueError, match=r"loss\(y, model\(x\)\) raised"):
        check_model(model, sample_batch=(_x(2, 32), np.ones((2, 3))), loss=lambda y, p: y @ p)


def test_check_model_leaves_the_model_as_it_found_it():
    with _policy("mixed_float16"):
        model = Net(gallery.AutocastOffScale(name="block"), name="net")
    x = _x()
    before = model(x).numpy()
    check_model(model, sample_batch=x, hardware=T4)
    assert not model.block.scale._autocast  # switched on for one try only
    assert all("call" not in vars(layer) for layer in model._flatten_layers())
    np.testing.assert_array_equal(model(x).numpy(), before)


# --- the report ---------------------------------------------------------------------------------


def _sample_values(code: str) -> dict[str, str]:
    """A value for every placeholder that the code's messages and snippet use."""
    names = set()
    for part in ("what", "why", "fix"):
        text = i18n.catalogue()[f"doctor.{code}.{part}"]["en"]
        names |= {field for _, field, _, _ in string.Formatter().parse(text) if field}
    names |= {field for _, field, _, _ in string.Formatter().parse(SNIPPETS[code]) if field}
    return {name: f"<{name}>" for name in names}


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_reads_in_every_language(code):
    finding = Finding(code, "layer/path", ("mixed_float16",), _sample_values(code))
    for lang in i18n.LANGUAGES:
        for text in (finding.what(lang), finding.why(lang), finding.fix(lang)):
            assert text and "{" not in text
    assert finding.snippet.strip()


def test_report_renders_as_text_and_html_in_the_chosen_language():
    report = check_layer(gallery.AddRandom, _x())
    text = str(report)
    assert text.startswith("Mixed-precision check: AddRandom")
    assert "[error] uncast-tensor-creation · AddRandom · mixed_float16, mixed_bfloat16" in text
    assert "noise = tf.random.normal(tf.shape(inputs), dtype=inputs.dtype)" in text
    html = report._repr_html_()
    assert "<table>" in html and "uncast-tensor-creation" in html
    assert "dtype=self.compute_dtype" in html and "<script" not in html
    i18n.set_language("ko")  # a report without lang= follows the current language
    assert "혼합 정밀도 점검" in str(report)
    assert str(Report("AddRandom", report.findings, lang="ru")).startswith(
        "Проверка смешанной точности"
    )
    assert "오류" in report._repr_html_()


def test_an_ok_report_says_so():
    report = check_layer(gallery.SimpleDense, _x(), lang="zh")
    assert report.ok and len(report) == 0 and list(report) == []
    assert "未发现混合精度问题" in str(report) and "未发现混合精度问题" in report._repr_html_()


def test_html_escapes_what_it_shows():
    finding = Finding(
        "dtype-mismatch", "a<b>", ("mixed_float16",), {"error": "<x & y>", "compute": "float16"}
    )
    html = Report("L", [finding])._repr_html_()
    assert "a&lt;b&gt;" in html and "&lt;x &amp; y&gt;" in html and "<x & y>" not in html


def test_merge_joins_policies_and_short_values_and_keeps_sentences():
    a = Finding("float16-variable", "L/w", ("mixed_float16",), {"dtype": "float16"})
    b = Finding("float16-variable", "L/w", ("mixed_bfloat16",), {"dtype": "bfloat16"})
    c = Finding("call-fails", "L", ("mixed_float16",), {"error": "one thing", "compute": "float16"})
    d = Finding(
        "call-fails", "L", ("mixed_bfloat16",), {"error": "another thing", "compute": "bfloat16"}
    )
    merged = merge([c, a, d, b])
    assert [f.code for f in merged] == ["call-fails", "float16-variable"]  # sorted by path
    assert merged[1].policies == ("mixed_float16", "mixed_bfloat16")
    assert merged[1].values["dtype"] == "float16/bfloat16"
    assert merged[0].values["error"] == "one thing"


def test_findings_refuse_unknown_codes_and_severities():
    with pytest.raises(ValueError, match="code='typo' is not a finding code"):
        Finding("typo", "L")
    with pytest.raises(ValueError, match="severity='fatal'"):
        Finding("manual-cast", "L", severity="fatal")


# --- reading the source -------------------------------------------------------------------------


class Sources:
    """Source patterns the scans must tell apart."""

    def call(self, inputs):
        a = tf.ones(tf.shape(inputs))
        b = tf.zeros(tf.shape(inputs), dtype=inputs.dtype)
        c = tf.fill(tf.shape(inputs), 0.5, name="half")
        d = np.ones(3)
        e = keras.ops.full((2,), 1.0, self.compute_dtype)
        f = tf.cast(self.kernel, self.compute_dtype)
        g = keras.ops.cast(self.moving_mean, "float32")
        h = tf.cast(inputs, "float32")
        return a, b, c, d, e, f, g, h


def test_source_scans_find_creations_without_dtype_and_casts_of_autocast_variables():
    created = [line.split(": ", 1)[1] for line in source.tensor_creations(Sources)]
    assert created == [
        "a = tf.ones(tf.shape(inputs))",
        "c = tf.fill(tf.shape(inputs), 0.5, name='half')",
    ]
    lines, names = source.weight_casts(Sources, {"kernel"})  # moving_mean: autocast=False
    assert names == ["kernel"] and len(lines) == 1


def test_source_scans_find_nothing_where_there_is_no_source():
    namespace: dict = {}
    exec("class Hidden:\n    def call(self, x):\n        return tf.ones(3)\n", namespace)
    assert source.tensor_creations(namespace["Hidden"]) == []
    assert source.tensor_creations(keras.layers.Dense) == []  # Keras's own code is trusted


# --- what only training shows -------------------------------------------------------------------


def _droppath_model(block, policy="mixed_float16", compile_it=True):
    with _policy(policy):
        inputs = keras.Input((8,))
        x = keras.layers.Dense(8)(inputs)
        x = keras.layers.Add()([x, block(name="drop_path")(x)])
        outputs = keras.layers.Dense(4, dtype="float32")(x)
        model = keras.Model(inputs, outputs, name="net")
    if compile_it:
        model.compile(optimizer="adam", loss="mse")
    return model


def test_a_mistake_in_the_training_branch_is_found_and_the_advice_fixes_it():
    (finding,) = check_layer(gallery.DropPathUncast, _x())
    assert (finding.code, finding.phase) == ("uncast-tensor-creation", "training")
    assert finding.policies == ("mixed_float16", "mixed_bfloat16")
    assert any(line.endswith("tf.random.uniform(shape, 0, 1))") for line in finding.source)
    assert "training=True" in str(check_layer(gallery.DropPathUncast, _x()))
    assert check_layer(gallery.DropPath, _x()).codes == ()  # the noise in the compute dtype
    # whoever passes `training` chooses the branch
    assert check_layer(gallery.DropPathUncast, _x(), call_kwargs={"training": False}).ok


def test_check_model_runs_a_training_step_and_leaves_model_and_optimizer_untouched():
    model = _droppath_model(gallery.DropPathUncast)
    batch = (_x(16, 8), _x(16, 4, seed=1))
    assert check_model(model, hardware=A100).ok  # inference alone cannot see it
    weights = [v.numpy() for v in model.variables]
    optimizer = model.optimizer
    report = check_model(model, sample_batch=batch, hardware=A100)
    assert report.codes == ("uncast-tensor-creation",), str(report)
    assert report[0].phase == "training" and report[0].path == model.get_layer("drop_path").path
    assert model.optimizer is optimizer and not optimizer.built
    assert all(np.array_equal(a, v.numpy()) for a, v in zip(weights, model.variables, strict=True))
    fixed = _droppath_model(gallery.DropPath)
    assert check_model(fixed, sample_batch=batch, hardware=A100).ok
    fixed.train_on_batch(*batch)  # and fit really works with the fix
    with pytest.raises((TypeError, tf.errors.InvalidArgumentError)):
        model.train_on_batch(*batch)  # while the original fails in its first step


class Encoder(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(4)

    def call(self, x):
        return self.dense(x)


class AutoEncoder(keras.Model):
    """A model with no call, only a train_step around two sub-layers, as in keras-io's VAE."""

    def __init__(self, scale_loss=False, **kwargs):
        super().__init__(**kwargs)
        self.encoder, self.decoder = Encoder(), keras.layers.Dense(8)
        self.scales = scale_loss

    def train_step(self, data):
        data = data[0] if isinstance(data, tuple) else data  # train_on_batch passes (x, None, None)
        with tf.GradientTape() as tape:
            reconstruction = self.decoder(self.encoder(data))
            loss = keras.ops.mean(
                keras.ops.square(data - keras.ops.cast(reconstruction, "float32"))
            )
            if self.scales:
                loss = self.optimizer.scale_loss(loss)
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights, strict=True))
        return {"loss": loss}


def _autoencoder(policy, scale_loss=False, optimizer="sgd"):
    with _policy(policy):
        model = AutoEncoder(scale_loss=scale_loss, name="ae")
        model.compile(optimizer=optimizer)
    return model


def _first_update(model, x):
    before = [v.numpy() for v in model.trainable_weights]
    model.train_on_batch(x)
    return np.concatenate(
        [(v.numpy() - b).ravel() for v, b in zip(model.trainable_weights, before, strict=True)]
    )


def test_a_train_step_that_never_scales_the_loss_is_found_and_it_really_divides_updates():
    x = _x(16, 8)
    model = _autoencoder("mixed_float16")
    report = check_model(model, sample_batch=x, hardware=T4)
    assert report.codes == ("unscaled-train-step",), str(report)
    (finding,) = report
    assert finding.values == {"optimizer": "SGD", "scale": "32768"} and finding.path == "ae"
    assert finding.source[0].startswith("AutoEncoder.train_step:")
    assert finding.source[0].endswith(
        "self.optimizer.apply_gradients(zip(grads, self.trainable_weights, strict=True))"
    )
    fixed = _autoencoder("mixed_float16", scale_loss=True)
    assert check_model(fixed, sample_batch=x, hardware=T4).ok
    # what the finding says, measured: same weights, one SGD step; the unscaled update is the
    # fixed one divided by the loss scale
    fixed.build((None, 8)) if not fixed.built else None
    model.set_weights(fixed.get_weights())
    broken_update, fixed_update = _first_update(model, x), _first_update(fixed, x)
    ratio = np.linalg.norm(broken_update) / np.linalg.norm(fixed_update)
    # the broken update is so small that float32 weights round it (updates under half an ULP of
    # a weight are lost), so its size is known to tens of percent, not to the last digit
    assert ratio == pytest.approx(1 / 32768, rel=0.25)
    assert _autoencoder("mixed_bfloat16").optimizer.__class__.__name__ == "SGD"
    assert check_model(_autoencoder("mixed_bfloat16"), sample_batch=x, hardware=A100).ok


# --- integers in float tensors, and silent divergence --------------------------------------------


def _token_model(dtype, policy="mixed_float16"):
    with _policy(policy):
        tokens = keras.Input((6,), dtype=dtype, name="tokens")
        x = gallery.TokenEmbedding(name="embed")(tokens)
        x = keras.layers.GlobalAveragePooling1D()(x)
        outputs = keras.layers.Dense(2, dtype="float32")(x)
        return keras.Model(tokens, outputs, name="text")


def test_token_ids_in_a_float_input_are_found_where_they_are_rounded_and_int32_fixes_it():
    ids = gallery._token_ids("int32")
    report = check_model(_token_model("float32"), sample_batch=ids.astype("float32"), hardware=T4)
    assert report.codes == ("float-indices",), str(report)
    assert report[0].path == "embed" and report[0].values["limit"] == "2048"
    lost = int(report[0].values["example"].split(" → ")[0])
    assert lost > 2048 and lost in ids
    assert check_model(_token_model("int32"), sample_batch=ids, hardware=T4).ok
    small = ids % 256  # bfloat16 holds whole numbers up to 256 exactly
    assert check_model(
        _token_model("float32", "mixed_bfloat16"), sample_batch=small, hardware=A100
    ).ok
    assert check_model(
        _token_model("float32", "mixed_bfloat16"), sample_batch=ids, hardware=A100
    ).codes == ("float-indices",)


def test_keras_embedding_given_float_ids_is_not_blamed_because_it_does_not_cast_them():
    ids = gallery._token_ids("float32")
    with _policy("mixed_float16"):
        tokens = keras.Input((6,))
        outputs = keras.layers.Embedding(5000, 8)(tokens)
        model = keras.Model(tokens, keras.layers.Activation("linear", dtype="float32")(outputs))
    assert check_model(model, sample_batch=ids, hardware=T4).ok
    rows = model.layers[1].embeddings.numpy()[ids.astype(int)]  # the very rows the ids name
    np.testing.assert_array_equal(model(ids).numpy(), rows.astype("float16").astype("float32"))


def _positions_model():
    """Sine positions computed in float16 over 4096 steps, then a Dense layer."""
    with _policy("mixed_float16"):
        return keras.Sequential(
            [
                keras.Input((4096, 8)),
                gallery.SinePositionsHalf(name="positions"),
                keras.layers.Dense(8),
                keras.layers.Activation("linear", dtype="float32"),
            ],
            name="seq",
        )


def test_silent_divergence_names_the_layer_and_float32_inside_fixes_it():
    model = _positions_model()
    report = check_model(model, sample_batch=gallery._long_sequence(), hardware=T4)
    assert report.codes == ("numeric-divergence",), str(report)
    assert report[0].path == model.get_layer("positions").path
    assert float(report[0].values["error"].rstrip("%")) > 10
    with _policy("mixed_float16"):
        fixed = keras.Sequential(
            [
                keras.Input((4096, 8)),
                gallery.SinePositions(),
                keras.layers.Dense(8),
                keras.layers.Activation("linear", dtype="float32"),
            ]
        )
    assert check_model(fixed, sample_batch=gallery._long_sequence(), hardware=T4).ok


@pytest.mark.parametrize(("name", "fixed"), [("RunningRMSHalf", "RunningRMS")])
def test_a_statistic_rounded_to_16_bits_drifts_and_the_advice_keeps_it(name, fixed):
    (finding,) = check_layer(getattr(gallery, name), _x())
    assert (finding.code, finding.phase) == ("rounded-variable-update", "training")
    assert finding.values["attribute"] == "mean_square" and "self.mean_square" in finding.snippet
    assert finding.source[0].split(": ", 1)[1].startswith("self.mean_square.assign(")
    assert check_layer(getattr(gallery, fixed), _x()).ok
    # measured: 300 training calls on inputs of RMS 1.01, starting from 1 (float16 spacing at 1
    # is 2^-10): the rounded statistic cannot move, the float32 one follows the data
    x = _x(64, 8, scale=1.01)

    def after_training(layer_class, policy):
        with _policy(policy):
            layer = layer_class()
        for _ in range(300):
            layer(x, training=True)
        return layer.mean_square.numpy()

    reference = after_training(getattr(gallery, fixed), "float32")
    good = after_training(getattr(gallery, fixed), "mixed_float16")
    bad = after_training(getattr(gallery, name), "mixed_float16")
    assert np.abs(good - reference).max() < 1e-3 < np.abs(bad - reference).max()


# --- no false alarms and the right advice --------------------------------------------------------


def test_logits_into_a_from_logits_loss_are_not_a_half_output():
    with _policy("mixed_float16"):
        model = gallery.classifier(softmax_dtype=None)
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    model.compile(optimizer="adam", loss=loss)
    x, y = _x(8, 32), np.arange(8) % 16
    assert check_model(model, hardware=A100).codes == ()
    assert check_model(model, sample_batch=(x, y), hardware=A100).codes == ()
    # the advice that was given would have changed nothing: the loss casts to float32 first
    logits = model(x)
    as_float32 = keras.layers.Activation("linear", dtype="float32")(logits)
    assert loss(y, logits).numpy() == loss(y, as_float32).numpy()
    # a hand-written loss sees the float16 logits as they are: the note stays
    report = check_model(model, sample_batch=(x, y), loss=lambda t, p: p, hardware=A100)
    assert "half-output" in report.codes


class Residual(keras.layers.Layer):
    """A residual block that makes its Add layer inside call (keras.layers.add)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(8)

    def call(self, x):
        return keras.layers.add([x, self.dense(x)])


class ResidualFixed(Residual):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add = keras.layers.Add()

    def call(self, x):
        return self.add([x, self.dense(x)])


def _residual_model(block):
    with (
        keras.mixed_precision.policy_scope("mixed_float16")
        if hasattr(keras.mixed_precision, "policy_scope")
        else _policy("mixed_float16")
    ):
        inputs = keras.Input((8,))
        x = block(name="block")(inputs)
        outputs = keras.layers.Dense(4, dtype="float32")(x)
        return keras.Model(inputs, outputs, name="res")


def test_a_layer_made_at_call_time_is_named_instead_of_a_float32_output():
    model = _residual_model(Residual)
    assert keras.config.dtype_policy().name == "float32"  # built in a scope, checked after
    (finding,) = check_model(model, sample_batch=_x(), hardware=A100)
    assert finding.code == "call-time-layer" and finding.path == model.get_layer("block").path
    assert finding.values["global"] == "float32"
    assert finding.source[0].endswith("return keras.layers.add([x, self.dense(x)])")
    assert check_model(_residual_model(ResidualFixed), sample_batch=_x(), hardware=A100).ok


class FNetMixing(keras.layers.Layer):
    """keras.ops.fft2 on the inputs, as keras-io's FNet block does."""

    def call(self, inputs):
        return keras.ops.fft2((inputs, keras.ops.zeros_like(inputs)))[0]


class FNetMixingFloat32(keras.layers.Layer):
    def call(self, inputs):
        x = keras.ops.cast(inputs, "float32")
        real, _ = keras.ops.fft2((x, keras.ops.zeros_like(x)))
        return keras.ops.cast(real, self.compute_dtype)


def test_an_fft_that_needs_float32_gets_the_float32_island_advice():
    (finding,) = check_layer(FNetMixing, _x())
    assert finding.code == "unsupported-half-op", str(finding)
    assert 'ops.cast(inputs, "float32")' in finding.snippet
    assert check_layer(FNetMixingFloat32, _x()).ok


def test_merging_paths_does_not_repeat_them():
    a = Finding(
        "non-finite-gradient",
        "L",
        ("mixed_float16",),
        {"variables": ("A/b/c",), "compute": "float16"},
    )
    b = Finding("non-finite-gradient", "L", ("mixed_bfloat16",), {"variables": ("A/b/c",)})
    c = Finding(
        "non-finite-gradient",
        "L",
        ("mixed_bfloat16",),
        {"variables": ("A/b/d", "A/b/c"), "compute": "float16"},
    )
    assert merge([a, b])[0].values["variables"] == ("A/b/c",)
    assert merge([a, c])[0].values["variables"] == ("A/b/c", "A/b/d")
    # a list of names reads as the language lists them
    assert "A/b/c、A/b/d" in merge([a, c])[0].what("zh")
    assert "A/b/c, A/b/d" in merge([a, c])[0].what("en")
    d = Finding(
        "numeric-divergence", "L", ("mixed_float16",), {"error": "24%", "rounding": "5e-04"}
    )
    e = Finding(
        "numeric-divergence", "L", ("mixed_bfloat16",), {"error": "70%", "rounding": "4e-03"}
    )
    assert dict(merge([d, e])[0].values) == {"error": "24%/70%", "rounding": "5e-04/4e-03"}


class Agreement(keras.metrics.Metric):
    """A custom metric that multiplies float32 labels by the predictions as they come."""

    def __init__(self, cast=False, smooth=False, weigh=False, **kwargs):
        super().__init__(**kwargs)
        self.cast, self.smooth, self.weigh = cast, smooth, weigh
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.cast:
            y_pred = tf.cast(y_pred, y_true.dtype)
        if self.smooth:  # a float32 tensor computed here, no longer the batch's own
            y_true = 0.9 * y_true + 0.1 / 16
        if self.weigh:  # the float32 operand is made on the failing line: nothing to name
            self.total.assign_add(tf.reduce_sum(tf.ones_like(y_pred, dtype="float32") * y_pred))
            return
        self.total.assign_add(tf.reduce_sum(y_true * y_pred))

    def result(self):
        return self.total


def test_a_training_step_that_fails_outside_any_layer_is_reported_with_its_line():
    x, y = _x(8, 32), np.eye(16, dtype="float32")[:8]
    cases = [
        (Agreement(), ("float32-batch",)),  # the labels of the batch meet the 16-bit outputs
        (Agreement(smooth=True), ("float32-tensor",)),  # a tensor the metric computed
        (Agreement(weigh=True), ("train-step-fails",)),
        (Agreement(cast=True), ()),
    ]
    for metric, expected in cases:
        with _policy("mixed_float16"):
            model = gallery.classifier(softmax_dtype=None)
        model.compile("adam", keras.losses.MeanSquaredError(), metrics=[metric])
        report = check_model(model, sample_batch=(x, y), hardware=A100)
        assert report.codes == expected, str(report)
    (batch,) = check_model(_agreeing_classifier(), sample_batch=(x, y), hardware=A100)
    assert batch.values["names"] == ("y_true",) and batch.values["half"] == ("y_pred",)
    plain = gallery.classifier(softmax_dtype=None)  # float32: the same metric works
    plain.compile("adam", keras.losses.MeanSquaredError(), metrics=[Agreement()])
    assert check_model(plain, sample_batch=(x, y), hardware=A100).ok


def _agreeing_classifier():
    with _policy("mixed_float16"):
        model = gallery.classifier(softmax_dtype=None)
    model.compile("adam", keras.losses.MeanSquaredError(), metrics=[Agreement()])
    return model


def test_the_training_step_failure_names_the_metric_line():
    x, y = _x(8, 32), np.eye(16, dtype="float32")[:8]
    (finding,) = check_model(_agreeing_classifier(), sample_batch=(x, y), hardware=A100)
    assert finding.phase == "training" and finding.values["compute"] == "float16"
    assert finding.source[0].startswith("Agreement.update_state:")
    assert finding.source[0].endswith("self.total.assign_add(tf.reduce_sum(y_true * y_pred))")


def test_a_model_that_only_trains_needs_a_sample_batch():
    with pytest.raises(ValueError, match=r"has no inputs yet.*sample_batch"):
        check_model(_autoencoder("mixed_float16"), hardware=T4)


def test_a_cast_to_float32_by_name_is_a_float32_island_not_a_manual_cast():
    class Island:
        def call(self, x):
            scale = keras.ops.cast(self.scale, "float32")
            kernel = tf.cast(self.kernel, tf.float32)
            bias = tf.cast(self.bias, self.compute_dtype)
            return x * scale @ kernel + bias

    lines, names = source.weight_casts(Island, {"scale", "kernel", "bias"})
    assert names == ["bias"] and len(lines) == 1


def test_an_image_transform_without_a_16_bit_gradient_is_a_note_with_the_float32_island():
    images = tf.constant(gallery._normal(2, 8, 8, 3))
    layer = keras.layers.RandomRotation(0.1, dtype="mixed_bfloat16")
    with tf.GradientTape() as tape:
        tape.watch(images)
        outputs = layer(images)
    try:
        tape.gradient(outputs, images)
        fails = False
    except TypeError:  # this TensorFlow has no bfloat16 gradient for image transforms
        fails = True
    report = check_layer(lambda: keras.layers.RandomRotation(0.1), images)
    assert report.codes == (("unsupported-half-op",) if fails else ()), str(report)
    # only the gradient with respect to the images fails: it matters when trainable layers
    # come before the augmentation, not at the start of a model
    assert report.ok
    if fails:
        assert report[0].severity == "info" and report[0].policies == ("mixed_bfloat16",)
        assert 'ops.cast(inputs, "float32")' in report[0].snippet


def test_rounding_noise_of_an_exact_zero_gradient_is_not_a_vanishing_gradient():
    """float32 leaves rounding noise where the true gradient is 0 (a key bias in attention);
    float16 rounds it to 0. The float64 twin tells noise from a small real gradient."""
    from mpteach.doctor.diagnose import Probe, numeric_findings

    noise = np.array([3e-9, -2e-9, 1e-9], "float32")
    half = Probe([np.ones(3, "float32")], [("layer/key/bias", np.zeros(3, "float32"))])

    def reference(exact):
        return Probe([np.ones(3, "float32")], [("layer/key/bias", noise)], exact=exact)

    assert numeric_findings("layer", "mixed_float16", "float16", reference(None), half)
    zero_in_float64 = [np.array([1e-17, -3e-18, 0.0], "float32")]
    assert (
        numeric_findings("layer", "mixed_float16", "float16", reference(zero_in_float64), half)
        == []
    )
    small_but_real = [noise.astype("float64").astype("float32")]
    (finding,) = numeric_findings(
        "layer", "mixed_float16", "float16", reference(small_but_real), half
    )
    assert finding.code == "vanishing-gradient"


def test_training_step_check_ends_when_a_layer_widens_its_output():
    """A layer that promotes its float16 input to float32 (a float32 constant in call) is rerun
    to find the cause; the rerun must not be taken for another call of the training step."""

    class Standardize(keras.layers.Layer):
        def call(self, x):
            return keras.ops.subtract(x, keras.ops.convert_to_tensor(np.zeros(4, "float32")))

    keras.config.set_dtype_policy("mixed_float16")
    try:
        model = keras.Sequential([keras.Input((4,)), Standardize(), keras.layers.Dense(2)])
        model.compile(optimizer="sgd", loss="mse")
    finally:
        keras.config.set_dtype_policy("float32")
    x, y = np.ones((8, 4), "float32"), np.zeros((8, 2), "float32")
    report = check_model(model, sample_batch=(x, y), hardware=T4)
    assert "uncast-tensor-creation" in report.codes


# --- whole models: structured batches, several optimizers, what a divergence changes, crashes


class Seq2Seq(keras.Model):
    """A train_step that takes a dictionary apart and calls the model on a list of its parts
    (as keras-io's speech Transformer does); it never scales the loss."""

    def __init__(self, scale_loss=False, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale_loss
        self.encoder = keras.layers.Dense(16, activation="relu")
        self.decoder = keras.layers.Dense(16)

    def call(self, inputs):
        source, target = inputs
        return self.decoder(self.encoder(source) + self.encoder(target))

    def train_step(self, batch):
        source, target = batch["source"], batch["target"]
        with tf.GradientTape() as tape:
            preds = self([source, target])
            loss = self.compute_loss(None, batch["labels"], preds)
            if self.scale:
                loss = self.optimizer.scale_loss(loss)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=True))
        return {"loss": loss}


def _seq2seq(scale_loss):
    with _policy("mixed_float16"):
        model = Seq2Seq(scale_loss, name="seq2seq")
        model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    rng = np.random.default_rng(0)
    batch = {
        "source": rng.standard_normal((8, 8)).astype("float32"),
        "target": rng.standard_normal((8, 8)).astype("float32"),
        "labels": rng.integers(0, 16, 8),
    }
    return model, batch


@pytest.mark.filterwarnings("ignore:.*unbuilt state:UserWarning", "ignore:`build\\(\\)` was called")
def test_a_dictionary_batch_is_checked_in_training_and_the_skipped_call_is_a_note():
    model, batch = _seq2seq(scale_loss=False)
    report = check_model(model, sample_batch=batch, hardware=A100)
    assert report.codes == ("unscaled-train-step", "check-skipped"), str(report)
    skipped = report[1]
    assert skipped.severity == "info" and "ValueError" in skipped.values["error"]
    assert skipped.what().startswith("Not checked: the model's call on the x of sample_batch")
    model, batch = _seq2seq(scale_loss=True)
    assert check_model(model, sample_batch=batch, hardware=A100).ok
    model((batch["source"], batch["target"]))  # the model is built: the call works on a tuple
    report = check_model(model, sample_batch=((batch["source"], batch["target"]),), hardware=A100)
    assert report.ok and "check-skipped" not in report.codes, str(report)


@pytest.mark.filterwarnings("ignore:.*unbuilt state:UserWarning")
def test_a_batch_that_fits_neither_call_nor_train_step_is_still_refused():
    model, batch = _seq2seq(scale_loss=True)
    del batch["target"]
    with pytest.raises(ValueError, match=r"cannot be called on sample_batch"):
        check_model(model, sample_batch=batch, hardware=A100)


class TwoOptimizerGAN(keras.Model):
    """A GAN whose custom compile keeps its own optimizers (in a list, or as attributes)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        dense = keras.layers.Dense
        self.g = keras.Sequential([keras.Input((4,)), dense(8, activation="relu"), dense(8)])
        self.d = keras.Sequential(
            [keras.Input((8,)), dense(8, activation="relu"), dense(1, dtype="float32")]
        )

    def compile(self, g_optimizer, d_optimizer, in_list=False):
        super().compile()
        if in_list:
            self.gan_optimizers = [g_optimizer, d_optimizer]
        else:
            self.g_optimizer, self.d_optimizer = g_optimizer, d_optimizer

    def _optimizers(self):
        if hasattr(self, "gan_optimizers"):
            return self.gan_optimizers
        return self.g_optimizer, self.d_optimizer

    def train_step(self, real):
        g_optimizer, d_optimizer = self._optimizers()
        scaled = isinstance(g_optimizer, keras.optimizers.LossScaleOptimizer)
        z = keras.random.normal((8, 4), seed=1)
        with tf.GradientTape() as tape:
            d_loss = tf.reduce_mean(self.d(self.g(z))) - tf.reduce_mean(self.d(real))
            d_scaled = d_optimizer.scale_loss(d_loss) if scaled else d_loss
        grads = tape.gradient(d_scaled, self.d.trainable_weights)
        d_optimizer.apply_gradients(zip(grads, self.d.trainable_weights, strict=True))
        with tf.GradientTape() as tape:
            g_loss = -tf.reduce_mean(self.d(self.g(z))) * 1e-7
            g_scaled = g_optimizer.scale_loss(g_loss) if scaled else g_loss
        grads = tape.gradient(g_scaled, self.g.trainable_weights)
        g_optimizer.apply_gradients(zip(grads, self.g.trainable_weights, strict=True))
        return {"d_loss": d_loss}


@pytest.mark.parametrize("in_list", [False, True])
def test_each_optimizer_of_a_train_step_is_checked_and_compared_with_float32(in_list):
    real = _x(8, 8)
    with _policy("mixed_float16"):
        gan = TwoOptimizerGAN(name="gan")
    gan.compile(keras.optimizers.SGD(0.1), keras.optimizers.SGD(0.1), in_list=in_list)
    weights = [w.numpy() for w in gan.weights]
    report = check_model(gan, sample_batch=real, hardware=A100)
    assert "unscaled-optimizers" in report.codes, str(report)
    (finding,) = [f for f in report if f.code == "unscaled-optimizers"]
    names = (
        ("gan_optimizers[0]", "gan_optimizers[1]") if in_list else ("g_optimizer", "d_optimizer")
    )
    assert {name.split(" ")[0] for name in finding.values["optimizers"]} == set(names)
    shares = {name.split(" ")[0]: name for name in finding.values["optimizers"]}
    assert all(" (SGD, " in name and name.endswith("%)") for name in shares.values())
    # each optimizer's own share: the generator's tiny loss underflows, the discriminator's not
    generator = shares["gan_optimizers[0]" if in_list else "g_optimizer"]
    assert float(generator.split(", ")[1].rstrip("%)")) > 50, generator
    # the generator's loss is tiny: most of its gradients underflow in float16 and stay put
    assert float(finding.values["percent"].rstrip("%")) > 10
    assert all(np.array_equal(w.numpy(), v) for w, v in zip(gan.weights, weights, strict=True))
    lso = keras.optimizers.LossScaleOptimizer
    with _policy("mixed_float16"):
        wrapped = TwoOptimizerGAN(name="gan")
    wrapped.compile(lso(keras.optimizers.SGD(0.1)), lso(keras.optimizers.SGD(0.1)), in_list)
    assert "unscaled-optimizers" not in check_model(wrapped, sample_batch=real, hardware=A100).codes
    with _policy("mixed_bfloat16"):  # bfloat16 needs no scaling
        plain = TwoOptimizerGAN(name="gan")
    plain.compile(keras.optimizers.SGD(0.1), keras.optimizers.SGD(0.1), in_list)
    assert "unscaled-optimizers" not in check_model(plain, sample_batch=real, hardware=A100).codes


class LayerScale(keras.layers.Layer):
    """A learnable per-channel scale started tiny (CaiT, ConvNeXt): the branch it scales is
    about 1e-6 at initialisation, below float16's normal range."""

    def __init__(self, init_values, **kwargs):
        super().__init__(**kwargs)
        self.init_values = init_values

    def build(self, input_shape):
        init = keras.initializers.Constant(self.init_values)
        self.gamma = self.add_weight(shape=(input_shape[-1],), initializer=init)

    def call(self, x):
        return x * self.gamma


def _scaled_residual():
    with _policy("mixed_float16"):
        inputs = keras.Input((16,))
        x = keras.layers.Dense(16)(inputs)
        branch = keras.layers.Dense(16, activation="gelu")(x)
        branch = keras.layers.Dense(16, name="after_scale")(LayerScale(1e-6)(branch))
        x = keras.layers.Add()([x, branch])
        outputs = keras.layers.Activation("softmax", dtype="float32")(keras.layers.Dense(16)(x))
        model = keras.Model(inputs, outputs, name="scaled")
    model.compile("adam", "sparse_categorical_crossentropy")
    return model


def test_a_divergence_that_does_not_reach_the_loss_or_the_gradients_is_a_note():
    batch = (_x(8, 16), np.arange(8) % 16)
    report = check_model(_scaled_residual(), sample_batch=batch, hardware=A100)
    assert report.ok, str(report)
    notes = [f for f in report if f.code == "divergence-without-effect"]
    assert notes and all(f.severity == "info" for f in notes)
    assert any(f.path.endswith("after_scale") for f in notes), str(report)
    text = notes[0].what()
    assert "On this batch, the loss differs from float32's by" in text


def test_a_divergence_that_changes_training_says_by_how_much():
    model = _positions_model()
    (finding,) = check_model(model, sample_batch=gallery._long_sequence(), hardware=A100)
    assert finding.code == "numeric-divergence"
    assert "the model's outputs differ from float32's by" in finding.what()  # no labels given
    phrase = dict(finding.values["effect"].values)
    assert float(phrase["change"].rstrip("%")) > 10 and float(phrase["gradients"].rstrip("%")) > 10


class NoisySchedule(keras.Model):
    """A diffusion-style train_step: a float32 schedule held by the model, or the float32
    batch, meets the network's 16-bit prediction."""

    def __init__(self, mistake, **kwargs):
        super().__init__(**kwargs)
        self.mistake = mistake
        dense = keras.layers.Dense
        self.network = keras.Sequential([keras.Input((8,)), dense(8, activation="relu"), dense(8)])
        self.rates = tf.constant(np.linspace(0.01, 0.99, 10), dtype=tf.float32)

    def train_step(self, images):
        with tf.GradientTape() as tape:
            pred_noise = self.network(images)
            if self.mistake == "schedule":
                pred = self.rates[3] * pred_noise
            elif self.mistake == "batch":
                pred = images - pred_noise
            else:
                pred = self.rates[3] * tf.cast(pred_noise, "float32")
            loss = tf.reduce_mean(tf.square(tf.cast(pred, "float32") - images))
            scaled = self.optimizer.scale_loss(loss)
        grads = tape.gradient(scaled, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights, strict=True))
        return {"loss": loss}


@pytest.mark.parametrize(
    ("mistake", "code", "names"),
    [("schedule", "float32-tensor", ("self.rates",)), ("batch", "float32-batch", ("images",))],
)
def test_a_crash_in_training_is_told_by_where_the_float32_operand_comes_from(mistake, code, names):
    with _policy("mixed_float16"):
        model = NoisySchedule(mistake, name="diffusion")
    model.compile("adam")
    report = check_model(model, sample_batch=_x(8, 8), hardware=A100)
    errors = [f for f in report if f.severity == "error"]
    assert [f.code for f in errors] == [code], str(report)
    assert errors[0].values["names"] == names and errors[0].values["half"] == ("pred_noise",)
    assert errors[0].phase == "training" and errors[0].source[0].startswith("NoisySchedule.")
    with _policy("mixed_float16"):
        fixed = NoisySchedule("none", name="diffusion")
    fixed.compile("adam")
    assert check_model(fixed, sample_batch=_x(8, 8), hardware=A100).ok


def test_a_layer_that_rewrites_its_kernel_through_16_bits_is_found_inside_a_model():
    with _policy("mixed_float16"):
        inputs = keras.Input((8,))
        masked = gallery.MaskedDense(name="masked")(inputs)
        outputs = keras.layers.Activation("linear", dtype="float32")(masked)
        model = keras.Model(inputs, outputs, name="pixel")
    model.compile("adam", "mse")
    kernel = model.get_layer("masked").kernel
    before = kernel.numpy()
    report = check_model(model, sample_batch=(_x(8, 8), _x(8, 8, seed=1)), hardware=A100)
    assert report.codes == ("rounded-variable-update",), str(report)
    assert report[0].values["variables"] == ("masked/kernel",)
    np.testing.assert_array_equal(kernel.numpy(), before)  # the check leaves it as it was


class TaggedSGD(keras.optimizers.SGD):
    """An optimizer that from_config cannot rebuild (its tag is not in its config)."""

    def __init__(self, tag, **kwargs):
        super().__init__(**kwargs)
        self.tag = tag


def test_an_optimizer_that_cannot_be_copied_is_used_and_left_as_it_was():
    with _policy("mixed_float16"):
        model = gallery.classifier(softmax_dtype=None)
    optimizer = TaggedSGD("mine", momentum=0.9)
    model.compile(optimizer, "mse", auto_scale_loss=False)
    batch = (_x(8, 32), np.eye(16, dtype="float32")[:8])
    weights = [w.numpy() for w in model.weights]
    report = check_model(model, sample_batch=batch, hardware=A100)
    assert "no-loss-scaling" in report.codes and "check-skipped" not in report.codes, str(report)
    assert "apply" not in vars(optimizer) and int(optimizer.iterations) == 0
    assert all(not np.any(v.numpy()) for v in optimizer.variables if "momentum" in v.path)
    assert all(np.array_equal(w.numpy(), v) for w, v in zip(model.weights, weights, strict=True))


def test_a_part_the_doctor_cannot_run_is_named_and_the_rest_of_the_report_stands(monkeypatch):
    from mpteach.doctor import model as model_module

    def broken(*args, **kwargs):
        raise RuntimeError("cannot run here")

    monkeypatch.setattr(model_module, "_training_findings", broken)
    with _policy("mixed_bfloat16"):
        model = gallery.classifier(softmax_dtype="float16")
    model.compile("sgd", "categorical_crossentropy")
    batch = (_x(8, 32), np.eye(16, dtype="float32")[:8])
    report = check_model(model, sample_batch=batch, hardware=A100)
    assert report.codes == ("half-softmax", "check-skipped"), str(report)
    expected = "Not checked: one training step on sample_batch (RuntimeError: cannot run here)."
    assert report[1].what() == expected and report[1].severity == "info"
    for lang in i18n.LANGUAGES:
        assert report[1].what(lang) and report[1].why(lang) and report[1].fix(lang)
