"""Fuzzing the constructors of the four mergeable states (issue 17).

Every way to build a state from arrays (``from_table``, unpickling,
``from_bytes``) is fed random arrays, valid states with one field corrupted,
and truncated or altered bytes. Each either raises ValueError (or TypeError)
or gives a state whose metrics are those of the data the state describes:
never a crash, never a garbage number. The C++ kernels that read state
arrays are also called directly with bad arrays. ``.ci/sanitize`` runs this
file under ASan and UBSan.
"""

import contextlib
import io
import pickle
import warnings
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from turbometrics import _core
from turbometrics._common.serial import dump_state
from turbometrics.states import BinnedValue

FUZZ = settings(max_examples=60, deadline=None)
REFUSED = (ValueError, TypeError)


# -- valid states ------------------------------------------------------------------------------
@st.composite
def ranking_states(draw):
    n = draw(st.integers(0, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    scores = np.array(draw(st.lists(st.integers(0, 8), min_size=n, max_size=n)), dtype=np.float64) / 8
    weights = None
    if draw(st.booleans()):
        weights = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), dtype=np.float64)
    if draw(st.booleans()):
        scores = scores.astype(np.float32)
    return tm.RankingState.from_arrays(y, scores, sample_weight=weights)


@st.composite
def binned_states(draw):
    n = draw(st.integers(1, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    scores = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    weights = None if draw(st.booleans()) else np.array(draw(st.lists(st.floats(0, 5), min_size=n, max_size=n)))
    kwargs = draw(st.sampled_from([dict(n_bins=8), dict(n_bins=16, strategy="uniform", range=(0.0, 1.0))]))
    return tm.BinnedRankingState.from_arrays(y, scores, sample_weight=weights, **kwargs)


@st.composite
def confusion_states(draw):
    n = draw(st.integers(1, 25))
    if draw(st.booleans()):
        width = draw(st.integers(1, 4))
        y = np.array(draw(st.lists(st.integers(0, 1), min_size=n * width, max_size=n * width))).reshape(n, width)
        p = np.array(draw(st.lists(st.integers(0, 1), min_size=n * width, max_size=n * width))).reshape(n, width)
    else:
        labels = draw(st.sampled_from([np.array([0, 1, 2]), np.array(["a", "b"]), np.array([-1, 1])]))
        y = labels[np.array(draw(st.lists(st.integers(0, len(labels) - 1), min_size=n, max_size=n)))]
        p = labels[np.array(draw(st.lists(st.integers(0, len(labels) - 1), min_size=n, max_size=n)))]
    weights = (
        None
        if draw(st.booleans())
        else np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=np.float64)
    )
    return tm.ConfusionState.from_arrays(y, p, sample_weight=weights)


@st.composite
def calibration_states(draw):
    n = draw(st.integers(1, 25))
    weights = None if draw(st.booleans()) else np.array(draw(st.lists(st.floats(0, 3), min_size=n, max_size=n)))
    if draw(st.booleans()):
        y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
        prob = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    else:
        y = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
        prob = np.array(draw(st.lists(st.floats(0.01, 1), min_size=3 * n, max_size=3 * n))).reshape(n, 3)
        prob /= prob.sum(axis=1, keepdims=True)
    return tm.CalibrationState.from_arrays(y, prob, n_bins=draw(st.integers(1, 6)), sample_weight=weights)


any_state = st.one_of(ranking_states(), binned_states(), confusion_states(), calibration_states())


# -- what an accepted state must give ----------------------------------------------------------
def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*args, **kwargs)
        # IndexError: scikit-learn's for empty ranking data; ZeroDivisionError: np.average's
        # (scikit-learn's too) for weights that sum to zero, as signed weights can
        except (ValueError, IndexError, ZeroDivisionError) as error:
            return (type(error).__name__, str(error))


def _assert_same_outcome(got, expected):
    """Both the same error (type and message: negative weights can make both
    refuse), or both numbers equal to rounding."""
    if isinstance(got, tuple) or isinstance(expected, tuple):
        assert got == expected
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-9)


def _ranking_data(state):
    """Samples with the state's table, one per row and class, weighing the
    row's count (or weight) of the class. Counts are never expanded into
    rows: a drawn table may count billions of samples (a sample of weight 0
    changes nothing and is left out)."""
    scores = np.repeat(state.scores, 2)
    y = np.tile([1, 0], len(state))
    weight = np.column_stack([state.positive, state.negative]).ravel()
    keep = weight != 0
    return y[keep], scores[keep], weight[keep].astype(np.float64)


def check_metrics(state):
    """The state's metrics equal the in-memory functions on the data it
    describes (ranking, confusion), or are numbers in range (binned,
    calibration)."""
    if isinstance(state, tm.RankingState):
        y, scores, weight = _ranking_data(state)
        if y.size == 0 or not (np.any(y == 1) and np.any(y == 0)):
            _quiet(state.roc_auc)
            _quiet(state.average_precision)
            return
        _assert_same_outcome(_quiet(state.roc_auc), _quiet(tm.roc_auc_score, y, scores, sample_weight=weight))
        _assert_same_outcome(
            _quiet(state.average_precision), _quiet(tm.average_precision_score, y, scores, sample_weight=weight)
        )
    elif isinstance(state, tm.BinnedRankingState):
        for metric in (state.roc_auc, state.average_precision):
            value = _quiet(metric)
            if isinstance(value, BinnedValue) and not np.isnan(value.value):
                assert -1e-9 <= value.value <= 1 + 1e-9 and value.max_error >= 0
    elif isinstance(state, tm.ConfusionState):
        if state.n_samples == 0:
            return
        if state._layout == "labels":
            labels = state._labels
            true, pred = np.nonzero(state._table)
            counts = state._table[true, pred]
            # one sample per cell weighing its count: never the counts expanded into rows
            y, p, w = labels[true], labels[pred], counts.astype(np.float64)
            if y.size:
                assert _quiet(state.accuracy) == pytest.approx(_quiet(tm.accuracy_score, y, p, sample_weight=w))
        weights = [state._table, state._sums] + ([state._groups.weight] if state._groups.weight is not None else [])
        if all(np.all(w >= 0) for w in weights):  # negative weights are allowed, and give such numbers
            for metric in (state.accuracy, lambda: state.f1(average="macro")):
                value = _quiet(metric)
                assert isinstance(value, tuple) or -1e-9 <= value <= 1 + 1e-9
    else:
        for metric in (state.ece, state.mce, state.rmsce):
            value = _quiet(metric)
            assert isinstance(value, tuple) or 0 <= value <= 1


def _restored(kind, parts):
    """The state of ``parts`` through unpickling and through from_bytes
    (where the parts can be written): the same outcome both ways."""
    outcomes = []
    state = kind.__new__(kind)
    try:
        state.__setstate__({"version": 1, **parts})
        outcomes.append(state)
    except REFUSED:
        outcomes.append(None)
    arrays = {k: v for k, v in parts.items() if isinstance(v, np.ndarray)}
    fields = {k: v for k, v in parts.items() if k not in arrays}
    try:
        data = dump_state(kind.__name__, 1, fields, arrays)
    except (TypeError, ValueError):
        return outcomes[0]
    try:
        outcomes.append(kind.from_bytes(data))
    except REFUSED:
        outcomes.append(None)
    assert (outcomes[0] is None) == (outcomes[1] is None)
    return outcomes[0]


# -- corruptions -------------------------------------------------------------------------------
def _corruptions(value):
    """Altered versions of one part."""
    out = [None, "x", -1, 2**63, 1.5, float("nan"), [1, 2]]
    if isinstance(value, np.ndarray):
        out += [
            value[:-1],
            np.concatenate([value, value[-1:]]) if value.size else np.ones(1, value.dtype),
            value[::-1].copy(),
            # string labels have no float or int cast: bytes instead
            *(
                (value.astype(np.float32), value.astype(np.int32))
                if value.dtype.kind in "biuf"
                else (value.astype("S"),)
            ),
            value.astype(object),
            value.reshape(-1),
            np.broadcast_to(value, (2,) + value.shape).copy(),
        ]
        if value.dtype.kind in "iuf" and value.size:
            for special in (-1, 2**62, 2**63 - 1, np.nan, np.inf, 1e308, 5e-324):
                changed = (
                    value.astype(np.float64) if isinstance(special, float) and value.dtype.kind != "f" else value.copy()
                )
                try:
                    with np.errstate(over="ignore", invalid="ignore"):
                        changed.flat[0] = special
                except (OverflowError, ValueError):
                    continue
                out.append(changed)
            if value.shape[0] > 1:
                duplicated = value.copy()
                duplicated[1] = duplicated[0]
                out.append(duplicated)
    elif isinstance(value, bool):
        out.append(not value)
    elif isinstance(value, int):
        out += [value + 1, value - 1, -value - 1, 2**62]
    return out


@FUZZ
@given(state=any_state, data=st.data())
def test_a_corrupted_field_is_refused_or_consistent(state, data):
    parts = state._parts()
    name = data.draw(st.sampled_from(sorted(parts)))
    corrupted = data.draw(st.sampled_from(_corruptions(parts[name])))
    restored = _restored(type(state), {**parts, name: corrupted})
    if restored is not None:
        check_metrics(restored)


@FUZZ
@given(state=any_state)
def test_valid_states_round_trip(state):
    for again in (pickle.loads(pickle.dumps(state)), type(state).from_bytes(state.to_bytes())):
        check_metrics(again)
        assert again.to_bytes() == state.to_bytes()


@FUZZ
@given(state=any_state, data=st.data())
def test_truncated_or_flipped_bytes(state, data):
    blob = bytearray(state.to_bytes())
    if data.draw(st.booleans()):
        blob = blob[: data.draw(st.integers(0, len(blob) - 1))]
    else:
        position = data.draw(st.integers(0, len(blob) - 1))
        blob[position] ^= data.draw(st.integers(1, 255))
    try:
        restored = type(state).from_bytes(bytes(blob))
    except REFUSED:
        return
    check_metrics(restored)


_ARRAYS = st.one_of(
    st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=6).map(np.array),
    st.lists(st.integers(-(2**63), 2**63 - 1), max_size=6).map(lambda v: np.array(v, dtype=np.int64)),
    st.lists(st.integers(0, 5), max_size=6).map(lambda v: np.array(v, dtype=np.int64)),
    st.lists(st.booleans(), max_size=6).map(np.array),
    st.lists(st.text(max_size=2), max_size=6).map(np.array),
    st.lists(st.integers(0, 2**64 - 1), max_size=6).map(lambda v: np.array(v, dtype=np.uint64)),
)


@FUZZ
@given(scores=_ARRAYS, positive=_ARRAYS, negative=_ARRAYS)
def test_from_table_with_random_arrays(scores, positive, negative):
    try:
        state = tm.RankingState.from_table(scores, positive, negative)
    except REFUSED:
        return
    check_metrics(state)


@FUZZ
@given(state=any_state, data=st.data())
def test_random_parts(state, data):
    parts = {
        name: data.draw(st.one_of(_ARRAYS, st.none(), st.integers(-3, 3), st.booleans(), st.text(max_size=3)))
        for name in state._parts()
    }
    restored = _restored(type(state), parts)
    if restored is not None:
        check_metrics(restored)


# -- the C++ kernels, called directly ----------------------------------------------------------
_KERNEL_ARRAYS = st.one_of(
    st.lists(st.floats(allow_nan=True), max_size=40).map(np.array),
    st.lists(st.integers(-(2**63), 2**63 - 1), max_size=40).map(lambda v: np.array(v, dtype=np.int64)),
    st.lists(st.integers(-2, 5), max_size=40).map(lambda v: np.array(v, dtype=np.int64)),
    st.lists(st.integers(0, 5), max_size=40).map(lambda v: np.array(v, dtype=np.int32)),
)


@st.composite
def _well_formed_tables(draw):
    """A table as a RankingState holds it: distinct finite scores, descending, and int64 counts."""
    scores = np.array(draw(st.lists(st.floats(-4, 4).map(lambda x: round(x, 1)), unique=True, max_size=20)))
    scores = np.sort(scores.astype(np.float64))[::-1].copy()
    counts = st.lists(st.integers(0, 5), min_size=len(scores), max_size=len(scores))
    return scores, np.array(draw(counts), dtype=np.int64), np.array(draw(counts), dtype=np.int64)


_TABLES = st.one_of(st.tuples(_KERNEL_ARRAYS, _KERNEL_ARRAYS, _KERNEL_ARRAYS), _well_formed_tables())


def _one_table(scores, positive, negative):
    """Whether three arrays make one table as the kernels read it: one length, and weight columns both int64
    counts or both float64 weights (any numeric score dtype is read)."""
    return len(scores) == len(positive) == len(negative) and (
        positive.dtype == negative.dtype and positive.dtype in (np.int64, np.float64)
    )


def _well_formed(scores):
    """Whether a table's scores are finite, distinct and descending (a RankingState's)."""
    return bool(np.all(np.isfinite(scores)) and np.all(scores[:-1] > scores[1:]))


def _total(column):
    return sum(int(value) for value in column)


def _check_count_table(table, threads):
    """A count table's totals come back exact, its AUC and AP lie in [0, 1], and a well-formed table gives the
    in-memory functions' values on the data it describes; counts that are negative or total 2**62 are refused."""
    scores, positive, negative = table
    total_positive, total_negative = _total(positive), _total(negative)
    if np.any(positive < 0) or np.any(negative < 0) or total_positive + total_negative >= 2**62:
        with pytest.raises(ValueError, match=r"non-negative counts totalling less than 2\*\*62"):
            _core.ranking_tables.roc_auc(*table, None, threads)
        return
    auc, p, n = _core.ranking_tables.roc_auc(*table, None, threads)
    ap, p_again, n_again = _core.ranking_tables.average_precision(*table, threads)
    assert (p, n) == (p_again, n_again) == (total_positive, total_negative)
    assert np.isnan(auc) == (p == 0 or n == 0)
    assert np.isnan(auc) or 0 <= auc <= 1
    # scikit-learn's sum of recall steps can pass 1 by rounding (all-positive data: 1.0000000000000002)
    assert np.isnan(ap) or 0 <= ap <= 1 + 1e-12
    if p and n and _well_formed(scores):
        y = np.tile([1, 0], len(scores))
        weight = np.column_stack([positive, negative]).ravel()
        keep = weight != 0
        data = (y[keep], np.repeat(scores, 2)[keep])
        assert auc == pytest.approx(tm.roc_auc_score(*data, sample_weight=weight[keep].astype(np.float64)), rel=1e-12)
        assert ap == pytest.approx(
            tm.average_precision_score(*data, sample_weight=weight[keep].astype(np.float64)), rel=1e-12
        )


def _check_merge(a, b, threads):
    """Merging two count tables keeps every count (or refuses an int64 overflow); two well-formed tables merge
    into the table of their union."""
    try:
        scores, positive, negative = _core.ranking_tables.merge_tables(*a, *b, threads)
    except ValueError as error:
        assert "overflow" in str(error)
        return
    assert len(scores) == len(positive) == len(negative) <= len(a[0]) + len(b[0])
    assert _total(positive) == _total(a[1]) + _total(b[1])
    assert _total(negative) == _total(a[2]) + _total(b[2])
    if _well_formed(a[0]) and _well_formed(b[0]):
        union = np.concatenate([a[0], b[0]])
        expected = np.unique(union)[::-1]
        rows = len(expected) - 1 - np.searchsorted(expected[::-1], union)
        for got, column in ((positive, np.concatenate([a[1], b[1]])), (negative, np.concatenate([a[2], b[2]]))):
            sums = np.zeros(len(expected), np.int64)
            np.add.at(sums, rows, column)
            np.testing.assert_array_equal(got, sums)
        np.testing.assert_array_equal(scores, expected)


@FUZZ
@given(a=_TABLES, b=_TABLES, threads=st.integers(1, 4))
def test_kernels_refuse_or_stay_in_bounds(a, b, threads):
    """Any arrays: each kernel refuses them or reads within bounds (what .ci/sanitize checks under ASan and
    UBSan), and on every build arrays that are not one table are refused and count tables give the values
    and totals their counts describe (_check_count_table, _check_merge)."""
    calls = [
        lambda: _core.ranking_tables.merge_tables(*a, *b, threads),
        lambda: _core.ranking_tables.roc_auc(*a, None, threads),
        lambda: _core.ranking_tables.roc_auc(*a, 0.3, threads),
        lambda: _core.ranking_tables.average_precision(*a, threads),
        lambda: _core.ranking_tables.roc_curve(*a, True, threads),
        lambda: _core.ranking_tables.precision_recall_curve(*a, True, threads),
        lambda: _core.ranking_tables.best_threshold(*a, "mcc", 1.0, threads),
        lambda: _core.ranking_tables.roc_auc_delong(*a, threads),
        lambda: _core.ranking_tables.roc_auc_part(*a, 3, 4, threads),
        lambda: _core.ranking_tables.average_precision_part(*a, 1, 2, 3.0, threads),
    ]
    if not _one_table(*a):
        for call in calls[1:]:
            with pytest.raises(ValueError, match=r"wrong shape|wrong dtype"):
                call()
        with pytest.raises(ValueError, match=r"wrong shape|wrong dtype|differ in dtype"):
            calls[0]()
        return
    for call in calls:
        with contextlib.suppress(ValueError, TypeError, OverflowError):
            call()
    if a[1].dtype == np.int64:
        _check_count_table(a, threads)
    if not (_one_table(*b) and (a[0].dtype, a[1].dtype) == (b[0].dtype, b[1].dtype)):
        with pytest.raises(ValueError, match=r"wrong shape|wrong dtype|differ in dtype"):
            calls[0]()
    elif a[1].dtype == np.int64:
        _check_merge(a, b, threads)


def test_kernel_merge_of_unsorted_tables_stays_in_bounds():
    # Long enough for the parallel merge's cuts (2**16 rows a piece).
    rng = np.random.default_rng(0)
    scores = rng.random(300_000)
    ones = np.ones(scores.shape[0], np.int64)
    merged = _core.ranking_tables.merge_tables(scores, ones, ones, scores[::-1].copy(), ones, ones, 4)
    assert merged[0].shape[0] <= 2 * scores.shape[0]


# -- the corrupt states of the issue -----------------------------------------------------------
def _setstate(state, **changes):
    restored = type(state).__new__(type(state))
    restored.__setstate__({**state.__getstate__(), **changes})
    return restored


RANKING = tm.RankingState.from_arrays([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])


@pytest.mark.parametrize(
    "changes, message",
    [
        (dict(scores=np.full(4, 0.5)), "scores must be distinct and in descending order"),
        (dict(positive=np.array([-1, 1, 1, 0])), "positive counts must be non-negative"),
        (dict(positive=np.array([2**62, 1, 1, 0])), "total less than 2\\*\\*62"),
        (dict(samples=1), "samples must be an int in \\[4,"),
        (dict(has_positive=False), "has_positive disagrees"),
        (dict(score_dtype="O"), "score_dtype"),
    ],
)
def test_corrupt_ranking_pickles_are_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        _setstate(RANKING, **changes)


def test_corrupt_confusion_pickle_is_refused():
    state = tm.ConfusionState.from_arrays([0, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError, match="_n must be an int"):
        _setstate(state, _n=-1)
    with pytest.raises(ValueError, match="add up to _n"):
        _setstate(state, _n=5, _total=5)
    with pytest.raises(ValueError, match="_labels must be distinct"):
        _setstate(state, _labels=np.array([1, 0]))


def test_corrupt_calibration_pickle_is_refused():
    state = tm.CalibrationState.from_arrays([0, 1, 1], [0.2, 0.7, 0.9], sample_weight=[1.0, 2.0, 3.0])
    weight = state.__getstate__()["_weight"].copy()
    weight[2] = np.frombuffer((-(1 << 1100)).to_bytes(8 * weight.shape[1], "little", signed=True), "<u8")
    with pytest.raises(ValueError, match="bin 2: the weight must be non-negative"):
        _setstate(state, _weight=weight)
    with pytest.raises(ValueError, match="_weight must have shape"):
        _setstate(state, _weight=weight[:, :3])


def test_check_weights_guards_unpickling_of_binned_states():
    state = tm.BinnedRankingState.from_arrays([0, 1], [0.2, 0.7], n_bins=4)
    with pytest.raises(ValueError, match="positive counts must be non-negative"):
        _setstate(state, positive=-state.positive)


def test_from_bytes_refuses_other_kinds_and_pickles():
    data = RANKING.to_bytes()
    with pytest.raises(ValueError, match="hold a 'RankingState'"):
        tm.ConfusionState.from_bytes(data)
    with pytest.raises(ValueError, match=r"not an .npz archive"):
        tm.RankingState.from_bytes(pickle.dumps(RANKING))
    with pytest.raises(TypeError):
        tm.RankingState.from_bytes("text")


def test_from_bytes_refuses_a_member_that_is_not_an_npy_array():
    """A member named ``*.npy`` whose content is not an .npy array (a
    corrupted magic with a consistent CRC) comes back from np.load as raw
    bytes: refused, not read."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("__header__.npy", b"not an array")
    with pytest.raises(ValueError, match=r"not a serialised RankingState: member '__header__' is not an \.npy array"):
        tm.RankingState.from_bytes(buffer.getvalue())


# -- extreme weights ---------------------------------------------------------------------------
@pytest.mark.parametrize("weight", [5e-324, 1e-320, 1e307])
def test_binned_state_with_extreme_weights(weight):
    y, s = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8]
    state = tm.BinnedRankingState.from_arrays(y, s, sample_weight=[weight] * 4, n_bins=2**20)
    unit = tm.BinnedRankingState.from_arrays(y, s, sample_weight=[1.0] * 4, n_bins=2**20)
    assert state.roc_auc() == unit.roc_auc()  # scikit-learn: 0.5 for both weights
    assert state.average_precision().value == unit.average_precision().value


def test_binned_state_refuses_weights_beyond_float64():
    with pytest.raises(ValueError, match="overflows float64"):
        tm.BinnedRankingState.from_arrays([1, 1], [0.5, 0.5], sample_weight=[1e308, 1e308], n_bins=4)
    state = tm.BinnedRankingState.from_arrays(
        [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], sample_weight=[1e308, 1e-300, 1, 1], n_bins=4
    )
    with pytest.raises(ValueError, match="underflows float64"):
        state.average_precision()


def test_calibration_state_with_weights_of_1e308():
    y, p = [0, 1, 1, 0], [0.2, 0.25, 0.9, 0.95]
    state = tm.CalibrationState.from_arrays(y, p, sample_weight=[1e308] * 4, n_bins=5)
    unit = tm.CalibrationState.from_arrays(y, p, sample_weight=[1.0] * 4, n_bins=5)
    assert (state.ece(), state.mce(), state.rmsce()) == (unit.ece(), unit.mce(), unit.rmsce())
    with pytest.raises(ValueError, match="exceed the float64 range"):
        state.table()
