"""mp.doctor on layers and models from public Keras code (``tests/public_gallery.py``).

First what is true of each entry is established by running it, without the doctor: under
``mixed_float16`` and ``mixed_bfloat16`` against a float32 twin with the same weights, in
inference and in the training branch, and for models through one real training step. The
criteria are deliberately blunt (a crash float32 does not have; outputs more than 10 % away from
float32's; a float32 statistic more than 1 % away after 50 training calls; a first update less
than half or more than twice float32's; a floating output wider than the compute dtype). Then
the doctor's verdicts are compared with that truth: the confusion table is printed, and there
must be no false alarm and no missed problem.
"""

from __future__ import annotations

import functools

import keras
import numpy as np
import public_gallery as gallery
import pytest
import tensorflow as tf

from mpteach import hardware
from mpteach.doctor import check_layer, check_model
from mpteach.doctor.diagnose import keras_policy

pytestmark = [pytest.mark.keras, pytest.mark.slow]  # about 3.5 minutes on one core

MIXED = ("mixed_float16", "mixed_bfloat16")
GPU = hardware.HardwareInfo("AMD EPYC", frozenset(), 8, (hardware.GPUInfo("A100", (8, 0)),))


def _tensors(inputs):
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    return tuple(tf.convert_to_tensor(x) for x in inputs)


def _floats(structure):
    return [x for x in tf.nest.flatten(structure) if hasattr(x, "dtype") and x.dtype.is_floating]


def _error(values, reference):
    """Largest normwise relative error over the floating outputs."""
    worst = 0.0
    for v, r in zip(_floats(values), _floats(reference), strict=False):
        v, r = tf.cast(v, tf.float64).numpy(), tf.cast(r, tf.float64).numpy()
        if not np.isfinite(v).all():
            return float("inf")
        worst = max(worst, np.linalg.norm(v - r) / max(np.linalg.norm(r), 1e-30))
    return worst


def _leaks(outputs, compute):
    return any(x.dtype.name != compute and x.shape.rank for x in _floats(outputs))


def _trains(layer):
    return any(getattr(s, "_call_has_training_arg", False) for s in layer._flatten_layers())


def _state(layer):
    return [v for v in layer.weights if not v.trainable and str(v.dtype) == "float32"]


# An optimizer-sized nudge of every weight: kept by float32, below half a 16-bit spacing.
NUDGE = 2.0**-13


def _nudge_lost(ours, theirs, call_ours, call_theirs):
    """Whether ``call`` loses a small update of a weight in 16 bits that float32 keeps: from the
    same nudged weights, one call each; for some weight, of the values the nudge changed and
    float32's call keeps, more than half are changed by the 16-bit call."""
    weights = theirs.get_weights()
    nudged = [w + NUDGE * np.abs(w) if w.dtype.kind == "f" else w for w in weights]
    ours.set_weights(nudged)
    theirs.set_weights(nudged)
    call_ours()
    call_theirs()
    starts = {id(v): (n, w) for v, n, w in zip(theirs.weights, nudged, weights, strict=True)}
    lost = False
    for a, b in zip(ours.trainable_weights, theirs.trainable_weights, strict=False):
        start, before = starts[id(b)]
        a, b = a.numpy(), b.numpy()
        if a.shape != b.shape or b.dtype.kind != "f":
            continue
        keeps = (b == start) & (start != before)  # nudged, and float32 keeps the nudge
        if keeps.any() and np.count_nonzero(keeps & (a != b)) > 0.5 * np.count_nonzero(keeps):
            lost = True
    theirs.set_weights(weights)
    return lost


def _frozen(update, update32):
    """The share of the weights that float32's first update moves and this one leaves as is."""
    moves = update32 != 0
    return np.count_nonzero(moves & (update == 0)) / max(np.count_nonzero(moves), 1)


def layer_truth(entry: gallery.PublicLayer) -> tuple[str, ...]:
    """What running shows: crash, training-crash, float32-leak, diverges, drift, update-lost."""
    found = set()
    args = _tensors(entry.inputs())
    with keras_policy("float32"):
        reference = entry.make()
        reference(*args)
        start = [v.numpy() for v in reference.weights]
    for policy in MIXED:
        with keras_policy(policy):
            layer = entry.make()
            try:
                outputs = layer(*args)
            except Exception:
                found.add("crash")
                continue
            compute = layer.compute_dtype
            layer.set_weights(start)
            reference.set_weights(start)
            if _leaks(outputs, compute):
                found.add("float32-leak")
            expected, again = reference(*args), reference(*args)
            if _error(again, expected) == 0 and _error(layer(*args), expected) > 0.10:
                found.add("diverges")
            layer.set_weights(reference.get_weights())
            calls = functools.partial(layer, *args), functools.partial(reference, *args)
            if _nudge_lost(layer, reference, *calls):
                found.add("update-lost")
            layer.set_weights(start)
            reference.set_weights(start)
            if not _trains(reference):
                continue
            try:
                reference(*args, training=True)
            except Exception:
                continue  # no training branch that float32 can run on these inputs
            try:
                trained = layer(*args, training=True)
            except Exception:
                found.add("training-crash")
                continue
            if _leaks(trained, compute):
                found.add("float32-leak")
            layer.set_weights(start)
            reference.set_weights(start)
            for _ in range(50):
                layer(*args, training=True)
                reference(*args, training=True)
            for ours, theirs in zip(_state(layer), _state(reference), strict=True):
                if _error(ours.value, theirs.value) > 0.01:
                    found.add("drift")
            reference.set_weights(start)
    return tuple(sorted(found))


def _train_step(model, batch):
    """The first update a training step applies. Dynamic loss scaling skips the first steps
    whose scaled gradients overflow (nothing changes, the scale halves), as in fit."""
    data = tf.nest.map_structure(tf.convert_to_tensor, batch)
    before = [v.numpy() for v in model.trainable_weights]
    for _ in range(20):
        model.train_step(data)
        update = np.concatenate(
            [(v.numpy() - b).ravel() for v, b in zip(model.trainable_weights, before, strict=True)]
        )
        if update.any():
            break
    return update


def _calls(model, x):
    try:
        model(x)
    except Exception:
        return False
    return True


def model_truth(entry: gallery.PublicModel, policy: str) -> tuple[str, ...]:
    """What running shows: crash, training-crash, diverges (a layer's activations),
    update-lost (a call that rounds a small update of the weights away), and update-shrinks /
    update-grows / update-frozen (the first training step against float32's: its size, and
    whether a fifth of the weights float32 moves stay put)."""
    found = set()
    batch = entry.batch()
    x = batch[0] if isinstance(batch, tuple) else batch
    twin = entry.build("float32")
    try:
        model = entry.build(policy)
    except Exception:
        return ("crash",)
    twin.set_weights(model.get_weights())
    # a model whose train_step takes the batch apart may not take the batch's x itself
    if type(model).call is not keras.Model.call and _calls(twin, x):
        start = model.get_weights()
        twin.set_weights(start)
        if not _calls(model, x):
            found.add("crash")
        elif _nudge_lost(model, twin, lambda: model(x), lambda: twin(x)):
            found.add("update-lost")
        model.set_weights(start)
        twin.set_weights(start)
        inner = [layer for layer in model.layers if not isinstance(layer, keras.layers.InputLayer)]
        if hasattr(model, "inputs") and model.inputs:
            probe = keras.Model(model.inputs[0], [layer.output for layer in inner])
            probe32 = keras.Model(twin.inputs[0], [layer.output for layer in twin.layers[1:]])
            for ours, theirs in zip(probe(x), probe32(x), strict=True):
                if _error(ours, theirs) > 0.10:
                    found.add("diverges")
    try:
        update32 = _train_step(twin, batch)
    except Exception:
        return tuple(sorted(found))
    try:
        update = _train_step(model, batch)
    except Exception:
        found.add("training-crash")
        return tuple(sorted(found))
    ratio = np.linalg.norm(update) / np.linalg.norm(update32)
    if ratio < 0.5:
        found.add("update-shrinks")
    elif ratio > 2:
        found.add("update-grows")
    if _frozen(update, update32) > 0.2:
        found.add("update-frozen")
    return tuple(sorted(found))


def _confusion(rows):
    table = {"tp": [], "fp": [], "fn": [], "tn": []}
    for name, truth, report in rows:
        key = ("t" if bool(truth) == (not report.ok) else "f") + ("p" if not report.ok else "n")
        table[key].append(name)
    return table


def _print_table(title, table):
    print(f"\n{title}: true positives {len(table['tp'])}, false positives {len(table['fp'])}, "
          f"false negatives {len(table['fn'])}, true negatives {len(table['tn'])}")  # fmt: skip
    for key in ("fp", "fn"):
        for name in table[key]:
            print(f"  {key}: {name}")


@pytest.fixture(scope="module")
def layer_rows():
    rows = []
    for name, entry in gallery.LAYERS.items():
        keras.utils.set_random_seed(0)  # the same initial weights for the truth and the doctor
        truth = layer_truth(entry)
        keras.utils.set_random_seed(0)
        report = check_layer(entry.make, entry.inputs(), call_kwargs=entry.call_kwargs or None)
        rows.append((name, truth, report))
    return rows


@pytest.fixture(scope="module")
def model_rows():
    rows = []
    for name, entry in gallery.MODELS.items():
        for policy in MIXED:
            keras.utils.set_random_seed(0)
            truth = model_truth(entry, policy)
            keras.utils.set_random_seed(0)
            report = check_model(entry.build(policy), sample_batch=entry.batch(), hardware=GPU)
            rows.append((f"{name} [{policy}]", truth, report))
    return rows


def test_the_gallery_is_big_enough_and_says_where_each_entry_comes_from():
    assert len(gallery.LAYERS) >= 20 and len(gallery.MODELS) >= 4
    for entry in [*gallery.LAYERS.values(), *gallery.MODELS.values()]:
        repo, path, commit = entry.source
        assert repo in (gallery.KERAS_IO, gallery.KERAS_HUB) and path.endswith(".py")
        assert len(commit) == 40 and int(commit, 16) >= 0


def test_what_running_shows_is_what_the_gallery_records(layer_rows, model_rows):
    for name, truth, _ in layer_rows:
        assert truth == gallery.LAYERS[name].truth, name
    recorded = {
        f"{name} [{policy}]": entry.truth if policy == "mixed_float16" else entry.truth_bf16
        for name, entry in gallery.MODELS.items()
        for policy in MIXED
    }
    for name, truth, _ in model_rows:
        assert truth == recorded[name], name


def test_the_doctor_finds_every_real_problem_and_raises_no_false_alarm(layer_rows, model_rows):
    layers, models = _confusion(layer_rows), _confusion(model_rows)
    _print_table("layers", layers)
    _print_table("models", models)
    assert layers["fp"] == [] and layers["fn"] == []
    assert models["fp"] == [] and models["fn"] == []


def test_each_problem_gets_the_finding_that_explains_it(layer_rows, model_rows):
    for name, _, report in layer_rows:
        assert set(gallery.LAYERS[name].codes) <= set(report.codes), (name, str(report))
    for name, truth, report in model_rows:
        entry = gallery.MODELS[name.split(" [")[0]]
        if truth:
            assert set(entry.codes) <= set(report.codes), (name, str(report))
