"""DetectionState refuses arrays, pickles and bytes that are not a matching.

Every way in (``from_arrays``, the constructor, unpickling, ``from_bytes``)
either raises ValueError or gives a state whose ``accumulate`` is
pycocotools' ``COCOeval.accumulate`` over the evalImgs that the state's
match table stands for, with recall and precision in [0, 1] (or -1): never
a crash, never a number from a table no matching could produce. Fuzzed with
hypothesis from valid states with one field corrupted, random arrays, and
truncated or altered bytes; run under ASan/UBSan by ``.ci/sanitize``.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

pytest.importorskip("pycocotools")

from pycocotools.cocoeval import COCOeval as ReferenceCOCOeval

from coco_helpers import quiet
from turbometrics.coco import COCO, DetectionState
from turbometrics.coco.synthetic import make_coco_set

FIELDS = ("row_offsets", "present", "score", "true_positive", "false_positive", "regular_gts")
_STATES = {}


def _wide(p):
    """70 IoU thresholds (two mask words, the last one partial), categories
    pooled, maxDets [1, 3, 5]."""
    p.iouThrs = np.linspace(0.3, 0.99, 70)
    p.useCats = 0
    p.maxDets = [1, 3, 5]


def valid_state(kind):
    """A small state of the synthetic set: "default" (bbox, pycocotools'
    parameters) or "wide" (see _wide)."""
    if kind not in _STATES:
        dataset, results = make_coco_set(n_images=12, n_categories=3, dets_per_image=8, seed=1)
        gt = COCO()
        gt.dataset = dataset
        quiet(gt.createIndex)
        dt = quiet(lambda: gt.loadRes(results))
        state = quiet(lambda: DetectionState.from_coco(gt, dt, "bbox"))
        if kind == "wide":
            params = copy.deepcopy(state.params)
            _wide(params)
            state = quiet(lambda: DetectionState.from_coco(gt, dt, "bbox", params=params))
        _STATES[kind] = state
    return _STATES[kind]


def reference_accumulate(state):
    """pycocotools' accumulate over the evalImgs the state's table stands
    for: per present (category, area, image) block its rows' scores, a match
    where the row is a true positive, ignore where it is neither, and
    ``regular_gts`` regular ground truths."""
    a, p = state.arrays(), copy.deepcopy(state.params)
    p.imgIds = list(state.image_ids)
    T, A, I = len(p.iouThrs), len(p.areaRng), len(state.image_ids)  # noqa: E741 (pycocotools' T, A, I)
    bit = np.uint64(1) << (np.arange(T, dtype=np.uint64) % np.uint64(64))
    word = np.arange(T) // 64
    evaluated = []
    for k in range(state.n_categories):
        for area in range(A):
            for i in range(I):
                b = k * I + i
                if not a["present"][b]:
                    evaluated.append(None)
                    continue
                rows = slice(a["row_offsets"][b], a["row_offsets"][b + 1])
                tp = (a["true_positive"][area, rows][:, word] & bit) != 0  # rows x T
                fp = (a["false_positive"][area, rows][:, word] & bit) != 0
                evaluated.append(
                    {
                        "dtScores": list(a["score"][rows]),
                        "dtMatches": tp.T.astype(float),
                        "dtIgnore": ~(tp | fp).T,
                        "gtIgnore": np.zeros(a["regular_gts"][area, b]),
                    }
                )
    reference = ReferenceCOCOeval.__new__(ReferenceCOCOeval)
    reference.evalImgs, reference.params, reference._paramsEval = evaluated, copy.deepcopy(p), copy.deepcopy(p)
    quiet(reference.accumulate)
    return reference.eval


def assert_sound(state):
    """The state accumulates to pycocotools' numbers for its table (where
    its ground-truth counts are small enough to spell out), and they are
    ratios in [0, 1] (or -1 for an empty cell)."""
    ours = state.accumulate()
    if state.arrays()["regular_gts"].sum() < 10**6:
        reference = reference_accumulate(state)
        for key in ("precision", "recall", "scores"):
            assert np.array_equal(ours[key], reference[key], equal_nan=True), key
    for key in ("precision", "recall"):
        values = ours[key]
        assert ((values == -1) | ((values >= 0) & (values <= 1))).all(), key


def accepted_or_refused(build):
    """``build()``'s state, checked sound, or None where it raised
    ValueError."""
    try:
        state = build()
    except ValueError:
        return None
    assert_sound(state)
    return state


def bypass(state, params=None, image_ids=None, **arrays):
    """A state holding these (unchecked) fields, as a tampered pickle or a
    buggy producer would carry them."""
    params = params or state.params
    thresholds = getattr(params, "iouThrs", None)
    fields = {**state.arrays(), **arrays, "n_thresholds": len(thresholds) if np.ndim(thresholds) == 1 else 10}
    return DetectionState._trusted(params, state.image_ids if image_ids is None else image_ids, fields)


# -- the two reports --------------------------------------------------------


def test_bits_at_or_above_the_threshold_count_raise_instead_of_crashing():
    # before the fix the process died (SIGSEGV): run it in a child
    script = textwrap.dedent("""
        import numpy as np, sys
        sys.path.insert(0, ".")
        from test_coco_state_fuzz import valid_state
        from turbometrics.coco import DetectionState
        st = valid_state("default")
        a = st.arrays(); a["true_positive"] |= np.uint64(1 << 10)
        try:
            DetectionState.from_arrays(st.params, st.image_ids, **a).accumulate()
        except ValueError as error:
            print("ValueError:", error)
    """)
    child = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parent,  # this module, and its helpers in tests/ on the child's path:
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]),
        },
    )
    assert child.returncode == 0, child.stderr[-2000:]
    assert "ValueError: DetectionState true_positive has bits set at or above" in child.stdout


@pytest.mark.parametrize("kind", ["default", "wide"])
def test_every_detection_a_true_positive_is_refused(kind):
    # before the fix: recall far above 1 (32.7 here, 316 on COCO)
    state = valid_state(kind)
    a = state.arrays()
    a["true_positive"] = a["true_positive"] | a["false_positive"]
    a["false_positive"] = np.zeros_like(a["false_positive"])
    with pytest.raises(ValueError, match=r"more true positives .* than regular_gts"):
        DetectionState.from_arrays(state.params, state.image_ids, **a)


# -- each check, one at a time ----------------------------------------------------------


def _corrupted(kind, how):
    state = valid_state(kind)
    a = {name: value.copy() for name, value in state.arrays().items()}
    p, ids = copy.deepcopy(state.params), state.image_ids.copy()
    present = np.flatnonzero(a["present"])
    busy = int(np.argmax(np.diff(a["row_offsets"])))  # a block with rows
    if how == "bit 64 in the last word":
        a["false_positive"][0, 0, -1] |= np.uint64(1) << np.uint64(63)
    elif how == "true and false positive at once":
        a["true_positive"][0, 0, 0] |= a["false_positive"][0, 0, 0] | np.uint64(1)
        a["false_positive"][0, 0, 0] |= np.uint64(1)
    elif how == "row_offsets not starting at 0":
        a["row_offsets"] = a["row_offsets"] + 1
    elif how == "row_offsets decreasing":
        a["row_offsets"][1], a["row_offsets"][2] = a["row_offsets"][2], a["row_offsets"][1] - 1
    elif how == "row_offsets ending early":
        a["row_offsets"][-1] -= 1
    elif how == "present 2":
        a["present"][present[0]] = 2
    elif how == "absent block with rows":
        a["present"][busy] = 0
    elif how == "negative regular_gts":
        a["regular_gts"][0, present[0]] = -1
    elif how == "regular_gts overflowing":
        a["regular_gts"][:, present[:2]] = np.iinfo(np.int64).max
    elif how == "scores ascending in a block":
        rows = slice(a["row_offsets"][busy], a["row_offsets"][busy + 1])
        a["score"][rows] = np.sort(a["score"][rows]) + np.arange(rows.stop - rows.start)
    elif how == "more rows than maxDets":
        p.maxDets = [1, 2]
    elif how == "negative maxDets":
        p.maxDets = [-1, 100]
    elif how == "float uint64 masks":
        a["true_positive"] = a["true_positive"].astype(float) + 0.5
    elif how == "negative mask words":
        a["true_positive"] = a["true_positive"].astype(np.int64) - 1
    elif how == "mask of the wrong shape":
        a["true_positive"] = a["true_positive"].reshape(a["true_positive"].shape[0], -1)
    elif how == "one area range too few":
        p.areaRng, p.areaRngLbl = p.areaRng[:-1], p.areaRngLbl[:-1]
    elif how == "IoU thresholds needing another mask word":
        p.iouThrs = np.linspace(0.3, 0.99, 130)
    elif how == "NaN IoU threshold":
        p.iouThrs = np.where(np.arange(len(p.iouThrs)) == 0, np.nan, p.iouThrs)
    elif how == "useCats 2":
        p.useCats = 2
    elif how == "unsorted catIds":
        p.catIds = list(p.catIds)[::-1]
    elif how == "unknown iouType":
        p.iouType = "boxes"
    elif how == "image_ids unsorted":
        ids = ids[::-1].copy()
    elif how == "image_ids repeated":
        ids[1] = ids[0]
    elif how == "an image too many":
        ids = np.append(ids, ids[-1] + 1)
    else:  # pragma: no cover
        raise AssertionError(how)
    return state, p, ids, a


REFUSED = {
    "bit 64 in the last word": "false_positive has bits set at or above",
    "true and false positive at once": "both at one IoU threshold",
    "row_offsets not starting at 0": "row_offsets must start at 0",
    "row_offsets decreasing": "row_offsets must not decrease",
    "row_offsets ending early": "score has the wrong size",
    "present 2": "present must hold 0 or 1",
    "absent block with rows": "not present has rows",
    "negative regular_gts": "regular_gts must be non-negative",
    "regular_gts overflowing": "regular_gts sum past the int64 range",
    "scores ascending in a block": "score: a block's rows are not in descending score order",
    "more rows than maxDets": "row_offsets: a block has more rows than max",
    "negative maxDets": "params.maxDets",
    "float uint64 masks": "true_positive: must be a 3-D array of uint64",
    "negative mask words": "true_positive: has values outside the uint64 range",
    "mask of the wrong shape": "true_positive: must be a 3-D array",
    "one area range too few": "true_positive: has shape",
    "IoU thresholds needing another mask word": "true_positive: has shape",
    "NaN IoU threshold": "params.iouThrs",
    "useCats 2": "params.useCats",
    "unsorted catIds": "params.catIds",
    "unknown iouType": "params.iouType",
    "image_ids unsorted": "image_ids",
    "image_ids repeated": "image_ids",
    "an image too many": "row_offsets: has shape",
}


@pytest.mark.parametrize("how", list(REFUSED))
def test_each_broken_invariant_raises_value_error_naming_the_field(how):
    for kind in ("default",) if how == "unsorted catIds" else ("default", "wide"):  # wide pools categories
        state, p, ids, a = _corrupted(kind, how)
        with pytest.raises(ValueError, match=REFUSED[how]):
            DetectionState.from_arrays(p, ids, **a)
        tampered = bypass(state, p, ids, **a)  # the same data arriving by pickle and by bytes
        with pytest.raises(ValueError, match=REFUSED[how]):
            pickle.loads(pickle.dumps(tampered))
        try:
            data = tampered.to_bytes()
        except (TypeError, ValueError):  # not even writable (a field not JSON-able)
            continue
        with pytest.raises(ValueError, match=REFUSED[how]):
            DetectionState.from_bytes(data)


def test_core_table_refuses_by_itself():
    # the C++ checks without the Python layer's help
    from turbometrics import _core

    a = valid_state("default").arrays()
    tp = a["true_positive"].copy()
    tp[0, 0, 0] |= np.uint64(1 << 10)
    with pytest.raises(ValueError, match="at or above"):
        _core.detection.MatchTable(
            10, a["row_offsets"], a["present"], a["score"], tp, a["false_positive"], a["regular_gts"]
        )
    with pytest.raises(ValueError):
        _core.detection.MatchTable(
            2**62, a["row_offsets"], a["present"], a["score"], a["true_positive"], a["false_positive"], a["regular_gts"]
        )
    table = _core.detection.MatchTable(
        10, a["row_offsets"], a["present"], a["score"], a["true_positive"], a["false_positive"], a["regular_gts"]
    )
    out = np.full((10, 101, 3, 4, 3), -1.0), np.full((10, 3, 4, 3), -1.0), np.full((10, 101, 3, 4, 3), -1.0)
    ks, rows = np.arange(3, dtype=np.int64), np.arange(4, dtype=np.int64)
    with pytest.raises(ValueError, match="i_rows must increase"):  # would sum a block twice
        table.accumulate(
            ks, rows, np.zeros(2, dtype=np.int64), 4, 12, np.array([1, 10, 100]), np.linspace(0, 1, 101), *out, 1
        )


# -- round trips -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["default", "wide"])
def test_bytes_and_pickle_round_trips_accumulate_to_the_same_bits(kind):
    state = valid_state(kind)
    expected = state.accumulate()
    for again in (
        DetectionState.from_bytes(state.to_bytes()),
        pickle.loads(pickle.dumps(state)),
        DetectionState.from_arrays(state.params, state.image_ids, **state.arrays()),
    ):
        result = again.accumulate()
        for key in ("precision", "recall", "scores"):
            assert np.array_equal(result[key], expected[key]), key
        assert list(quiet(again.summarize)) == list(quiet(state.summarize))
    restored = DetectionState.from_bytes(state.to_bytes())
    assert type(restored.params.iouThrs) is np.ndarray and type(restored.params.recThrs) is np.ndarray
    assert restored.params.maxDets == state.params.maxDets
    assert restored.params.areaRng == [list(r) for r in state.params.areaRng]
    assert_sound(restored)


def test_merged_round_tripped_states_equal_the_whole():
    state = valid_state("default")
    ids = list(state.image_ids)
    dataset, results = make_coco_set(n_images=12, n_categories=3, dets_per_image=8, seed=1)
    gt = COCO()
    gt.dataset = dataset
    quiet(gt.createIndex)
    dt = quiet(lambda: gt.loadRes(results))
    halves = [quiet(lambda: DetectionState.from_coco(gt, dt, "bbox", imgIds=part)) for part in (ids[:5], ids[5:])]
    merged = DetectionState.from_bytes(halves[1].to_bytes()) + DetectionState.from_bytes(halves[0].to_bytes())
    for key in ("precision", "recall", "scores"):
        assert np.array_equal(merged.accumulate()[key], state.accumulate()[key])


def test_from_bytes_refuses_what_is_not_a_detection_state():
    state = valid_state("default")
    with pytest.raises(TypeError):
        DetectionState.from_bytes("not bytes")
    for data in (b"", b"PK", pickle.dumps(state), state.to_bytes()[:-10]):
        with pytest.raises(ValueError):
            DetectionState.from_bytes(data)


# -- fuzzing ---------------------------------------------------------------------------

INTERESTING = [
    0,
    1,
    2,
    3,
    7,
    63,
    64,
    255,
    2**31,
    2**62,
    2**63 - 1,
    2**63,
    2**64 - 1,
    -1,
    -(2**63),
    0.5,
    -0.0,
    float("nan"),
    float("inf"),
    -float("inf"),
    1e300,
]


def _set_value(array, flat_index, value):
    """``array`` (a copy) with one element set to ``value``, cast as a
    careless producer would (wrapping), or None where NumPy cannot."""
    out = array.copy().ravel()
    if out.size == 0:
        return None
    try:
        with np.errstate(all="ignore"):
            out[flat_index % out.size] = np.array(value).astype(out.dtype)
    except (OverflowError, ValueError):
        return None
    return out.reshape(array.shape)


@st.composite
def corrupted_arrays(draw):
    """A valid state's arrays with one field changed: an element set to an
    interesting value, a bit flipped, an element dropped or added, the
    dtype changed, or the whole field replaced by random values."""
    kind = draw(st.sampled_from(["default", "wide"]))
    state = valid_state(kind)
    arrays = state.arrays()
    name = draw(st.sampled_from(FIELDS))
    array = arrays[name]
    how = draw(st.sampled_from(["value", "bit", "drop", "append", "float", "int32", "random"]))
    index = draw(st.integers(0, 2**31))
    if how == "value":
        changed = _set_value(array, index, draw(st.sampled_from(INTERESTING)))
        changed = array if changed is None else changed
    elif how == "bit":
        changed = array.copy().view(np.uint8).ravel()
        if changed.size:
            changed[index % changed.size] ^= np.uint8(1 << draw(st.integers(0, 7)))
        changed = changed.view(array.dtype).reshape(array.shape)
    elif how == "drop":
        changed = array.ravel()[:-1] if array.ndim == 1 else array[..., :-1]
    elif how == "append":
        changed = np.concatenate([array.ravel(), array.ravel()[:1]]) if array.ndim == 1 else array
    elif how == "float":
        changed = array.astype(np.float64)
    elif how == "int32":
        changed = array.astype(np.int32)
    else:
        rng = np.random.default_rng(index)
        changed = (
            rng.integers(0, 2**63, size=array.shape, dtype=np.int64).astype(array.dtype)
            if array.dtype.kind in "iu"
            else rng.normal(size=array.shape)
        )
        if name in ("row_offsets", "regular_gts", "present"):
            changed = changed % draw(st.sampled_from([2, 3, 100]))
    arrays[name] = changed
    return state, arrays


@settings(max_examples=120)
@given(corrupted_arrays())
def test_fuzz_from_arrays_one_field_corrupted(case):
    state, arrays = case
    accepted_or_refused(lambda: DetectionState.from_arrays(state.params, state.image_ids, **arrays))


@settings(max_examples=60)
@given(corrupted_arrays())
def test_fuzz_unpickling_and_from_bytes_one_field_corrupted(case):
    state, arrays = case
    tampered = bypass(state, **arrays)
    accepted_or_refused(lambda: pickle.loads(pickle.dumps(tampered)))
    accepted_or_refused(lambda: DetectionState.from_bytes(tampered.to_bytes()))


@settings(max_examples=60)
@given(
    st.sampled_from(["default", "wide"]),
    st.integers(0, 2**32 - 1),
    st.integers(0, 3),
    st.sampled_from(["none", "tp", "fp", "both", "present", "regular"]),
)
def test_fuzz_random_arrays(kind, seed, max_rows, flaw):
    """Random tables that fit the parameters' shapes: random row counts,
    descending random scores (ties, NaN and infinities), random masks with
    bits below T, at most ``regular_gts`` true positives where consistent;
    then one ``flaw`` (a bit past T, a row both true and false positive,
    present and the rest disagreeing, or too few regular ground truths)."""
    state = valid_state(kind)
    p, ids = state.params, state.image_ids
    T, A, B = len(p.iouThrs), len(p.areaRng), len(state.arrays()["present"])
    G = -(-T // 64)
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, max_rows + 1, size=B)
    n = int(counts.sum())
    valid = np.full(G, ~np.uint64(0))
    valid[-1] = np.uint64(2 ** (T - 64 * (G - 1)) - 1) if T % 64 else valid[-1]
    tp = rng.integers(0, 2**64, size=(A, n, G), dtype=np.uint64) & valid
    tp &= rng.integers(0, 2**64, size=(A, n, G), dtype=np.uint64)  # fewer true positives
    fp = rng.integers(0, 2**64, size=(A, n, G), dtype=np.uint64) & valid & ~tp
    score = rng.choice([0.5, 0.25, 0.0, -0.0, 1.0, np.inf, -np.inf, np.nan, 1e-300], size=n)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    for b in range(B):  # each block in detection order (descending, NaN last)
        block = score[offsets[b] : offsets[b + 1]]
        block[:] = np.concatenate([-np.sort(-block[~np.isnan(block)]), block[np.isnan(block)]])
    starts = np.minimum(offsets[:-1], max(n - 1, 0))
    per_block = (
        np.add.reduceat(np.unpackbits(tp.view(np.uint8), axis=-1, bitorder="little"), starts, axis=1)
        if n
        else np.zeros((A, B, 64 * G), dtype=np.int64)
    )
    per_block[:, counts == 0] = 0
    regular = per_block.max(axis=-1).astype(np.int64) + rng.integers(0, 3, size=(A, B))
    present = (counts > 0) | regular.any(axis=0) | (rng.random(B) < 0.3)
    if n and flaw in ("tp", "fp", "both"):
        at = (rng.integers(A), rng.integers(n), G - 1)
        if flaw == "both":
            tp[at] |= np.uint64(1)
            fp[at] |= np.uint64(1)
        elif T % 64:
            (tp if flaw == "tp" else fp)[at] |= np.uint64(1) << np.uint64(63)
    elif flaw == "present":
        present[rng.integers(B)] ^= True
    elif flaw == "regular":
        regular = np.maximum(regular - 1, 0)
    arrays = {
        "row_offsets": offsets,
        "present": present,
        "score": score,
        "true_positive": tp,
        "false_positive": fp,
        "regular_gts": regular,
    }
    accepted_or_refused(lambda: DetectionState.from_arrays(p, ids, **arrays))


@settings(max_examples=60)
@given(
    st.sampled_from(["default", "wide"]),
    st.integers(0, 2**31),
    st.integers(0, 7),
    st.sampled_from(["flip", "truncate", "zero"]),
)
def test_fuzz_altered_bytes(kind, where, bit, how):
    data = bytearray(valid_state(kind).to_bytes())
    where %= len(data)
    if how == "flip":
        data[where] ^= 1 << bit
    elif how == "truncate":
        del data[where:]
    else:
        data[where : where + 8] = bytes(len(data[where : where + 8]))
    accepted_or_refused(lambda: DetectionState.from_bytes(bytes(data)))


@settings(max_examples=40)
@given(
    st.sampled_from(["default", "wide"]),
    st.sampled_from(["iouThrs", "recThrs", "maxDets", "areaRng", "areaRngLbl", "useCats", "catIds", "iouType"]),
    st.sampled_from(
        [
            None,
            [],
            [0.5],
            [1, 10],
            [[0, 1], [2, 3]],
            ["a"],
            0,
            1,
            2,
            -1,
            "bbox",
            "x",
            float("nan"),
            [float("nan")],
            [-1],
            [1.5],
            [[0, 1e10]] * 4,
            [1, 1],
            True,
        ]
    ),
)
def test_fuzz_parameters(kind, name, value):
    state = valid_state(kind)
    p = copy.deepcopy(state.params)
    setattr(p, name, np.asarray(value) if name in ("iouThrs", "recThrs") and value is not None else value)
    accepted_or_refused(lambda: DetectionState.from_arrays(p, state.image_ids, **state.arrays()))
    tampered = bypass(state, params=p)
    accepted_or_refused(lambda: pickle.loads(pickle.dumps(tampered)))


def test_keypoint_state_bytes_keep_the_sigmas():
    from coco_helpers import fixture

    gt = COCO()
    gt.dataset = fixture("keypoints_gt.json")
    quiet(gt.createIndex)
    dt = quiet(lambda: gt.loadRes(fixture("keypoints_dt.json")))
    ids = gt.getImgIds()
    first, second = (
        quiet(lambda: DetectionState.from_coco(gt, dt, "keypoints", imgIds=part)) for part in (ids[::2], ids[1::2])
    )
    restored = DetectionState.from_bytes(first.to_bytes())
    assert np.array_equal(restored.params.kpt_oks_sigmas, first.params.kpt_oks_sigmas)
    whole, merged = first + second, restored + second  # equal parameters, so they merge
    for key in ("precision", "recall", "scores"):
        assert np.array_equal(merged.accumulate()[key], whole.accumulate()[key])
