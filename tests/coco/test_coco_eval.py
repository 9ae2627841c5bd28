"""COCOeval against pycocotools 2.0.11: the real fixtures, synthetic sets
from hypothesis, and one test per rule of pycocotools' semantics."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, strategies as st

from coco_helpers import assert_same_evaluation, both, fixture, quiet

pytest.importorskip("pycocotools")

from turbometrics.coco import COCO, COCOeval

INSTANCES = fixture("instances_val2014_100.json")
BBOX_RESULTS = fixture("instances_val2014_fakebbox100_results.json")
SEGM_RESULTS = fixture("instances_val2014_fakesegm100_results.json")
KEYPOINTS_GT = fixture("keypoints_gt.json")
KEYPOINTS_DT = fixture("keypoints_dt.json")


def use_cats_off(p):
    p.useCats = 0


def custom(p):
    p.iouThrs = np.array([0.3, 0.5, 0.75, 0.9])
    p.recThrs = np.linspace(0, 1, 11)
    p.maxDets = [1, 5, 50]
    p.areaRng = [[0, 1e10], [0, 2000], [1024, 50000], [9216, 1e10]]


def subset(p):
    p.imgIds = p.imgIds[::3]
    p.catIds = p.catIds[1::2]


TWEAKS = {"default": None, "useCats=0": use_cats_off, "custom": custom, "subset": subset}


@pytest.mark.parametrize("tweak", TWEAKS.values(), ids=TWEAKS.keys())
def test_bbox_fixture(tweak):
    assert_same_evaluation(*both(INSTANCES, BBOX_RESULTS, "bbox", tweak))


@pytest.mark.parametrize("tweak", TWEAKS.values(), ids=TWEAKS.keys())
def test_segm_fixture(tweak):
    assert_same_evaluation(*both(INSTANCES, SEGM_RESULTS, "segm", tweak))


def test_segm_of_box_results():
    # box results evaluated as masks: loadRes gives each a box polygon
    assert_same_evaluation(*both(INSTANCES, BBOX_RESULTS, "segm"))


@pytest.mark.parametrize("tweak", TWEAKS.values(), ids=TWEAKS.keys())
def test_keypoints_fixture(tweak):
    if tweak is custom:

        def tweak(p):  # keypoint area labels are all, medium, large
            p.iouThrs = np.array([0.3, 0.5, 0.75, 0.9])
            p.recThrs = np.linspace(0, 1, 11)
            p.maxDets = [5]
            p.areaRng = [[0, 1e10], [1024, 50000], [9216, 1e10]]

    assert_same_evaluation(*both(KEYPOINTS_GT, KEYPOINTS_DT, "keypoints", tweak))


def test_accepts_pycocotools_objects():
    from pycocotools.coco import COCO as ReferenceCOCO

    reference, _ = both(INSTANCES, BBOX_RESULTS, "bbox")
    gt = ReferenceCOCO()
    gt.dataset = copy.deepcopy(INSTANCES)
    quiet(gt.createIndex)
    dt = quiet(lambda: gt.loadRes(copy.deepcopy(BBOX_RESULTS)))
    ours = COCOeval(gt, dt, "bbox")
    quiet(lambda: (ours.evaluate(), ours.accumulate(), ours.summarize()))
    assert_same_evaluation(reference, ours)


def test_thread_count_does_not_change_results():
    _, one = both(INSTANCES, BBOX_RESULTS, "bbox", n_threads=1)
    _, two = both(INSTANCES, BBOX_RESULTS, "bbox", n_threads=2)
    assert_same_evaluation(one, two, per_image=False)


# -- synthetic sets ---------------------------------------------------------------

coordinates = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0, 10.0, 31.5, 32.0, 40.0])
sizes = st.sampled_from([0.0, 1.0, 2.0, 4.0, 8.0, 32.0, 40.0])


@st.composite
def coco_sets(draw, crowd=True):
    """A small ground truth and results: few distinct boxes and scores, so
    IoU ties, score ties within and across images, area-range boundaries
    (1024, 9216), zero-size boxes, crowds, empty images and categories."""
    n_images = draw(st.integers(1, 4))
    n_categories = draw(st.integers(1, 3))
    images = [{"id": i + 1, "width": 100, "height": 100} for i in range(n_images)]
    categories = [{"id": c + 1, "name": str(c + 1)} for c in range(n_categories)]
    annotations = []
    for ann_id in range(draw(st.integers(0, 10))):
        box = [draw(coordinates), draw(coordinates), draw(sizes), draw(sizes)]
        area = draw(st.sampled_from([box[2] * box[3], 1024.0, 9216.0, 500.0, 0.0]))
        annotations.append(
            {
                "id": ann_id + draw(st.sampled_from([0, 1, 1, 1])),
                "image_id": draw(st.integers(1, n_images)),
                "category_id": draw(st.integers(1, n_categories)),
                "bbox": box,
                "area": area,
                "iscrowd": int(crowd and draw(st.integers(0, 5)) == 0),
            }
        )
    results = []
    for _ in range(draw(st.integers(0, 14))):
        results.append(
            {
                "image_id": draw(st.integers(1, n_images)),
                "category_id": draw(st.integers(1, n_categories)),
                "bbox": [draw(coordinates), draw(coordinates), draw(sizes), draw(sizes)],
                "score": draw(st.sampled_from([0.1, 0.5, 0.5, 0.9, 1.0])),
            }
        )
    dataset = {"images": images, "categories": categories, "annotations": annotations}
    return dataset, results


def _has_results(results):
    return len(results) > 0  # pycocotools cannot load an empty result list


@given(coco_sets(), st.sampled_from(list(TWEAKS)))
def test_synthetic_bbox_sets(data, tweak):
    dataset, results = data
    if not _has_results(results):
        return
    tweak_function = TWEAKS[tweak]
    if tweak == "subset":

        def tweak_function(p):
            p.imgIds = p.imgIds[::2]

    reference, ours = both(dataset, results, "bbox", tweak_function)
    assert_same_evaluation(reference, ours)


@given(coco_sets(), st.integers(1, 3))
def test_synthetic_small_max_dets(data, max_det):
    dataset, results = data
    if not _has_results(results):
        return

    def tweak(p):
        p.maxDets = [max_det, max_det + 1, 100]

    assert_same_evaluation(*both(dataset, results, "bbox", tweak))


# -- rules, one at a time ---------------------------------------------------------


def _dataset(annotations, n_images=1, n_categories=1):
    return {
        "images": [{"id": i + 1, "width": 100, "height": 100} for i in range(n_images)],
        "categories": [{"id": c + 1, "name": str(c + 1)} for c in range(n_categories)],
        "annotations": annotations,
    }


def _gt(ann_id, box, image=1, category=1, iscrowd=0, area=None, **extra):
    return dict(
        id=ann_id,
        image_id=image,
        category_id=category,
        bbox=box,
        area=box[2] * box[3] if area is None else area,
        iscrowd=iscrowd,
        **extra,
    )


def _dt(box, score, image=1, category=1):
    return dict(image_id=image, category_id=category, bbox=box, score=score)


def test_area_bounds_are_inclusive():
    dataset = _dataset([_gt(1, [0, 0, 32, 32]), _gt(2, [50, 50, 10, 10], area=9216)])
    results = [_dt([0, 0, 32, 32], 0.9), _dt([50, 50, 10, 10], 0.8)]
    reference, ours = both(dataset, results, "bbox")
    assert_same_evaluation(reference, ours)
    # area 1024 is both small and medium
    assert ours.eval["recall"][0, 0, 1, 2] == 1.0 and ours.eval["recall"][0, 0, 2, 2] == 1.0


def test_user_ignore_field_is_overwritten_by_iscrowd():
    dataset = _dataset([_gt(1, [0, 0, 20, 20], ignore=1), _gt(2, [40, 40, 20, 20], iscrowd=1)])
    results = [_dt([0, 0, 20, 20], 0.9), _dt([40, 40, 10, 10], 0.8)]
    reference, ours = both(dataset, results, "bbox")
    assert_same_evaluation(reference, ours)
    assert ours.eval["recall"][0, 0, 0, 2] == 1.0


def test_later_ground_truth_wins_an_iou_tie():
    dataset = _dataset([_gt(1, [0, 0, 10, 10]), _gt(2, [0, 0, 10, 10])])
    results = [_dt([0, 0, 10, 10], 0.9)]
    reference, ours = both(dataset, results, "bbox")
    assert_same_evaluation(reference, ours)
    assert ours.evalImgs[0]["dtMatches"][0, 0] == 2


def test_crowd_is_matched_many_times_and_its_union_is_the_detection():
    dataset = _dataset([_gt(1, [0, 0, 50, 50], iscrowd=1)])
    results = [_dt([0, 0, 10, 10], 0.9), _dt([20, 20, 10, 10], 0.8), _dt([0, 0, 40, 40], 0.7)]
    reference, ours = both(dataset, results, "bbox")
    assert_same_evaluation(reference, ours)
    assert ours.ious[(1, 1)][0, 0] == 1.0
    assert list(ours.evalImgs[0]["dtMatches"][0]) == [1, 1, 1]


def test_ground_truth_with_id_zero_counts_as_unmatched():
    dataset = _dataset([_gt(0, [0, 0, 10, 10]), _gt(5, [50, 50, 10, 10])])
    results = [_dt([0, 0, 10, 10], 0.9), _dt([0, 0, 10, 10], 0.8), _dt([50, 50, 10, 10], 0.7)]
    assert_same_evaluation(*both(dataset, results, "bbox"))


def test_score_ties_break_by_image_order_then_input_order():
    dataset = _dataset([_gt(1, [0, 0, 10, 10], image=2), _gt(2, [0, 0, 10, 10], image=1)], n_images=2)
    results = [
        _dt([50, 50, 10, 10], 0.5, image=2),
        _dt([0, 0, 10, 10], 0.5, image=2),
        _dt([0, 0, 10, 10], 0.5, image=1),
        _dt([60, 60, 10, 10], 0.5, image=1),
    ]
    assert_same_evaluation(*both(dataset, results, "bbox"))


def test_zero_size_boxes_have_zero_iou():
    dataset = _dataset([_gt(1, [0, 0, 0, 10]), _gt(2, [0, 0, 10, 10])])
    results = [_dt([0, 0, 0, 10], 0.9), _dt([5, 5, 0, 0], 0.8)]
    reference, ours = both(dataset, results, "bbox")
    assert_same_evaluation(reference, ours)


def test_stats_zero_reads_max_dets_100_literally():
    def tweak(p):
        p.maxDets = [1, 10, 50]

    reference, ours = both(INSTANCES, BBOX_RESULTS, "bbox", tweak)
    assert_same_evaluation(reference, ours, per_image=False)
    assert ours.stats[0] == -1


def test_empty_category_and_image_give_minus_one():
    dataset = _dataset([_gt(1, [0, 0, 10, 10], category=1)], n_images=2, n_categories=3)
    results = [_dt([0, 0, 10, 10], 0.9, category=2, image=2)]
    reference, ours = both(dataset, results, "bbox")
    assert_same_evaluation(reference, ours)
    assert (ours.eval["precision"][:, :, 2] == -1).all()


def test_accumulate_with_changed_params_reads_evalimgs_like_pycocotools():
    def run(coco_class, eval_class):
        from coco_helpers import build

        gt = build(coco_class, INSTANCES)
        dt = quiet(lambda: gt.loadRes(copy.deepcopy(BBOX_RESULTS)))
        evaluation = eval_class(gt, dt, "bbox")
        quiet(evaluation.evaluate)
        p = copy.deepcopy(evaluation.params)
        p.catIds = p.catIds[5:]
        p.imgIds = p.imgIds[10:]
        p.maxDets = [10, 100]
        quiet(lambda: evaluation.accumulate(p))
        return evaluation.eval

    from pycocotools.coco import COCO as ReferenceCOCO
    from pycocotools.cocoeval import COCOeval as ReferenceCOCOeval

    a, b = run(ReferenceCOCO, ReferenceCOCOeval), run(COCO, COCOeval)
    for key in ("precision", "recall", "scores"):
        assert np.array_equal(a[key], b[key])


# -- bad input --------------------------------------------------------------------


@pytest.mark.parametrize("key", ["image_id", "category_id", "bbox"])
def test_result_missing_a_field_is_named(key):
    gt = COCO()
    gt.dataset = copy.deepcopy(INSTANCES)
    quiet(gt.createIndex)
    results = copy.deepcopy(BBOX_RESULTS[:5])
    del results[3][key]
    with pytest.raises(ValueError, match=f"result 3 .*'{key}'"):
        quiet(lambda: gt.loadRes(results))


def test_result_for_unknown_image_is_named():
    gt = COCO()
    gt.dataset = copy.deepcopy(INSTANCES)
    quiet(gt.createIndex)
    results = copy.deepcopy(BBOX_RESULTS[:5])
    results[2]["image_id"] = 123456789
    with pytest.raises(AssertionError, match="result 2 has image_id 123456789"):
        quiet(lambda: gt.loadRes(results))


@pytest.mark.parametrize("box, error", [(["a", 0, 1, 1], TypeError), ([0, 0, 1], ValueError), (None, TypeError)])
def test_bad_result_boxes_are_named(box, error):
    # negative sizes, NaN and bools are evaluated, as pycocotools does (tests/coco/test_coco_hostile_fields.py)
    gt = COCO()
    gt.dataset = copy.deepcopy(INSTANCES)
    quiet(gt.createIndex)
    results = copy.deepcopy(BBOX_RESULTS[:5])
    results[4]["bbox"] = box
    with pytest.raises(error, match="result 4"):
        quiet(lambda: gt.loadRes(results))


def _segm_evaluation(results):
    gt = COCO()
    gt.dataset = copy.deepcopy(INSTANCES)
    quiet(gt.createIndex)
    dt = quiet(lambda: gt.loadRes(results))
    return COCOeval(gt, dt, "segm")


def test_malformed_rle_result_is_named_by_load_res():
    results = copy.deepcopy(SEGM_RESULTS[:6])
    results[4]["segmentation"]["counts"] = "\x7f\x7f" + results[4]["segmentation"]["counts"]
    with pytest.raises(ValueError, match=r"result 4: malformed segmentation"):
        _segm_evaluation(results)


def test_malformed_rle_ground_truth_is_named():
    dataset = copy.deepcopy(INSTANCES)
    crowd = next(i for i, a in enumerate(dataset["annotations"]) if a["iscrowd"])
    rle = dataset["annotations"][crowd]["segmentation"]
    from turbometrics.coco import mask

    compressed = mask.frPyObjects(rle, *rle["size"])
    dataset["annotations"][crowd]["segmentation"] = {
        "size": rle["size"],
        "counts": "~~" + compressed["counts"].decode(),
    }
    gt = COCO()
    gt.dataset = dataset
    quiet(gt.createIndex)
    evaluation = COCOeval(gt, quiet(lambda: gt.loadRes(copy.deepcopy(SEGM_RESULTS))), "segm")
    with pytest.raises(
        ValueError,
        match=rf"ground-truth annotation \d+ \(id {dataset['annotations'][crowd]['id']}\)"
        r".*malformed RLE",
    ):
        quiet(evaluation.evaluate)


def test_rle_counts_that_do_not_cover_the_mask_are_named():
    results = copy.deepcopy(SEGM_RESULTS[:6])
    results[2]["bbox"] = [0, 0, 1, 1]  # loadRes would otherwise reject the RLE itself
    from turbometrics.coco import mask

    rle = results[2]["segmentation"]
    short = mask.frPyObjects({"size": rle["size"], "counts": [5, 5]}, *rle["size"])  # covers 10 pixels
    rle["counts"] = short["counts"].decode()
    evaluation = _segm_evaluation(results)
    with pytest.raises(ValueError, match=r"result 2 .*malformed RLE"):
        quiet(evaluation.evaluate)


def _masks_of_other_sizes():
    """Segm results whose RLE sizes differ from their images' (MMDetection's
    tests evaluate such masks with pycocotools)."""
    from turbometrics.coco import mask

    results = copy.deepcopy(SEGM_RESULTS[:40])
    for row, (h, w) in ((1, (1, 0)), (2, (10, 10)), (7, (0, 1))):
        height, width = results[row]["segmentation"]["size"]
        rle = mask.encode(np.asfortranarray(np.ones((height + h, width + w), dtype=np.uint8)))
        results[row]["segmentation"] = {"size": rle["size"], "counts": rle["counts"].decode()}
    results[2]["segmentation"] = mask.encode(np.asfortranarray(np.ones((10, 10), dtype=np.uint8)))
    results[2]["segmentation"]["counts"] = results[2]["segmentation"]["counts"].decode()
    return results


def test_mask_of_another_size_than_its_image_is_evaluated_as_pycocotools_does():
    results = _masks_of_other_sizes()
    first = r"first: result 1 \(id 2\): the mask is 641x565 but its image 73 is 640x565"
    with pytest.warns(UserWarning, match=r"3 results have a mask of another size .*" + first):
        reference, ours = both(INSTANCES, results, "segm")
    assert_same_evaluation(reference, ours)


def test_mask_of_another_size_under_patch_pycocotools():
    import pycocotools.cocoeval
    from pycocotools.coco import COCO as ReferenceCOCO

    import turbometrics.coco as tc
    from coco_helpers import evaluate

    results = _masks_of_other_sizes()
    reference = evaluate(ReferenceCOCO, pycocotools.cocoeval.COCOeval, INSTANCES, results, "segm")
    with tc.patch_pycocotools(), pytest.warns(UserWarning, match="another size"):
        patched = evaluate(ReferenceCOCO, pycocotools.cocoeval.COCOeval, INSTANCES, results, "segm")
    assert isinstance(patched, tc.COCOeval)
    assert_same_evaluation(reference, patched)


def test_ground_truth_missing_area_is_named():
    dataset = copy.deepcopy(INSTANCES)
    del dataset["annotations"][7]["area"]
    gt = COCO()
    gt.dataset = dataset
    quiet(gt.createIndex)
    dt = quiet(lambda: gt.loadRes(copy.deepcopy(BBOX_RESULTS)))
    evaluation = COCOeval(gt, dt, "bbox")
    with pytest.raises(ValueError, match=r"ground-truth annotation .*'area'"):
        quiet(evaluation.evaluate)


def test_accumulate_before_evaluate_is_an_error():
    evaluation = COCOeval(None, None, "bbox")
    with pytest.raises(RuntimeError, match="evaluate"):
        quiet(evaluation.accumulate)


# -- beyond pycocotools -----------------------------------------------------------


def _accumulated():
    return both(INSTANCES, BBOX_RESULTS, "bbox")[1]


def test_results_per_category_match_the_eval_arrays():
    ours = _accumulated()
    table = ours.results_per_category(as_frame=False)
    precision, recall = ours.eval["precision"], ours.eval["recall"]
    for k, category_id in enumerate(ours.params.catIds):
        cells = precision[:, :, k, 0, -1]
        expected = np.mean(cells[cells > -1]) if (cells > -1).any() else -1
        assert table[category_id]["AP"] == expected
        cells = precision[0, :, k, 0, -1]
        assert table[category_id]["AP50"] == (np.mean(cells[cells > -1]) if (cells > -1).any() else -1)
        cells = recall[:, k, 0, -1]
        assert table[category_id]["AR100"] == (np.mean(cells[cells > -1]) if (cells > -1).any() else -1)
        assert table[category_id]["name"] == ours.cocoGt.cats[category_id]["name"]


def test_results_per_category_as_a_frame():
    pd = pytest.importorskip("pandas")
    frame = _accumulated().results_per_category()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["name", "AP", "AP50", "AP75", "AR100"]
    assert frame.index.name == "category_id"


def test_category_curve_reads_precision_and_scores():
    ours = _accumulated()
    k = 0
    category_id = ours.params.catIds[k]
    curve = ours.category_curve(category_id, iou_threshold=0.75)
    t = 5
    reached = ours.eval["recall"][t, k, 0, -1]
    n = int(np.count_nonzero(ours.params.recThrs <= reached))
    assert np.array_equal(curve["precision"], ours.eval["precision"][t, :n, k, 0, -1])
    assert np.array_equal(curve["scores"], ours.eval["scores"][t, :n, k, 0, -1])
    p, r = curve["precision"], curve["recall"]
    assert np.allclose(curve["f1"][r > 0], 2 * p[r > 0] * r[r > 0] / (p[r > 0] + r[r > 0]))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(category_id=12345), "not evaluated"),
        (dict(category_id=1, iou_threshold=0.33), "IoU threshold"),
        (dict(category_id=1, area="huge"), "area"),
        (dict(category_id=1, max_detections=7), "max_detections"),
    ],
)
def test_category_curve_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        _accumulated().category_curve(**kwargs)


def test_progress_bar(capsys):
    pytest.importorskip("tqdm")
    gt = COCO()
    gt.dataset = copy.deepcopy(INSTANCES)
    quiet(gt.createIndex)
    dt = quiet(lambda: gt.loadRes(copy.deepcopy(BBOX_RESULTS)))
    evaluation = COCOeval(gt, dt, "bbox")
    evaluation.evaluate(progress=True)
    assert "evaluate" in capsys.readouterr().err


# -- odd maxDets -------------------------------------------------------------------


def _run_steps(coco_class, eval_class, max_dets, accumulate_max_dets, iou_type):
    """evaluate and accumulate, then summarize: (evaluation, summarize's
    exception type or None)."""
    dataset, results = (KEYPOINTS_GT, KEYPOINTS_DT) if iou_type == "keypoints" else (INSTANCES, BBOX_RESULTS)
    gt = coco_class()
    gt.dataset = copy.deepcopy(dataset)
    quiet(gt.createIndex)
    evaluation = eval_class(gt, quiet(lambda: gt.loadRes(copy.deepcopy(results))), iou_type)
    evaluation.params.maxDets = list(max_dets)
    quiet(evaluation.evaluate)
    if accumulate_max_dets is not None:
        evaluation.params.maxDets = list(accumulate_max_dets)
    quiet(evaluation.accumulate)
    try:
        quiet(evaluation.summarize)
    except Exception as error:  # pycocotools indexes maxDets[2] for boxes
        return evaluation, type(error)
    return evaluation, None


@pytest.mark.parametrize(
    "max_dets, accumulate_max_dets, iou_type",
    [
        ([-1, 10, 100], None, "bbox"),
        ([0, 10, 100], None, "bbox"),
        ([1, 1, 100], None, "bbox"),
        ([100, 10, 1], None, "bbox"),
        ([1, 10, -5], None, "bbox"),
        ([2, -3, 100], None, "bbox"),
        ([-1], None, "bbox"),
        ([0], None, "bbox"),
        ([-3, -1], None, "bbox"),
        ([5, 5, 5], None, "bbox"),
        ([-1, 10, 100], [100, -1, 10, -1], "bbox"),
        ([-2, 20], None, "keypoints"),
        ([-1], None, "keypoints"),
    ],
)
def test_odd_max_dets_match_pycocotools(max_dets, accumulate_max_dets, iou_type):
    # pycocotools slices [0:maxDet]: a negative maxDet drops detections from the end of each image's list
    from pycocotools.coco import COCO as ReferenceCOCO
    from pycocotools.cocoeval import COCOeval as ReferenceCOCOeval

    reference, reference_error = _run_steps(ReferenceCOCO, ReferenceCOCOeval, max_dets, accumulate_max_dets, iou_type)
    ours, our_error = _run_steps(COCO, COCOeval, max_dets, accumulate_max_dets, iou_type)
    assert our_error is reference_error
    if reference_error is not None:
        reference.stats = ours.stats = []
    assert_same_evaluation(reference, ours)
