"""turbometrics.sklearn: scikit-learn-signature functions, and patch() /
unpatch() routing scikit-learn's metrics, internal callers and scorers to
turbometrics, with scikit-learn's own function for inputs turbometrics does
not handle."""

from __future__ import annotations

import importlib.util
import inspect
import math
import os
import subprocess
import sys
import types
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("sklearn")

import sklearn
import sklearn.metrics
import sklearn.metrics._classification
import sklearn.metrics._plot.roc_curve
import sklearn.metrics._ranking
import sklearn.metrics._scorer
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score, cross_validate

import turbometrics
import turbometrics.sklearn as ts

# The functions of the installed scikit-learn (1.6 to 1.9, see .ci/sklearn_versions), and those of them that
# patch() replaces (all 21 on 1.9.1; fewer where a function is missing or its signature differs).
ORIGINALS: dict[str, Callable[..., Any]] = {
    name: getattr(sklearn.metrics, name) for name in ts.METRIC_NAMES if hasattr(sklearn.metrics, name)
}
with ts.patch():
    PATCHED = {name: ORIGINALS[name] for name in ts.patched() if name in ORIGINALS}
ON_1_9_1 = sklearn.__version__ == "1.9.1"
INTERNAL_MODULES = (
    sklearn.metrics._ranking,
    sklearn.metrics._classification,
    sklearn.metrics._scorer,
    sklearn.metrics._plot.roc_curve,
)


@pytest.fixture(autouse=True)
def _always_unpatched():
    ts.unpatch()
    yield
    ts.unpatch()


def _same_signature(a: inspect.Signature, b: inspect.Signature) -> bool:
    """Signature equality, with NaN defaults equal to each other."""

    def key(signature: inspect.Signature) -> list[tuple]:
        return [
            (p.name, p.kind, "nan" if isinstance(p.default, float) and math.isnan(p.default) else p.default)
            for p in signature.parameters.values()
        ]

    return key(a) == key(b)


def _count_calls(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Count calls of turbometrics.<name> (what the patch's wrappers call)."""
    calls = [0]
    function = getattr(turbometrics, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return function(*args, **kwargs)

    monkeypatch.setattr(turbometrics, name, counted)
    return calls


def test_importing_turbometrics_sklearn_does_not_import_scikit_learn():
    code = "import sys, turbometrics, turbometrics.sklearn; assert 'sklearn' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.skipif(not ON_1_9_1, reason="turbometrics.sklearn has scikit-learn 1.9.1's signatures")
@pytest.mark.parametrize("name", ts.METRIC_NAMES)
def test_functions_have_scikit_learn_signatures(name):
    assert _same_signature(inspect.signature(getattr(ts, name)), inspect.signature(ORIGINALS[name]))
    assert str(inspect.signature(getattr(ts, name))) == str(inspect.signature(ORIGINALS[name]))


def test_functions_compute_turbometrics_and_reject_n_threads():
    y, score = [0, 1, 1, 0], [0.1, 0.8, 0.4, 0.5]
    assert ts.roc_auc_score(y, score) == turbometrics.roc_auc_score(y, score)
    with pytest.raises(TypeError):
        ts.roc_auc_score(y, score, n_threads=1)


def test_patch_swaps_everywhere_and_unpatch_restores_identity():
    originals = {
        (module.__name__, name): getattr(module, name)
        for module in INTERNAL_MODULES
        for name in PATCHED
        if name in vars(module)
    }
    scorer = sklearn.metrics._scorer._SCORERS["roc_auc"]
    assert scorer._score_func is ORIGINALS["roc_auc_score"]
    ts.patch()
    assert ts.is_patched()
    wrappers = {}
    for name, original in PATCHED.items():
        wrapper = getattr(sklearn.metrics, name)
        assert wrapper is not original and wrapper.__wrapped__ is original and wrapper.__name__ == name
        assert _same_signature(inspect.signature(wrapper), inspect.signature(original))
        assert wrapper.__doc__ == original.__doc__
        wrappers[name] = wrapper
    for module_name, name in originals:
        assert getattr(sys.modules[module_name], name) is wrappers[name], (module_name, name)
    assert scorer._score_func is wrappers["roc_auc_score"]
    assert sklearn.metrics.get_scorer("roc_auc")._score_func is wrappers["roc_auc_score"]
    ts.patch()  # idempotent: the same wrappers, originals still known
    assert all(getattr(sklearn.metrics, name) is wrapper for name, wrapper in wrappers.items())
    ts.unpatch()
    assert not ts.is_patched()
    assert all(getattr(sklearn.metrics, name) is original for name, original in ORIGINALS.items())
    for (module_name, name), original in originals.items():
        assert getattr(sys.modules[module_name], name) is original
    assert scorer._score_func is ORIGINALS["roc_auc_score"]
    ts.unpatch()  # idempotent
    assert sklearn.metrics.roc_auc_score is ORIGINALS["roc_auc_score"]


def test_patch_as_context_manager():
    with ts.patch() as patched:
        assert isinstance(patched, ts.Patched)
        assert sklearn.metrics.f1_score is not ORIGINALS["f1_score"]
    assert sklearn.metrics.f1_score is ORIGINALS["f1_score"]


def test_user_modules_importing_the_name_are_patched_and_restored():
    user = types.ModuleType("turbometrics_test_user_module")
    user.roc_auc_score = ORIGINALS["roc_auc_score"]  # from sklearn.metrics import roc_auc_score
    user.kept_alias = ORIGINALS["roc_auc_score"]  # other names are left alone
    sys.modules[user.__name__] = user
    try:
        with ts.patch():
            assert user.roc_auc_score is sklearn.metrics.roc_auc_score is not ORIGINALS["roc_auc_score"]
            assert user.kept_alias is ORIGINALS["roc_auc_score"]
            late = types.ModuleType("turbometrics_test_late_module")  # imported while patched
            late.f1_score = sklearn.metrics.f1_score
            sys.modules[late.__name__] = late
        assert user.roc_auc_score is ORIGINALS["roc_auc_score"]
        assert late.f1_score is ORIGINALS["f1_score"]
    finally:
        sys.modules.pop("turbometrics_test_user_module", None)
        sys.modules.pop("turbometrics_test_late_module", None)


def test_internal_callers_reach_turbometrics(monkeypatch):
    y, score = np.array([0, 1, 1, 0, 1]), np.array([0.1, 0.8, 0.4, 0.5, 0.9])
    with ts.patch():
        roc_curve_calls = _count_calls(monkeypatch, "roc_curve")
        display = sklearn.metrics._plot.roc_curve.roc_curve(y, score)  # what RocCurveDisplay calls
        prfs_calls = _count_calls(monkeypatch, "precision_recall_fscore_support")
        sklearn.metrics._classification.precision_recall_fscore_support(y, score > 0.45)
    assert roc_curve_calls[0] == 1 and prfs_calls[0] == 1
    for got, expected in zip(display, ORIGINALS["roc_curve"](y, score)):
        np.testing.assert_array_equal(got, expected)


def test_estimator_score_method_reaches_turbometrics(monkeypatch):
    X, y = make_classification(n_samples=60, n_features=4, random_state=1)
    model = LogisticRegression().fit(X, y)
    reference = model.score(X, y)
    with ts.patch():
        calls = _count_calls(monkeypatch, "accuracy_score")
        assert model.score(X, y) == reference  # ClassifierMixin.score imports accuracy_score when called
    assert calls[0] == 1


BINARY_SCORINGS = [
    "roc_auc",
    "f1",
    "accuracy",
    "average_precision",
    "neg_log_loss",
    "precision",
    "recall",
    "balanced_accuracy",
    "jaccard",
    "matthews_corrcoef",
    "neg_brier_score",
    "f1_macro",
    "precision_weighted",
    "recall_micro",
    "jaccard_macro",
]


def _cross_validated(scoring: str, n_classes: int) -> np.ndarray:
    X, y = make_classification(n_samples=120, n_features=6, n_informative=4, n_classes=n_classes, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cross_val_score(LogisticRegression(max_iter=500), X, y, cv=3, scoring=scoring)


@pytest.mark.parametrize(
    "scoring", BINARY_SCORINGS + ["roc_auc_ovr", "roc_auc_ovo_weighted", "top_k_accuracy", "f1_weighted"]
)
def test_cross_val_score_scorers_run_turbometrics(monkeypatch, scoring):
    n_classes = 2 if scoring in BINARY_SCORINGS else 3
    reference = _cross_validated(scoring, n_classes)
    with ts.patch():
        name = sklearn.metrics.get_scorer(scoring)._score_func.__name__
        calls = _count_calls(monkeypatch, name)
        patched = _cross_validated(scoring, n_classes)
    assert calls[0] == (3 if name in PATCHED else 0)  # one per fold; none where the installed version's is kept
    np.testing.assert_allclose(patched, reference, rtol=1e-12, atol=0)


def test_unknown_keywords_and_n_threads_reach_scikit_learn(monkeypatch):
    with ts.patch():
        calls = _count_calls(monkeypatch, "roc_auc_score")
        for kwargs in ({"n_threads": 2}, {"no_such_option": 1}):
            with pytest.raises(TypeError) as patched_error:
                sklearn.metrics.roc_auc_score([0, 1], [0.2, 0.4], **kwargs)
            with pytest.raises(TypeError) as reference_error:
                ORIGINALS["roc_auc_score"]([0, 1], [0.2, 0.4], **kwargs)
            assert str(patched_error.value) == str(reference_error.value)
    assert calls[0] == 0


def test_sparse_input_falls_back(monkeypatch):
    scipy_sparse = pytest.importorskip("scipy.sparse")
    y_true = scipy_sparse.csr_matrix(np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]]))
    y_pred = scipy_sparse.csr_matrix(np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0]]))
    with ts.patch():
        calls = _count_calls(monkeypatch, "f1_score")
        got = sklearn.metrics.f1_score(y_true, y_pred, average="micro")
        dense = sklearn.metrics.f1_score(y_true.toarray(), y_pred.toarray(), average="micro")
    assert calls[0] == 1  # the dense call only
    assert got == ORIGINALS["f1_score"](y_true, y_pred, average="micro") == dense


@pytest.mark.filterwarnings("ignore:the matrix subclass is not the recommended way:PendingDeprecationWarning")
@pytest.mark.parametrize(
    "make", [np.matrix, lambda values: np.ma.array(values, mask=[0, 0, 1, 0, 1])], ids=["matrix", "masked"]
)
def test_matrix_and_masked_input_fall_back(monkeypatch, make):
    y_true, y_score = make([0, 1, 1, 0, 1]), make([0.1, 0.8, 0.4, 0.5, 0.9])

    def outcome(function: Callable[..., Any], *args: Any) -> Any:
        try:
            return function(*args)
        except Exception as error:  # noqa: BLE001 - the reference's exception is the expected outcome
            return type(error), str(error)

    with ts.patch():
        calls = _count_calls(monkeypatch, "brier_score_loss")
        got = outcome(sklearn.metrics.brier_score_loss, y_true, y_score)
    assert calls[0] == 0
    assert got == outcome(ORIGINALS["brier_score_loss"], y_true, y_score)


_DISPATCH_SCRIPT = """
import importlib, sys
import numpy as np, sklearn, sklearn.metrics, turbometrics, turbometrics.sklearn as ts
calls = []
function = turbometrics.accuracy_score
turbometrics.accuracy_score = lambda *a, **k: calls.append(1) or function(*a, **k)
y_true, y_pred = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1]
original = sklearn.metrics.accuracy_score
for module in sys.argv[1:]:
    xp = importlib.import_module(module)
    with ts.patch(), sklearn.config_context(array_api_dispatch=True):
        got = sklearn.metrics.accuracy_score(xp.asarray(y_true), xp.asarray(y_pred))
        expected = original(xp.asarray(y_true), xp.asarray(y_pred))
        assert not calls, f"{module} arrays go to scikit-learn's function"
        assert type(got) is type(expected) and float(got) == float(expected), module
        sklearn.metrics.accuracy_score(np.asarray(y_true), np.asarray(y_pred))
        assert len(calls) == 1, "NumPy arrays under dispatch run turbometrics"
    calls.clear()
"""


def test_foreign_arrays_fall_back_under_array_api_dispatch():
    modules = [name for name in ("array_api_strict", "torch") if importlib.util.find_spec(name) is not None]
    if not modules:
        pytest.skip("neither array_api_strict nor torch is installed")
    env = dict(os.environ, SCIPY_ARRAY_API="1")  # scikit-learn's dispatch needs it before scipy loads
    subprocess.run([sys.executable, "-c", _DISPATCH_SCRIPT, *modules], check=True, env=env)


def test_torch_tensors_without_dispatch_run_turbometrics(monkeypatch):
    torch = pytest.importorskip("torch")
    y_true = torch.tensor([0, 1, 1, 0, 1])
    y_score = torch.tensor([0.1, 0.8, 0.4, 0.5, 0.9], dtype=torch.float64, requires_grad=True)
    reference = ORIGINALS["roc_auc_score"](y_true.numpy(), y_score.detach().numpy())
    with ts.patch():
        calls = _count_calls(monkeypatch, "roc_auc_score")
        assert sklearn.metrics.roc_auc_score(y_true, y_score) == pytest.approx(reference, rel=1e-12, abs=0)
    assert calls[0] == 1


def test_warnings_and_errors_match_scikit_learn_classes_while_patched():
    from sklearn.exceptions import UndefinedMetricWarning
    from sklearn.utils._param_validation import InvalidParameterError

    with ts.patch():
        with pytest.warns(UndefinedMetricWarning) as record:
            sklearn.metrics.roc_curve([1, 1], [0.2, 0.4])
        assert issubclass(record[0].category, turbometrics.UndefinedMetricWarning)
        with pytest.raises(InvalidParameterError) as error:
            sklearn.metrics.roc_auc_score([0, 1], [0.2, 0.4], max_fpr=2)
        assert isinstance(error.value, turbometrics.InvalidParameterError)


@pytest.mark.parametrize("metric", ["f1_score", "roc_auc_score", "accuracy_score"])
def test_metric_functions_passed_as_scorers_are_refused_as_by_scikit_learn(metric):
    X, y = make_classification(n_samples=60, n_features=4, random_state=1)

    def refusal(function: Callable[..., Any]) -> str:
        with pytest.raises(ValueError, match="looks like it is a metric function rather than a scorer") as error:
            sklearn.metrics.check_scoring(LogisticRegression(), scoring=function)
        with pytest.raises(ValueError, match="looks like it is a metric function rather than a scorer"):
            cross_val_score(LogisticRegression(), X, y, cv=2, scoring=function)
        with pytest.raises(ValueError, match="looks like it is a metric function rather than a scorer"):
            cross_validate(LogisticRegression(), X, y, cv=2, scoring={"m": function})
        return str(error.value).split(" at 0x")[0]

    import sklearn.model_selection._validation as validation

    original_check = sklearn.metrics.check_scoring
    expected = refusal(ORIGINALS[metric])
    with ts.patch():
        assert validation.check_scoring is sklearn.metrics.check_scoring is not original_check
        assert refusal(getattr(sklearn.metrics, metric)) == expected
        scorer = sklearn.metrics.make_scorer(sklearn.metrics.accuracy_score)
        assert sklearn.metrics.check_scoring(LogisticRegression(), scoring=scorer) is scorer
        assert (
            sklearn.metrics.check_scoring(LogisticRegression(), scoring="roc_auc")._score_func
            is sklearn.metrics.roc_auc_score
        )
    assert sklearn.metrics.check_scoring is validation.check_scoring is original_check  # unpatched again


def test_patched_and_skipped_name_the_installed_versions_functions():
    assert ts.patched() == ()
    with ts.patch():
        assert set(ts.patched()) == set(PATCHED) | {"check_scoring"}
        assert set(ts.skipped()) == set(ts.METRIC_NAMES) - set(PATCHED)
        if ON_1_9_1:
            assert ts.patched() == (*ts.METRIC_NAMES, "check_scoring") and ts.skipped() == {}
        for name, reason in ts.skipped().items():
            assert reason in ("not in this scikit-learn version", "its signature differs from scikit-learn 1.9.1's")
            assert getattr(sklearn.metrics, name, None) is ORIGINALS.get(name)
    assert ts.patched() == ()


def test_pickled_scorers_run_turbometrics_in_other_processes():
    """What joblib sends to the workers of cross_val_score(..., n_jobs=2)."""
    import pickle

    cloudpickle = pytest.importorskip("cloudpickle")  # what joblib's loky workers unpickle

    with ts.patch():
        payload = cloudpickle.dumps(sklearn.metrics.get_scorer("roc_auc"))
        assert pickle.loads(payload)._score_func is sklearn.metrics.roc_auc_score
        assert (
            pickle.loads(pickle.dumps(sklearn.metrics.make_scorer(sklearn.metrics.f1_score)))._score_func
            is sklearn.metrics.f1_score
        )
    worker = (
        "import pickle, sys\n"
        "scorer = pickle.loads(sys.stdin.buffer.read())\n"
        "from turbometrics.sklearn._wrappers import calls\n"
        "assert scorer._score_func([0, 1, 1], [0.2, 0.9, 0.4]) == 1.0\n"
        "assert calls == {'turbometrics': 1, 'scikit-learn': 0}, calls\n"
    )
    subprocess.run([sys.executable, "-c", worker], input=payload, check=True)


def test_patch_repr_says_what_is_patched():
    """The object patch() returns was shown as ``<...Patched object at 0x...>``."""
    patched = ts.patch()
    try:
        # On older scikit-learn (.ci/sklearn_versions) some functions are skipped, and the repr says how many.
        skipped = len(ts.skipped())
        left = f", {skipped} left as scikit-learn's (see skipped())" if skipped else ""
        assert repr(patched) == (
            f"<turbometrics.sklearn.patch(): {len(ts.patched())} scikit-learn functions run turbometrics' "
            f"kernels{left}; unpatch() or leaving a with block undoes it>"
        )
    finally:
        ts.unpatch()
    assert repr(patched) == "<turbometrics.sklearn.patch(): undone (scikit-learn's own functions)>"


def test_patched_roc_auc_with_negative_weights_raises_as_scikit_learn():
    # Negative weights that make the false positive rate decrease: scikit-learn's auc()
    # raises; the patched function returned -0.5 (issue 23).
    y, score, w = np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.7, 0.1]), np.array([-1.0, -1.0, 2.0, 3.0])
    with pytest.raises(ValueError) as original:
        ORIGINALS["roc_auc_score"](y, score, sample_weight=w)
    with ts.patch(), pytest.raises(ValueError) as patched:
        sklearn.metrics.roc_auc_score(y, score, sample_weight=w)
    assert str(patched.value) == str(original.value)
