"""``turbometrics.torch.functional`` (the exact on-device ranking program) on
CPU tensors against scikit-learn 1.9.1 with ``==`` on the bits and dtypes
(ties, -0.0 and 0.0, float32, float64 and integer scores, bool, integer and
float labels, integer and fractional weights, one class, n from 1 to 1e6),
NumPy's pairwise summation order against ``np.sum``, the host fallbacks,
the errors, and the routing of device tensors by the public functions."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

torch = pytest.importorskip("torch")
sklearn_metrics = pytest.importorskip("sklearn.metrics")

import turbometrics as tm  # noqa: E402
from turbometrics._common import device_routes  # noqa: E402
from turbometrics.torch import _program_inputs, functional  # noqa: E402
from turbometrics.torch._program_sum import pairwise_sum  # noqa: E402

pytestmark = pytest.mark.bits

NAMES = ("roc_auc_score", "average_precision_score", "roc_curve", "precision_recall_curve")
POOL = [-1.5, -0.0, 0.0, 0.1, 0.25, 0.3, 1.0 / 3.0, 0.5, 0.7, 2.0**-30, 7.0]


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """One intra-op thread: the program's many small operations, not spin
    waits of a second thread on a shared 2-core machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def same_bits(got, expected) -> bool:
    got = got.numpy() if isinstance(got, torch.Tensor) else np.asarray(got)
    expected = np.asarray(expected)
    return got.dtype == expected.dtype and got.shape == expected.shape and got.tobytes() == expected.tobytes()


def outcome(function, *args, **kwargs):
    """(result or exception type and message, the warnings' categories and messages)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - compared by type and message
            result = (type(error).__name__, str(error))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def assert_like_sklearn(name, y_true, y_score, sample_weight=None, **kwargs):
    tensors = [
        None if a is None else torch.from_numpy(np.ascontiguousarray(a)) for a in (y_true, y_score, sample_weight)
    ]
    expected, expected_warnings = outcome(
        getattr(sklearn_metrics, name), y_true, y_score, sample_weight=sample_weight, **kwargs
    )
    got, got_warnings = outcome(getattr(functional, name), tensors[0], tensors[1], sample_weight=tensors[2], **kwargs)
    assert got_warnings == expected_warnings
    if isinstance(expected, tuple) and isinstance(expected[0], str):
        assert got == expected
    elif isinstance(expected, tuple):
        assert all(isinstance(part, torch.Tensor) for part in got)
        assert [same_bits(g, e) for g, e in zip(got, expected)] == [True] * 3, (got, expected)
    else:
        assert isinstance(got, torch.Tensor) and got.ndim == 0
        assert same_bits(got, np.float64(expected)), (got, expected)


@st.composite
def binary_input(draw, max_size=40):
    n = draw(st.integers(1, max_size))
    score_dtype = draw(st.sampled_from([np.float64, np.float32, np.int64, np.int32, np.uint8]))
    if np.dtype(score_dtype).kind == "f":
        pool = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=6)) if draw(st.booleans()) else POOL
        scores = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)), dtype=score_dtype)
    else:
        scores = np.array(draw(st.lists(st.integers(0, 9), min_size=n, max_size=n)), dtype=score_dtype)
    labels = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    kind = draw(st.sampled_from(["int", "bool", "signed", "float"]))
    labels = {"int": labels, "bool": labels.astype(bool), "signed": 2 * labels - 1, "float": labels.astype(np.float32)}[
        kind
    ]
    weights = draw(st.sampled_from([None, "int", "int_as_float", "fraction"]))
    if weights is not None:
        drawn = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
        weights = {"int": drawn, "int_as_float": drawn.astype(np.float64), "fraction": drawn / 3.0}[weights]
    return labels, scores, weights


@settings(max_examples=60)
@given(binary_input(), st.sampled_from(NAMES))
def test_functions_have_sklearns_bits(data, name):
    assert_like_sklearn(name, *data)


@settings(max_examples=25)
@given(binary_input(max_size=300), st.booleans())
def test_curves_drop_intermediate_as_sklearn(data, drop):
    assert_like_sklearn("roc_curve", *data, drop_intermediate=drop)
    assert_like_sklearn("precision_recall_curve", *data, drop_intermediate=drop)


@settings(max_examples=20)
@given(binary_input(max_size=20), st.sampled_from([0, 1, 2, True]))
def test_pos_label_as_sklearn(data, pos_label):
    labels, scores, weights = data
    assert_like_sklearn("average_precision_score", labels, scores, weights, pos_label=pos_label)
    assert_like_sklearn("precision_recall_curve", labels, scores, weights, pos_label=pos_label)


def test_computes_on_the_device_where_it_can(monkeypatch):
    """Binary input with no or integer weights never takes the host copy;
    fractional weights, one class and multiclass input do."""
    hosted = []
    original = functional._on_host
    monkeypatch.setattr(functional, "_on_host", lambda f, *a, **k: (hosted.append(f.__name__), original(f, *a, **k))[1])
    rng = np.random.default_rng(0)
    labels = torch.from_numpy(rng.integers(0, 2, 500))
    scores = torch.from_numpy(rng.random(500)).to(torch.float32)
    for weights in (None, torch.from_numpy(rng.integers(0, 5, 500)), torch.ones(500, dtype=torch.float64)):
        for name in NAMES:
            getattr(functional, name)(labels, scores, sample_weight=weights)
    assert hosted == []
    functional.roc_auc_score(labels, scores, sample_weight=torch.full((500,), 0.5))
    with pytest.warns(tm.UndefinedMetricWarning):
        functional.roc_auc_score(torch.zeros(3), torch.rand(3))
    functional.roc_auc_score(torch.tensor([0, 1, 2]), torch.eye(3), multi_class="ovr")
    assert hosted == ["roc_auc_score"] * 3


def test_large_input_has_sklearns_bits():
    rng = np.random.default_rng(1)
    n = 300_007
    labels = rng.random(n) < 0.3
    scores = rng.standard_normal(n).astype(np.float32)
    scores[: n // 3] = np.round(scores[: n // 3], 2)  # ties
    assert_like_sklearn("roc_auc_score", labels, scores)
    assert_like_sklearn("average_precision_score", labels, scores, rng.integers(0, 3, n))


@pytest.mark.slow_bits
def test_a_million_samples_have_sklearns_bits():
    rng = np.random.default_rng(2)
    n = 1_000_000
    labels = rng.integers(0, 2, n)
    scores = rng.standard_normal(n)
    for name in NAMES:
        assert_like_sklearn(name, labels, scores)


def adversarial(n: int, rng: np.random.Generator) -> np.ndarray:
    """Mixed magnitudes with cancellations: huge values and their negations
    among small ones, and runs of -0.0."""
    values = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
    flip = rng.random(n) < 0.3
    values[flip] = -np.roll(values, 1)[flip]
    values[rng.random(n) < 0.05] = -0.0
    return values


def test_pairwise_sum_is_numpys_for_every_small_n():
    rng = np.random.default_rng(3)
    for n in [*range(0, 700), *range(700, 3000, 37)]:
        values = adversarial(n, rng)
        assert same_bits(pairwise_sum(torch.from_numpy(values)), np.sum(values)), n


@pytest.mark.parametrize("n", [4097, 65_536, 100_003, 1_234_567])
def test_pairwise_sum_is_numpys_for_large_n(n):
    values = adversarial(n, np.random.default_rng(n))
    assert same_bits(pairwise_sum(torch.from_numpy(values)), np.sum(values))


@given(st.lists(st.floats(-1e300, 1e300), max_size=300))  # no overflow: the program never sums infinities
def test_pairwise_sum_of_any_floats_is_numpys(values):
    array = np.array(values, dtype=np.float64)
    assert same_bits(pairwise_sum(torch.from_numpy(array)), np.sum(array))


def test_signed_zeros_sum_as_numpy():
    for n in (1, 7, 8, 9, 129, 300):
        zeros = np.full(n, -0.0)
        assert same_bits(pairwise_sum(torch.from_numpy(zeros)), np.sum(zeros))


def test_errors_of_bad_input():
    scores = torch.tensor([0.1, 0.4, 0.35, 0.8])
    labels = torch.tensor([0, 0, 1, 1])
    with pytest.raises(ValueError, match="must be on one device; got tensors on cpu, meta"):
        functional.roc_auc_score(labels, scores.to("meta"))
    for dtype in (torch.float16, torch.bfloat16):
        with pytest.raises(TypeError, match=f"y_score of dtype {dtype} is not supported"):
            functional.average_precision_score(labels, scores.to(dtype))
    for name in NAMES:
        nan = torch.tensor([0.1, float("nan"), 0.3, 0.4])
        assert outcome(getattr(functional, name), labels, nan) == outcome(getattr(tm, name), labels, nan)
        empty = torch.zeros(0)
        assert outcome(getattr(functional, name), empty, empty) == outcome(getattr(tm, name), empty, empty)
    with pytest.raises(tm.InvalidParameterError, match="'average' parameter of roc_auc_score"):
        functional.roc_auc_score(labels, scores, average="bad")
    with pytest.raises(tm.InvalidParameterError, match="'drop_intermediate' parameter of roc_curve"):
        functional.roc_curve(labels, scores, drop_intermediate=1)


def test_tensors_that_require_grad_are_read_detached():
    scores = torch.tensor([0.1, 0.4, 0.35, 0.8], requires_grad=True)
    result = functional.roc_auc_score(torch.tensor([0, 0, 1, 1]), scores)
    assert not result.requires_grad and float(result) == 0.75


def test_the_program_input_is_none_outside_its_domain():
    labels, scores = torch.tensor([0, 1, 2]), torch.tensor([0.1, 0.2, 0.3])
    assert _program_inputs.device_input(labels, scores, None, None, "greater") is None
    assert _program_inputs.device_input(torch.tensor([0.5, 1.5]), scores[:2], None, None, "greater") is None
    assert (
        _program_inputs.device_input(torch.tensor([0, 1]), scores[:2], torch.tensor([1, -1]), None, "greater") is None
    )
    assert _program_inputs.device_input(torch.tensor([2, 5]), scores[:2], None, None, "consistent") is None
    assert _program_inputs.device_input(torch.tensor([2, 5]), scores[:2], None, 5, "consistent") is not None


def test_public_functions_route_device_tensors_to_the_program():
    meta = torch.empty(3, device="meta")
    for name in NAMES:
        assert device_routes.device_program(name, (meta, meta), {}) is getattr(functional, name)
        assert device_routes.device_program(name, (np.zeros(3), np.zeros(3)), {"sample_weight": meta}) is not None
        assert device_routes.device_program(name, (torch.zeros(3), torch.zeros(3)), {}) is None
        assert device_routes.device_program(name, ([0, 1], np.zeros(2)), {}) is None


def test_routed_calls_return_what_host_calls_return(monkeypatch):
    """With CPU tensors taken for device tensors, the public functions run
    the program and return a float and NumPy arrays, equal to scikit-learn's."""
    monkeypatch.setattr(device_routes, "on_accelerator", lambda value: isinstance(value, torch.Tensor))
    labels, scores = np.array([0, 1, 1, 0, 1]), np.array([0.2, 0.8, 0.2, -0.0, 0.0], dtype=np.float32)
    tensors = torch.from_numpy(labels), torch.from_numpy(scores)
    for name in NAMES:
        got, expected = getattr(tm, name)(*tensors), getattr(sklearn_metrics, name)(labels, scores)
        if isinstance(expected, tuple):
            assert all(isinstance(part, np.ndarray) and same_bits(part, e) for part, e in zip(got, expected))
        else:
            assert type(got) is float and same_bits(np.float64(got), np.float64(expected))


def test_other_functions_copy_device_tensors_to_the_host():
    meta = torch.zeros(3, device="meta")
    with pytest.raises(NotImplementedError, match="meta"):  # the copy to the host was attempted
        tm.accuracy_score(meta, meta)


def test_host_calls_import_neither_torch_nor_the_program():
    code = (
        "import sys, turbometrics as tm\n"
        "tm.roc_auc_score([0, 1, 1], [0.1, 0.4, 0.2]); tm.roc_curve([0, 1], [0.3, 0.5])\n"
        "print(sorted(m for m in ('torch', 'turbometrics.torch.functional') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
