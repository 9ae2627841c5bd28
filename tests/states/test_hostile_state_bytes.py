"""Hostile state bytes (issue 23, section 2): tiny inputs that claimed
gigabytes, header fields trusted before they were checked, tables that
did not fit their declared dtype, merges that wrapped int64, and an
Evaluator whose counts and group labels disagreed with its states.

Each reproducer must raise ValueError or TypeError, quickly; those that
allocated gigabytes before the fix run in a subprocess whose address space
is limited, so that a regression fails the test instead of the machine.
"""

import contextlib
import io
import math
import pathlib
import pickle
import subprocess
import sys
import textwrap
import warnings
import zipfile

import numpy as np
import pytest

import turbometrics as tm
from turbometrics._common.serial import _npz, dump_state, load_state
from turbometrics.ranking._binary_input import kernel_scores

REFUSED = (ValueError, TypeError)
BOMB = pathlib.Path(__file__).parents[1] / "data" / "hostile_bzip2_bomb.npz"
HEADROOM = 768 * 2**20  # address space a child may add after its imports


def rewritten(state, fields=None, arrays=None, drop=()):
    """The bytes of ``state`` with header fields and arrays replaced."""
    kind = type(state).__name__
    old_fields, old_arrays = load_state(state.to_bytes(), kind, state._VERSION)
    old_fields.update(fields or {})
    old_arrays.update(arrays or {})
    for name in drop:
        old_arrays.pop(name)
    return dump_state(kind, state._VERSION, old_fields, old_arrays)


def in_limited_child(code, data):
    """Run ``code`` (which reads ``data`` from stdin as ``DATA``) in a
    Python whose address space may grow by only HEADROOM after importing
    turbometrics; return its stdout (the test fails on a non-zero exit)."""
    program = (
        textwrap.dedent(
            """
        import resource, sys
        import numpy as np
        import turbometrics as tm
        DATA = sys.stdin.buffer.read()
        with open("/proc/self/status") as status:
            size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (size + HEADROOM, size + HEADROOM))
        try:
        """
        ).replace("HEADROOM", str(HEADROOM))
        + textwrap.indent(textwrap.dedent(code), "    ")
        + textwrap.dedent(
            """
        except (ValueError, TypeError) as error:
            print(type(error).__name__, error)
        else:
            print("accepted")
        """
        )
    )
    result = subprocess.run([sys.executable, "-c", program], input=data, capture_output=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    return result.stdout.decode()


limited = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="address-space limit via /proc")


# -- 1. tiny inputs that claimed gigabytes -----------------------------------------------------
@limited
def test_a_compressed_member_is_refused_before_it_is_decompressed():
    # 2 KB: a RankingState and a bzip2 member that inflates to 1 GiB (tests/data/make_hostile_states.py).
    data = BOMB.read_bytes()
    assert len(data) < 4096
    out = in_limited_child("tm.RankingState.from_bytes(DATA)", data)
    assert out.startswith("ValueError") and "compressed" in out, out


def test_every_compression_method_is_refused():
    state = tm.RankingState.from_arrays([0, 1], [0.2, 0.8])
    buffer = io.BytesIO(state.to_bytes())
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.writestr("extra.npy", b"\x00" * 100, compress_type=zipfile.ZIP_DEFLATED)
    with pytest.raises(ValueError, match="compressed"):
        tm.RankingState.from_bytes(buffer.getvalue())


@pytest.mark.parametrize("where", ["central", "both"])  # zipfile reads the method from the central directory
def test_a_flipped_compression_method_byte_is_a_value_error(where):
    data = bytearray(tm.RankingState.from_arrays([0, 1], [0.2, 0.8]).to_bytes())
    signatures = {"central": [(b"PK\x01\x02", 10)], "local": [(b"PK\x03\x04", 8)]}
    signatures["both"] = signatures["central"] + signatures["local"]
    for signature, offset in signatures[where]:
        at = data.index(signature)
        data[at + offset] = 0x63  # method 99 (AES), not supported
    with pytest.raises(REFUSED):
        tm.RankingState.from_bytes(bytes(data))


def npy_member(header, payload=b""):
    stream = io.BytesIO()
    np.lib.format.write_array_header_1_0(stream, header)
    return stream.getvalue() + payload


def archive_with(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, raw in members.items():
            archive.writestr(name, raw)
    return buffer.getvalue()


@limited
@pytest.mark.parametrize(
    "shape, descr", [((2**40,), "<f8"), ((2**20, 2**20), "<i8"), ((2**62,), "|u1"), ((-(2**20), -(2**20)), "<f8")]
)
def test_an_npy_header_claiming_a_huge_shape_is_refused(shape, descr):
    state = tm.RankingState.from_arrays([0, 1], [0.2, 0.8])
    fields, arrays = load_state(state.to_bytes(), "RankingState", 1)
    members = {
        name + ".npy": npy_member(np.lib.format.header_data_from_array_1_0(a)) + a.tobytes()
        for name, a in arrays.items()
    }
    header = dump_state("RankingState", 1, fields, {})
    with zipfile.ZipFile(io.BytesIO(header)) as archive:
        members["__header__.npy"] = archive.read("__header__.npy")
    members["scores.npy"] = npy_member({"descr": descr, "fortran_order": False, "shape": shape}, b"\x00" * 16)
    out = in_limited_child("tm.RankingState.from_bytes(DATA)", archive_with(members))
    assert out.startswith("ValueError") and "scores" in out, out


@pytest.mark.parametrize(
    "header",
    [
        {"descr": "|O", "fortran_order": False, "shape": (1,)},
        {"descr": [("a", "<f8")], "fortran_order": False, "shape": (1,)},
        {"descr": "|V0", "fortran_order": False, "shape": (2**40,)},
        {"descr": "<U0", "fortran_order": False, "shape": (2**40,)},
    ],
)
def test_npy_members_of_other_dtypes_are_refused(header):
    members = {
        "__header__.npy": npy_member({"descr": "|u1", "fortran_order": False, "shape": (2,)}, b"{}"),
        "x.npy": npy_member(header, b"\x00" * 8),
    }
    with pytest.raises(ValueError):
        tm.RankingState.from_bytes(archive_with(members))


def test_members_not_npy_or_named_twice_are_refused():
    data = tm.RankingState.from_arrays([0, 1], [0.2, 0.8]).to_bytes()
    for name in ("notes.txt", "scores.npy"):
        buffer = io.BytesIO(data)
        twice = pytest.warns(UserWarning, match="Duplicate") if name == "scores.npy" else contextlib.nullcontext()
        with zipfile.ZipFile(buffer, "a") as archive, twice:
            archive.writestr(name, b"x")
        with pytest.raises(ValueError, match=r"\.npy|repeats"):
            tm.RankingState.from_bytes(buffer.getvalue())


def test_member_sizes_are_those_of_the_bytes():
    # A member whose header claims fewer (or more) elements than its bytes hold.
    state = tm.RankingState.from_arrays([0, 1, 0], [0.2, 0.8, 0.5])
    _, arrays = load_state(state.to_bytes(), "RankingState", 1)
    data = _npz({"__header__": np.frombuffer(b"{}", np.uint8), **arrays})
    index = data.index(b"'shape': (3,)")
    with pytest.raises(ValueError):
        tm.RankingState.from_bytes(data[:index] + b"'shape': (2,)" + data[index + 13 :])


@limited
@pytest.mark.parametrize("classes", [10**9, 2**40])
@pytest.mark.parametrize("metrics", [["roc_auc"], ["accuracy"], None])
def test_an_evaluator_header_with_a_huge_class_count_is_refused(classes, metrics):
    ev = tm.Evaluator(metrics, classes=3).update([0, 1, 2, 1], np.eye(3)[[0, 1, 2, 2]], groups=["a", "b", "a", "b"])
    data = rewritten(ev, {"classes": classes})
    assert len(data) < 128 * 1024
    out = in_limited_child("tm.Evaluator.from_bytes(DATA)", data)
    assert out.startswith("ValueError") and "classes" in out, out


@limited
@pytest.mark.parametrize("n_bins", [10**8, 2**63 - 1, 2**63, 2**64 + 1])
def test_an_evaluator_header_with_a_huge_bin_count_is_refused(n_bins):
    ev = tm.Evaluator(["ece"]).update([0, 1, 1], [0.2, 0.9, 0.6])
    out = in_limited_child("tm.Evaluator.from_bytes(DATA)", rewritten(ev, {"n_bins": n_bins}))
    assert out.startswith("ValueError") and "n_bins" in out, out


@limited
@pytest.mark.parametrize("n_bins", [10**8, 2**63 - 1, 2**63])
def test_a_calibration_state_with_a_huge_bin_count_is_refused(n_bins):
    state = tm.CalibrationState.from_arrays([0, 1, 1], [0.2, 0.9, 0.6])
    out = in_limited_child("tm.CalibrationState.from_bytes(DATA)", rewritten(state, {"n_bins": n_bins}))
    assert out.startswith("ValueError") and ("n_bins" in out or f"({n_bins}, " in out), out


@limited
@pytest.mark.parametrize("n_bins", [10**8, 2**63 - 1, 2**63])
def test_a_binned_state_with_a_huge_bin_count_is_refused(n_bins):
    state = tm.BinnedRankingState.from_arrays([0, 1, 1], [0.2, 0.9, 0.6], n_bins=4, strategy="uniform", range=(0, 1))
    out = in_limited_child("tm.BinnedRankingState.from_bytes(DATA)", rewritten(state, {"n_bins": n_bins}))
    assert out.startswith("ValueError") and "n_bins" in out, out


# -- 2. merged binned counts -------------------------------------------------------------------
def big_binned_state():
    state = tm.BinnedRankingState(4)
    parts = state._parts()
    parts.update(
        positive=np.array([0, 0, 0, 2**61 + 1]),
        negative=np.array([1, 0, 0, 0]),
        has_positive=True,
        has_negative=True,
    )
    return tm.BinnedRankingState.from_bytes(
        rewritten(
            state,
            {"has_positive": True, "has_negative": True},
            {"positive": parts["positive"], "negative": parts["negative"]},
        )
    )


def test_binned_counts_that_would_wrap_int64_are_refused_by_merge():
    state = big_binned_state()
    assert state.roc_auc().value == 1.0
    with pytest.raises(ValueError, match="2\\*\\*62"):
        sum([state] * 8)
    with pytest.raises(ValueError, match="2\\*\\*62"):
        state + state


def test_binned_update_past_the_count_limit_is_refused():
    state = big_binned_state()
    state.update(np.ones(3, int), np.ones(3))  # below the limit
    assert state.positive.sum() == 2**61 + 4
    almost = tm.BinnedRankingState.from_bytes(
        rewritten(
            state,
            arrays={"positive": np.array([0, 0, 0, 2**62 - 2**12]), "negative": np.zeros(4, np.int64)},
            fields={"has_negative": False},
        )
    )
    with pytest.raises(ValueError, match="2\\*\\*62"):
        almost.update(np.ones(2**12, int), np.ones(2**12))


def test_ranking_merge_shares_the_count_limit():
    a = tm.RankingState.from_table(np.array([1.0, 0.0]), np.array([2**61 + 1, 0]), np.array([0, 2**61 + 1]))
    b = tm.RankingState.from_table(np.array([3.0, 2.0]), np.array([2**61, 0]), np.array([0, 2**61]))
    with pytest.raises(ValueError, match="2\\*\\*62"):
        a + b  # no row sums, yet the totals pass the limit every state must keep


# -- 3. tables that do not fit their score dtype -----------------------------------------------
def ranking_parts(scores, score_dtype, positive, negative):
    return {
        "version": 1,
        "pos_label": None,
        "scores": np.asarray(scores),
        "score_dtype": np.dtype(score_dtype).str,
        "positive": np.asarray(positive, np.int64),
        "negative": np.asarray(negative, np.int64),
        "samples": len(scores),
        "has_positive": True,
        "has_negative": True,
    }


@pytest.mark.parametrize(
    "values, score_dtype",
    [
        ([1000, -500], np.int8),  # the reproducer: wrapped thresholds
        ([5, 1, 0], np.bool_),  # the reproducer: duplicate thresholds
        ([2, 1], np.bool_),
        ([40000, -1], np.int16),
        ([70000, 1], np.uint16),
        ([1e5, 0.5], np.float16),
        ([0.1, 0.0], np.float16),
        ([np.inf, 0.0], np.float64),  # update refuses infinite scores (the state fuzz test's find)
        ([0.5, -np.inf], np.float32),
    ],
)
def test_a_table_outside_its_score_dtype_is_refused(values, score_dtype):
    scores = np.array(values).astype(kernel_scores(np.zeros(0, score_dtype)).dtype)
    n = scores.shape[0]
    parts = ranking_parts(scores, score_dtype, [1] + [0] * (n - 1), [0] * (n - 1) + [1])
    with pytest.raises(ValueError, match="score_dtype"):
        pickle.loads(pickle.dumps(_Pickled(parts)))
    state = tm.RankingState.from_arrays([0, 1], np.array([0, 1], score_dtype))
    data = rewritten(
        state,
        {"score_dtype": parts["score_dtype"], "samples": n},
        {"scores": scores, "positive": parts["positive"], "negative": parts["negative"]},
    )
    with pytest.raises(ValueError, match="score_dtype"):
        tm.RankingState.from_bytes(data)


@pytest.mark.skipif(np.finfo(np.longdouble).max <= np.finfo(np.float64).max, reason="long double is float64 here")
def test_a_long_double_score_past_float64_round_trips_as_infinity():
    # Finite in long double, so update and scikit-learn take it; the float64 table holds inf.
    scores = np.array([np.longdouble("1e400"), 0.0], dtype=np.longdouble)
    with np.errstate(over="ignore"):
        state = tm.RankingState.from_arrays([1, 0], scores)
    assert np.isinf(state._scores[0])
    for clone in (pickle.loads(pickle.dumps(state)), tm.RankingState.from_bytes(state.to_bytes())):
        assert clone.roc_auc() == state.roc_auc() == 1.0


class _Pickled:
    """Unpickles as a RankingState of the given parts."""

    def __init__(self, parts):
        self.parts = parts

    def __reduce__(self):
        return (_restore, (self.parts,))


def _restore(parts):
    state = tm.RankingState.__new__(tm.RankingState)
    state.__setstate__(parts)
    return state


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.bool_, np.float32, np.float16, np.int32])
def test_tables_inside_their_score_dtype_still_load(dtype):
    y = np.array([0, 1, 1, 0, 1])
    scores = np.array([0, 1, 1, 0, 1], dtype) if dtype == np.bool_ else np.array([-3, 7, 2, 0, 5]).astype(dtype)
    state = tm.RankingState.from_arrays(y, scores)
    again = tm.RankingState.from_bytes(state.to_bytes())
    assert again.roc_auc() == tm.roc_auc_score(y, scores)
    assert pickle.loads(pickle.dumps(state)).precision_recall_curve()[2].dtype == np.dtype(dtype)
    assert tm.RankingState.from_table(state.scores, state.positive, state.negative).roc_auc() == state.roc_auc()


# -- 4. Evaluator counts and group labels ------------------------------------------------------
def evaluator_with_rows(n=200):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    return tm.Evaluator(["roc_auc", "log_loss"]).update(y, rng.random(n), groups=np.where(y, "a", "b"))


def with_fields(ev, **fields):
    """The Evaluator's bytes with header fields replaced."""
    old_fields, arrays = load_state(ev.to_bytes(), "Evaluator", ev._VERSION)
    old_fields.update(fields)
    return dump_state("Evaluator", ev._VERSION, old_fields, arrays)


def test_evaluator_n_samples_must_be_the_states_rows():
    # The reproducer: n_samples 7 while the ranking states hold 200 rows (and the
    # log-loss sums agree with the 7).
    ev = evaluator_with_rows()
    data = with_fields(ev, n_samples=[7, *ev.n_samples_by_group.values()])
    with pytest.raises(ValueError, match="200 samples, not 7"):
        tm.Evaluator.from_bytes(data)


@pytest.mark.parametrize("counts", [[7, 200], [200, 7]])
def test_evaluator_ranking_only_n_samples_must_be_the_states_rows(counts):
    ev = tm.Evaluator(["roc_auc"]).update([0, 1] * 100, np.linspace(0, 1, 200), groups=[0] * 200)
    with pytest.raises(ValueError, match="200 samples, not 7"):
        tm.Evaluator.from_bytes(with_fields(ev, n_samples=counts))


def test_a_nan_group_label_is_refused():
    ev = tm.Evaluator(["roc_auc"]).update([0, 1, 1, 0], [0.1, 0.8, 0.6, 0.3], groups=[1.5, 1.5, 2.5, 2.5])
    with pytest.raises(ValueError, match="NaN"):
        tm.Evaluator.from_bytes(with_fields(ev, groups=[math.nan, 2.5]))


# -- 5. Evaluator bytes by columns ---------------------------------------------------------------
def test_a_group_costs_what_its_states_hold():
    # Version 1 took about 19 KB per group of 20 rows (an archive per state and group, and
    # every exact sum at its full 35 limbs); docs/guide/evaluator.md has the measurements.
    rng = np.random.default_rng(5)
    n, groups = 20 * 200, 200
    ev = tm.Evaluator().update(rng.integers(0, 2, n), rng.random(n), groups=rng.integers(0, groups, n))
    data = ev.to_bytes()
    assert len(data) / groups < 4000
    back = tm.Evaluator.from_bytes(data)
    assert back.n_samples_by_group == ev.n_samples_by_group
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert str(back.compute()) == str(ev.compute())


def small_evaluator():
    return tm.Evaluator(["roc_auc", "ece", "log_loss"]).update(
        [0, 1, 1, 0, 1], [0.1, 0.8, 0.6, 0.3, 0.9], groups=list("aabbb")
    )


@limited
@pytest.mark.parametrize(
    "field, value",
    [
        ("ranking.scores.shape", [[2**40], [2], [3]]),
        ("ranking.scores.shape", [[-1], [2], [3]]),
        ("ranking.scores.dtype", ["|O", "<f8", "<f8"]),
        ("ranking.scores.dtype", ["(4,)<f8", "<f8", "<f8"]),
        ("ranking.scores.dtype", [["<f8"], "<f8", "<f8"]),
        ("calibration._weight.shape", [[2**40, 35], [15, 35], [15, 35]]),
        ("calibration._weight.window", [[0, 99], [17, 18], [17, 18]]),
        ("calibration._weight.window", [[3, 3], [17, 18], [17, 18]]),
        ("ranking.scores.window", [[0, 1], None, None]),
        ("ranking.scores.dtype", ["<f8", "<f8"]),
        ("n_samples", [5, 2]),
    ],
)
def test_evaluator_columns_that_disagree_with_their_bytes_are_refused(field, value):
    out = in_limited_child("tm.Evaluator.from_bytes(DATA)", with_fields(small_evaluator(), **{field: value}))
    assert out.startswith("ValueError"), out


def test_evaluator_columns_with_unknown_names_are_refused():
    ev = small_evaluator()
    for extra in ({"ranking.extra": [1, 2, 3]}, {"ranking.scores.extra": [1, 2, 3]}, {"bogus": 1}):
        with pytest.raises(ValueError, match="unknown field"):
            tm.Evaluator.from_bytes(with_fields(ev, **extra))


def test_version_1_evaluator_bytes_are_refused_by_name():
    data = with_fields(small_evaluator())
    fields, arrays = load_state(data, "Evaluator", 2)
    with pytest.raises(ValueError, match="version 1 is not supported"):
        tm.Evaluator.from_bytes(dump_state("Evaluator", 1, fields, arrays))
