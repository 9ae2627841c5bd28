"""Error and warning paths, compared with scikit-learn 1.9.1.

For every case, sklearn and turbometrics run on the same input.  If sklearn
raises, turbometrics must raise an exception of the same class name whose
builtin bases (ValueError, TypeError, IndexError, ...) match, with the same
``str(e)``.  If sklearn warns (UndefinedMetricWarning, UserWarning,
FutureWarning), turbometrics must emit the same warnings.  See helpers.py.

Multiclass input is not implemented by turbometrics yet; sklearn's earlier
checks must still apply first, and what would be computed raises
NotImplementedError.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp

import turbometrics as tm
from helpers import check_against_sklearn

CURVES = ["roc_curve", "precision_recall_curve", "det_curve", "confusion_matrix_at_thresholds"]
DROP = ["roc_curve", "precision_recall_curve", "det_curve"]
SCORES = ["roc_auc_score", "average_precision_score"]
ALL = CURVES + SCORES

NAN = float("nan")
INF = float("inf")

Y = np.array([0, 1, 1, 0])
S = np.array([0.1, 0.4, 0.35, 0.8])


def cases_for(names, args, kwargs=None, id_=""):
    return [pytest.param(name, args, kwargs or {}, id=f"{name}-{id_}") for name in names]


# --------------------------------------------------------------------------
# input validation shared by all six functions

SHARED = []
SHARED += cases_for(ALL, (Y, np.array([0.1, NAN, 0.35, 0.8])), id_="nan_score")
SHARED += cases_for(ALL, (Y, np.array([0.1, INF, 0.35, 0.8])), id_="inf_score")
SHARED += cases_for(ALL, (Y, np.array([0.1, -INF, 0.35, 0.8])), id_="neginf_score")
SHARED += cases_for(ALL, (Y, np.array([0.1, INF, 0.35, 0.8], dtype=np.float32)), id_="inf_score_f32")
SHARED += cases_for(ALL, (Y, np.array([NAN, NAN, NAN, NAN])), id_="all_nan_score")
SHARED += cases_for(ALL, (Y, np.array([0.1, NAN, 0.35, 0.8], dtype=object)), id_="nan_score_object_dtype")
SHARED += cases_for(ALL, (Y, np.array([0.1, INF, 0.35, 0.8], dtype=object)), id_="inf_score_object_dtype")
SHARED += cases_for(ALL, (Y, np.array([0.1, NAN, 0.35, 0.8], dtype=np.float16)), id_="nan_score_f16")
SHARED += cases_for(ALL, (Y, [0.1, NAN, 0.35, 0.8]), id_="nan_score_list")
SHARED += cases_for(
    ALL,
    (Y, np.array([0.1, NAN, 0.35, 0.8])),
    dict(sample_weight=np.array([1.0, 0.0, 1.0, 1.0])),
    id_="nan_score_zero_weight",
)
SHARED += cases_for(ALL, (Y, np.array([1 + 1j, 2, 3, 4])), id_="complex_scores")
SHARED += cases_for(ALL, (np.array([0.0, 1.0, NAN, 0.0]), S), id_="nan_y_true")
SHARED += cases_for(ALL, (np.array([0, 1, 1]), S), id_="len_y_true_short")
SHARED += cases_for(ALL, (Y, S[:3]), id_="len_y_score_short")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.ones(5)), id_="len_weight_long")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.ones(3)), id_="len_weight_short")
# (average_precision_score: multiclass y_true raises NotImplementedError right
# after sklearn's pos_label check, so sklearn's later y_score shape check is
# not required there)
SHARED += cases_for(CURVES + ["roc_auc_score"], (np.array([0, 1, 2, 1]), S), id_="multiclass_y_true_1d_score")
SHARED += cases_for(ALL, (np.array([0.5, 1.5, 2.0, 0.5]), S), id_="continuous_y_true")
SHARED += cases_for(ALL, (np.array([0.0, 0.5, 1.0, 0.0]), S), id_="continuous_y_true_01")
SHARED += cases_for(ALL, (np.zeros((4, 2, 2)), S), id_="unknown_y_true_3d")
SHARED += cases_for(ALL, (np.array(["a", 1, "a", 1], dtype=object), S), id_="mixed_type_labels")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.zeros(4)), id_="all_zero_weights")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.array([1.0, NAN, 1.0, 1.0])), id_="nan_weight")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.array([1.0, INF, 1.0, 1.0])), id_="inf_weight")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=2.0), id_="scalar_weight")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.ones((4, 2))), id_="2d_weight")
SHARED += cases_for(ALL, (Y, np.array([[0.1, 0.9], [0.4, 0.6], [0.35, 0.65], [0.8, 0.2]])), id_="2d_score_2col")
SHARED += cases_for(ALL, (5, S), id_="scalar_y_true")
SHARED += cases_for(ALL, (Y, 0.5), id_="scalar_y_score")
SHARED += cases_for(ALL, ("0110", S), id_="string_y_true")
SHARED += cases_for(ALL, (Y, None), id_="none_y_score")
SHARED += cases_for(ALL, (np.array([1, 1, 1, 1]), S), id_="one_class_all_pos")
SHARED += cases_for(ALL, (np.array([0, 0, 0, 0]), S), id_="one_class_all_neg")
SHARED += cases_for(ALL, (np.array([-1, -1, -1, -1]), S), id_="one_class_all_minus1")
SHARED += cases_for(ALL, (np.array([2, 2, 2, 2]), S), id_="one_class_label_2")
SHARED += cases_for(ALL, (np.array([1]), np.array([0.3])), id_="n1_pos")
SHARED += cases_for(ALL, (np.array([0]), np.array([0.3])), id_="n1_neg")
# weights that remove every sample of one class
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.array([0.0, 1.0, 1.0, 0.0])), id_="weights_drop_negatives")
SHARED += cases_for(ALL, (Y, S), dict(sample_weight=np.array([1.0, 0.0, 0.0, 1.0])), id_="weights_drop_positives")


@pytest.mark.parametrize("name,args,kwargs", SHARED)
def test_shared_error_and_warning_paths(name, args, kwargs):
    check_against_sklearn(name, *args, **kwargs)


# --------------------------------------------------------------------------
# pos_label handling

POS_LABEL = []
POS_LABEL += cases_for(CURVES, (np.array(["a", "b", "b", "a"]), S), id_="str_labels_no_pos_label")
POS_LABEL += cases_for(CURVES, (np.array(["a", "a", "a", "a"]), S), id_="str_one_class_no_pos_label")
POS_LABEL += cases_for(CURVES, (np.array([0, 2, 2, 0]), S), id_="labels_0_2_no_pos_label")
POS_LABEL += cases_for(CURVES, (np.array([1, 2, 2, 1]), S), id_="labels_1_2_no_pos_label")
POS_LABEL += cases_for(CURVES, (np.array([0.0, 2.5, 2.5, 0.0]), S), id_="float_labels_no_pos_label")
POS_LABEL += cases_for(CURVES, (np.array(["a", "b", "b", "a"], dtype=object), S), id_="object_labels_no_pos_label")
POS_LABEL += cases_for(CURVES, (np.array(["a", "b", "b", "a"]), S), dict(pos_label="b"), id_="str_labels_pos_b")
POS_LABEL += cases_for(CURVES + ["average_precision_score"], (Y, S), dict(pos_label=2), id_="pos_label_absent")
POS_LABEL += cases_for(CURVES + ["average_precision_score"], (Y, S), dict(pos_label="a"), id_="pos_label_str_absent")
POS_LABEL += cases_for(
    CURVES + ["average_precision_score"],
    (np.array(["a", "b", "b", "a"]), S),
    dict(pos_label=1),
    id_="pos_label_int_for_str",
)
POS_LABEL += cases_for(
    CURVES + ["average_precision_score"],
    (np.array([0.0, 1.0, 1.0, 0.0]), S),
    dict(pos_label=2.5),
    id_="pos_label_absent_float",
)
POS_LABEL += cases_for(
    CURVES + ["average_precision_score"],
    (np.array([False, True, True, False]), S),
    dict(pos_label=2),
    id_="pos_label_absent_bool",
)
POS_LABEL += cases_for(CURVES + ["average_precision_score"], (Y, S), dict(pos_label=[1]), id_="pos_label_list")
POS_LABEL += cases_for(CURVES + ["average_precision_score"], (Y, S), dict(pos_label=(1,)), id_="pos_label_tuple")
POS_LABEL += cases_for(CURVES + ["average_precision_score"], (Y, S), dict(pos_label=b"1"), id_="pos_label_bytes")
POS_LABEL += cases_for(
    CURVES + ["average_precision_score"], (Y, S), dict(pos_label=np.int64(1)), id_="pos_label_np_int"
)
POS_LABEL += cases_for(
    CURVES + ["average_precision_score"], (Y, S), dict(pos_label=np.float32(0)), id_="pos_label_np_float"
)
POS_LABEL += cases_for(
    CURVES + ["average_precision_score"], (Y, S), dict(pos_label=np.bool_(True)), id_="pos_label_np_bool"
)
POS_LABEL += cases_for(["average_precision_score"], (Y, S), dict(pos_label=None), id_="pos_label_none")
POS_LABEL += cases_for(
    ["average_precision_score"], (np.array(["a", "b", "b", "a"]), S), id_="str_labels_default_pos_label"
)
POS_LABEL += cases_for(
    ["average_precision_score"],
    (np.array(["a", "b", "b", "a"], dtype=object), S),
    id_="object_labels_default_pos_label",
)
POS_LABEL += cases_for(
    ["average_precision_score"], (np.array([-1, 1, 1, -1]), S), dict(pos_label=0), id_="pm1_pos_label_0"
)
POS_LABEL += cases_for(
    ["average_precision_score"], (np.array([2, 2, 2, 2]), S), dict(pos_label=3), id_="one_label_pos_absent"
)


@pytest.mark.parametrize("name,args,kwargs", POS_LABEL)
def test_pos_label_paths(name, args, kwargs):
    check_against_sklearn(name, *args, **kwargs)


# --------------------------------------------------------------------------
# invalid parameter values -> InvalidParameterError with sklearn's message

PARAMS = []
for bad in ["x", 1, 0, None, "True", np.array([True])]:
    PARAMS += cases_for(DROP, (Y, S), dict(drop_intermediate=bad), id_=f"drop_intermediate={bad!r}")
for bad in ["foo", "MACRO", 1, ["macro"], "binary"]:
    PARAMS += cases_for(SCORES, (Y, S), dict(average=bad), id_=f"average={bad!r}")
for bad in [0, 0.0, 2, -0.5, 1.0000001, NAN, INF, "0.5", [0.5]]:
    PARAMS += cases_for(["roc_auc_score"], (Y, S), dict(max_fpr=bad), id_=f"max_fpr={bad!r}")
for bad in ["foo", None, "OVR", 1]:
    PARAMS += cases_for(["roc_auc_score"], (Y, S), dict(multi_class=bad), id_=f"multi_class={bad!r}")
PARAMS += cases_for(["roc_auc_score"], (Y, S), dict(labels=3), id_="labels_scalar")
# several invalid parameters: the first in signature order is reported
PARAMS += cases_for(["roc_auc_score"], (Y, S), dict(max_fpr=2, average="foo", multi_class="x"), id_="many_invalid")
PARAMS += cases_for(["average_precision_score"], (Y, S), dict(pos_label=[1], average="foo"), id_="many_invalid")
PARAMS += cases_for(["roc_curve"], (Y, S), dict(drop_intermediate="x", pos_label=[1]), id_="many_invalid")
PARAMS += cases_for(["roc_curve"], (5, S), dict(drop_intermediate="x"), id_="invalid_y_true_and_param")
# valid-but-unusual parameter values
for ok in [np.bool_(False), np.bool_(True)]:
    PARAMS += cases_for(DROP, (Y, S), dict(drop_intermediate=ok), id_=f"drop_intermediate={ok!r}")
for ok in [1, 1.0, True, 1e-300, 0.999]:
    PARAMS += cases_for(["roc_auc_score"], (Y, S), dict(max_fpr=ok), id_=f"max_fpr_ok={ok!r}")
PARAMS += cases_for(["roc_auc_score"], (Y, S), dict(multi_class="ovr"), id_="binary_ovr")
PARAMS += cases_for(["roc_auc_score"], (Y, S), dict(multi_class="ovo", labels=[0, 1]), id_="binary_ovo_labels")


@pytest.mark.parametrize("name,args,kwargs", PARAMS)
def test_invalid_parameters(name, args, kwargs):
    check_against_sklearn(name, *args, **kwargs)


def test_invalid_parameter_error_is_value_and_type_error():
    with pytest.raises(tm.InvalidParameterError) as info:
        tm.roc_curve(Y, S, drop_intermediate="x")
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    assert type(info.value).__name__ == "InvalidParameterError"


_HASHSEED_SCRIPT = textwrap.dedent(
    """
    import re
    import sklearn.metrics as skm, turbometrics as tm
    def options_sorted(message):
        return re.sub(r"among \\{([^{}]*)\\}",
                      lambda m: "among {" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)
    calls = [
        ("roc_auc_score", dict(average="foo")),
        ("roc_auc_score", dict(multi_class="foo")),
        ("average_precision_score", dict(average="foo")),
    ]
    bad = []
    for name, kw in calls:
        msgs = []
        for lib in (skm, tm):
            try:
                getattr(lib, name)([0, 1], [0.1, 0.2], **kw)
                msgs.append(None)
            except Exception as e:
                msgs.append(options_sorted(str(e)))
        if msgs[0] != msgs[1]:
            bad.append(msgs)
    print(bad)
    raise SystemExit(1 if bad else 0)
    """
)


@pytest.mark.parametrize("seed", ["0", "1", "2", "3"])
def test_str_options_message_matches_under_any_hash_seed(seed):
    # sklearn formats StrOptions by iterating a set of strings, whose order
    # depends on PYTHONHASHSEED and on how each module's constant set was
    # compiled; messages must name the same options for every seed (the order
    # inside the braces is not reproducible and is compared sorted).
    env = dict(os.environ, PYTHONHASHSEED=seed)
    proc = subprocess.run(
        [sys.executable, "-c", _HASHSEED_SCRIPT], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


# --------------------------------------------------------------------------
# scipy.sparse inputs: sklearn's "array-like" constraint rejects them with
# InvalidParameterError (even a sparse multilabel y_true)

SPARSE = []
SPARSE += cases_for(ALL, (Y, sp.csr_matrix(S.reshape(-1, 1))), id_="sparse_column_score")
SPARSE += cases_for(ALL, (sp.csr_matrix(Y.reshape(-1, 1)), S), id_="sparse_column_y_true")
SPARSE += cases_for(
    ALL,
    (
        sp.csr_matrix(np.array([[0, 1], [1, 0], [1, 1], [0, 0]])),
        np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.1], [0.2, 0.3]]),
    ),
    id_="sparse_multilabel_y_true",
)
SPARSE += cases_for(
    ALL,
    (
        np.array([[0, 1], [1, 0], [1, 1], [0, 0]]),
        sp.csc_matrix(np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.1], [0.2, 0.3]])),
    ),
    id_="sparse_multilabel_y_score",
)
SPARSE += cases_for(ALL, (Y, S), dict(sample_weight=sp.csr_matrix(np.ones((4, 1)))), id_="sparse_weights")


@pytest.mark.parametrize("name,args,kwargs", SPARSE)
def test_sparse_inputs_rejected_like_sklearn(name, args, kwargs):
    check_against_sklearn(name, *args, **kwargs)


# --------------------------------------------------------------------------
# n = 0 and 2-D scores where 1-D is expected

EMPTY = []
EMPTY += cases_for(ALL, (np.array([], dtype=int), np.array([], dtype=float)), id_="n0")
EMPTY += cases_for(ALL, ([], []), id_="n0_lists")
EMPTY += cases_for(
    ALL, (np.array([], dtype=int), np.array([], dtype=float)), dict(sample_weight=np.array([])), id_="n0_weights"
)
EMPTY += cases_for(ALL, (np.array([0, 1]), np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.5]])), id_="2d_score_3col")
EMPTY += cases_for(ALL, (np.array([0, 1]), np.array([[[0.1]], [[0.2]]])), id_="3d_score")
EMPTY += cases_for(ALL, (np.array([[0, 1], [1, 0]]), np.array([0.1, 0.2])), id_="multilabel_y_true_1d_score")
EMPTY += cases_for(
    SCORES, (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.5]])), id_="multilabel_shape_mismatch"
)
EMPTY += cases_for(SCORES, (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2]])), id_="multilabel_rows_mismatch")
EMPTY += cases_for(SCORES, (np.array([[0, 1], [1, 0]]), np.array([[0.1, NAN], [0.3, 0.2]])), id_="multilabel_nan_score")
EMPTY += cases_for(
    SCORES,
    (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2], [0.3, 0.2]])),
    dict(sample_weight=[1.0]),
    id_="multilabel_weight_len",
)
EMPTY += cases_for(
    SCORES,
    (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2], [0.3, 0.2]])),
    dict(sample_weight=[0.0, 0.0]),
    id_="multilabel_zero_weights",
)
EMPTY += cases_for(
    ["average_precision_score"],
    (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2], [0.3, 0.2]])),
    dict(pos_label=0),
    id_="multilabel_pos_label_0",
)
EMPTY += cases_for(
    ["average_precision_score"],
    (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2], [0.3, 0.2]])),
    dict(pos_label="1"),
    id_="multilabel_pos_label_str",
)
EMPTY += cases_for(CURVES, (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2], [0.3, 0.2]])), id_="multilabel_to_curve")
EMPTY += cases_for(
    CURVES,
    (np.array([[0, 1], [1, 0]]), np.array([[0.1, 0.2], [0.3, 0.2]])),
    dict(pos_label=1),
    id_="multilabel_to_curve_pos1",
)
EMPTY += cases_for(SCORES, (np.zeros((2, 0), dtype=int), np.zeros((2, 0))), id_="zero_labels")
EMPTY += cases_for(
    ALL,
    (np.array([[0, 2], [2, 0], [1, 1]]), np.array([[0.1, 0.2], [0.3, 0.2], [0.5, 0.5]])),
    id_="multiclass_multioutput",
)
EMPTY += cases_for(
    ALL, (np.array([[0.5, 1.0], [1.0, 0.0]]), np.array([[0.1, 0.2], [0.3, 0.2]])), id_="continuous_multioutput"
)
EMPTY += cases_for(
    SCORES,
    (np.array([[0, 1], [1, 0], [1, 1]]), np.array([[True, False], [True, True], [False, False]])),
    id_="multilabel_bool_scores",
)
EMPTY += cases_for(
    SCORES,
    (np.array([[0, 1], [1, 0], [1, 1]]), np.array([[1, 2], [3, 1], [2, 2]], dtype=np.uint8)),
    id_="multilabel_uint8_scores",
)
EMPTY += cases_for(
    ["roc_auc_score"],
    (np.array([[0, 1], [1, 0], [1, 1]]), np.array([[0.1, 0.2], [0.3, 0.2], [0.5, 0.5]])),
    dict(multi_class="ovo"),
    id_="multilabel_ovo_ignored",
)
EMPTY += cases_for(
    ["roc_auc_score"],
    (np.array([[0, 1], [1, 0], [1, 1]]), np.array([[0.1, 0.2], [0.3, 0.2], [0.5, 0.5]])),
    dict(labels=["x", "y"]),
    id_="multilabel_labels_ignored",
)
EMPTY += cases_for(["roc_auc_score"], (Y, S), dict(labels=[5, 6, 7]), id_="binary_labels_ignored")


@pytest.mark.parametrize("name,args,kwargs", EMPTY)
def test_empty_and_shape_errors(name, args, kwargs):
    check_against_sklearn(name, *args, **kwargs)


# --------------------------------------------------------------------------
# sklearn raises here through numpy internals rather than a deliberate check
# (broadcast errors, IndexError on empty arrays, ufunc type errors).  A
# drop-in must still fail the same way; kept separate so a deliberate choice
# to deviate is easy to spot.

ACCIDENTAL = []
ACCIDENTAL += cases_for(ALL, (np.array([0, 1, 1]), np.array(["a", "b", "c"])), id_="string_scores")
ACCIDENTAL += cases_for(ALL, (np.array([0, 1, 1]), np.array([b"a", b"b", b"c"])), id_="bytes_scores")
ACCIDENTAL += cases_for(ALL, (np.array([0, 1, 1]), np.array([0.5, None, 0.2], dtype=object)), id_="none_in_scores")
ACCIDENTAL += cases_for(ALL, (np.array([0, 1, 1]), [0.5, None, 0.2]), id_="none_in_score_list")
ACCIDENTAL += cases_for(
    ALL, (np.array([0, 1, 1]), np.array(["0.5", "0.1", "0.2"], dtype=object)), id_="numeric_strings_object"
)


ACCIDENTAL += cases_for(ALL, (Y, [[0.1], [0.2, 0.3], [0.4], [0.5]]), id_="ragged_score_list")
ACCIDENTAL += cases_for(ALL, (Y, {0.1, 0.2, 0.3, 0.4}), id_="set_scores")
ACCIDENTAL += cases_for(ALL, (Y, np.array(S, dtype=[("f", float)])), id_="structured_dtype_scores")


@pytest.mark.parametrize("name,args,kwargs", ACCIDENTAL)
def test_accidental_sklearn_error_paths(name, args, kwargs):
    check_against_sklearn(name, *args, **kwargs)


# --------------------------------------------------------------------------
# roc_auc_score with max_fpr when the weighted data holds one class only:
# sklearn's one-class check looks at unweighted y_true, then roc_curve sees no
# negatives (fpr all NaN) and auc() raises on a single point.


@pytest.mark.parametrize(
    "y_true,y_score,w",
    [
        ([1, 0], [0.0, 0.0], [0.25, 0.0]),
        ([1, 0, 1], [0.0, 1.0, 2.0], [1.0, 0.0, 1.0]),
        ([1, 0], [0.0, 0.0], [0.0, 0.25]),
        ([1, 0, 0], [0.0, 1.0, 2.0], [0.0, 0.25, 1.0]),
    ],
    ids=["pos_only_tied", "pos_only_distinct", "neg_only_tied", "neg_only_distinct"],
)
@pytest.mark.parametrize("max_fpr", [None, 0.5, 1.0])
def test_roc_auc_max_fpr_weights_leave_one_class(y_true, y_score, w, max_fpr):
    check_against_sklearn(
        "roc_auc_score", np.array(y_true), np.array(y_score), sample_weight=np.array(w), max_fpr=max_fpr
    )


# --------------------------------------------------------------------------
# multiclass: sklearn's earlier checks first, then NotImplementedError

MC_Y = np.array([0, 1, 2, 1, 0, 2])
MC_S = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6]])

MC_SKLEARN = [
    pytest.param("roc_auc_score", (MC_Y, MC_S), {}, id="auc_multi_class_raise"),
    pytest.param("roc_auc_score", (MC_Y, MC_S[:, 0]), {}, id="auc_multi_class_raise_1d"),
    pytest.param("roc_auc_score", (MC_Y, MC_S), dict(max_fpr=0.5), id="auc_max_fpr"),
    pytest.param("roc_auc_score", (MC_Y, MC_S), dict(max_fpr=0.5, multi_class="ovr"), id="auc_max_fpr_ovr"),
    pytest.param("roc_auc_score", (MC_Y, MC_S), dict(average="foo", multi_class="ovr"), id="auc_invalid_average"),
    pytest.param("roc_auc_score", (MC_Y, MC_S), dict(multi_class="bar"), id="auc_invalid_multi_class"),
    # binary y_true but more than two score columns is treated as multiclass
    pytest.param("roc_auc_score", (np.array([0, 1, 1, 0, 1, 0]), MC_S), {}, id="auc_binary_3col"),
    pytest.param(
        "roc_auc_score", (np.array([0, 1, 1, 0, 1, 0]), MC_S), dict(max_fpr=0.3), id="auc_binary_3col_max_fpr"
    ),
    pytest.param("average_precision_score", (MC_Y, MC_S), dict(pos_label=2), id="ap_pos_label"),
    pytest.param("average_precision_score", (MC_Y, MC_S), dict(pos_label=0), id="ap_pos_label_0"),
    pytest.param("average_precision_score", (MC_Y, MC_S), dict(average="foo"), id="ap_invalid_average"),
]


@pytest.mark.parametrize("name,args,kwargs", MC_SKLEARN)
def test_multiclass_checks_that_precede_computation(name, args, kwargs):
    check_against_sklearn(name, *args, **kwargs)


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("roc_auc_score", dict(multi_class="ovr")),
        ("roc_auc_score", dict(multi_class="ovo")),
        ("roc_auc_score", dict(multi_class="ovr", average="weighted")),
        ("roc_auc_score", dict(multi_class="ovr", max_fpr=1.0)),
        ("average_precision_score", {}),
        ("average_precision_score", dict(average=None)),
        ("average_precision_score", dict(pos_label=1)),
    ],
)
@pytest.mark.parametrize("labels", ["int", "str"])
def test_multiclass_matches_sklearn(name, kwargs, labels):
    y = MC_Y if labels == "int" else np.array(["x", "y", "z"])[MC_Y]
    check_against_sklearn(name, y, MC_S, **kwargs)


# --------------------------------------------------------------------------
# one-class inputs: values and warnings


@pytest.mark.parametrize("y_true", [[1, 1, 1], [0, 0, 0], [-1, -1, -1]])
@pytest.mark.parametrize("drop", [True, False])
def test_roc_curve_one_class_nan_arrays(y_true, drop):
    _sk, got = check_against_sklearn("roc_curve", np.array(y_true), np.array([0.1, 0.5, 0.2]), drop_intermediate=drop)
    fpr, tpr, _ = got.value
    assert np.isnan(fpr).all() != np.isnan(tpr).all()
    assert [c.__name__ for c, _ in got.warnings] == ["UndefinedMetricWarning"]
    assert issubclass(got.warnings[0][0], UserWarning)


def test_roc_auc_one_class_warns_undefined_metric():
    with pytest.warns(UserWarning, match="Only one class is present in y_true") as rec:
        value = tm.roc_auc_score([1, 1, 1], [0.1, 0.5, 0.2])
    assert np.isnan(value)
    assert [type(w.message).__name__ for w in rec] == ["UndefinedMetricWarning"]


def test_det_curve_one_class_raises():
    with pytest.raises(ValueError, match=r"Only one class is present in y_true. Detection error"):
        tm.det_curve([0, 0, 0], [0.1, 0.5, 0.2])


def test_precision_recall_curve_no_positive_warns():
    with pytest.warns(UserWarning, match="No positive class found in y_true") as rec:
        p, r, _t = tm.precision_recall_curve([0, 0, 0], [0.1, 0.5, 0.2])
    assert len(rec) == 1
    np.testing.assert_array_equal(r, [1.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(p, [0.0, 0.0, 0.0, 1.0])


# --------------------------------------------------------------------------
# confusion_matrix_at_thresholds: positional pos_label is deprecated


def test_confusion_matrix_positional_pos_label_future_warning():
    check_against_sklearn("confusion_matrix_at_thresholds", Y, S, 1)
    check_against_sklearn("confusion_matrix_at_thresholds", Y, S, 1, None)
    check_against_sklearn("confusion_matrix_at_thresholds", np.array(["a", "b", "b", "a"]), S, "a")


@pytest.mark.parametrize(
    "name,args,kwargs",
    [
        pytest.param("roc_curve", (Y, S, 1), {}, id="roc_curve-3_positional"),
        pytest.param("precision_recall_curve", (Y, S, 1), {}, id="precision_recall_curve-3_positional"),
        pytest.param("det_curve", (Y, S, 1), {}, id="det_curve-positional_pos_label_ok"),
        pytest.param("roc_auc_score", (Y, S, "macro"), {}, id="roc_auc_score-3_positional"),
        pytest.param("average_precision_score", (Y, S, "macro"), {}, id="average_precision_score-3_positional"),
        pytest.param("roc_auc_score", (Y, S), dict(pos_label=1), id="roc_auc_score-unexpected_kwarg"),
        pytest.param("roc_curve", (Y, S), dict(average="macro"), id="roc_curve-unexpected_kwarg"),
        pytest.param("roc_curve", (Y,), {}, id="roc_curve-missing_y_score"),
        pytest.param("confusion_matrix_at_thresholds", (Y, S, 1, None, "extra"), {}, id="cm-5_positional"),
    ],
)
def test_call_signature_errors(name, args, kwargs):
    # sklearn's validate_params binds the call with inspect.Signature.bind,
    # whose TypeError messages have no function-name prefix.
    check_against_sklearn(name, *args, **kwargs)


# --------------------------------------------------------------------------
# validation of inputs large enough for the parallel scans (finite check,
# label scan): one bad element anywhere must be found


_BIG_N = (1 << 17) + 3
_BIG_RNG = np.random.default_rng(123)
_BIG_Y = _BIG_RNG.integers(0, 2, _BIG_N)
_BIG_S = _BIG_RNG.random(_BIG_N)
_BIG_W = _BIG_RNG.random(_BIG_N)


def _big_variant(kind, pos):
    y, s, kw = _BIG_Y, _BIG_S, {}
    if kind == "nan_score":
        s = s.copy()
        s[pos] = NAN
    elif kind == "neginf_score_f32":
        s = s.astype(np.float32)
        s[pos] = -INF
    elif kind == "nan_weight":
        w = _BIG_W.copy()
        w[pos] = NAN
        kw["sample_weight"] = w
    elif kind == "third_class":
        y = y.copy()
        y[pos] = 2
    elif kind == "continuous_label":
        y = y.astype(float)
        y[pos] = 0.5
    elif kind == "single_positive":
        y = np.zeros(_BIG_N, dtype=int)
        y[pos] = 1
    elif kind == "minus_one_label":
        y = np.zeros(_BIG_N, dtype=int)
        y[pos] = -1
    return y, s, kw


@pytest.mark.parametrize("pos", [0, _BIG_N // 2, _BIG_N - 1])
@pytest.mark.parametrize(
    "kind",
    [
        "nan_score",
        "neginf_score_f32",
        "nan_weight",
        "third_class",
        "continuous_label",
        "single_positive",
        "minus_one_label",
    ],
)
@pytest.mark.parametrize("name", ["roc_curve", "roc_auc_score", "average_precision_score"])
def test_large_input_validation(name, kind, pos):
    y, s, kw = _big_variant(kind, pos)
    check_against_sklearn(name, y, s, copy_inputs=False, **kw)
