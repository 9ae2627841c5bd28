"""turbometrics.coco.COCO against pycocotools.coco.COCO: the lookup API,
loadRes in all three forms, and masks of annotations."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from coco_helpers import DATA, build, fixture, quiet

pytest.importorskip("pycocotools")

from pycocotools.coco import COCO as ReferenceCOCO

from turbometrics.coco import COCO

INSTANCES = fixture("instances_val2014_100.json")


def assert_same_annotations(ours, reference):
    assert len(ours) == len(reference)
    for a, b in zip(ours, reference):
        assert a.keys() == b.keys()
        for key in a:
            if isinstance(b[key], np.ndarray):
                assert isinstance(a[key], np.ndarray) and a[key].dtype == b[key].dtype
                assert np.array_equal(a[key], b[key])
            else:
                assert a[key] == b[key] and type(a[key]) is type(b[key]), key


@pytest.fixture(scope="module")
def pair():
    return build(ReferenceCOCO, INSTANCES), build(COCO, INSTANCES)


def test_lookups_agree(pair):
    reference, ours = pair
    image_ids = sorted(reference.getImgIds())[:7]
    category_ids = sorted(reference.getCatIds())[:5]
    assert ours.getAnnIds() == reference.getAnnIds()
    assert ours.getAnnIds(imgIds=image_ids) == reference.getAnnIds(imgIds=image_ids)
    assert ours.getAnnIds(imgIds=image_ids, catIds=category_ids) == reference.getAnnIds(
        imgIds=image_ids, catIds=category_ids
    )
    assert ours.getAnnIds(catIds=category_ids[0], iscrowd=False) == reference.getAnnIds(
        catIds=category_ids[0], iscrowd=False
    )
    assert ours.getAnnIds(areaRng=[100, 5000]) == reference.getAnnIds(areaRng=[100, 5000])
    assert ours.getAnnIds(imgIds=image_ids[0]) == reference.getAnnIds(imgIds=image_ids[0])
    assert ours.getCatIds() == reference.getCatIds()
    assert ours.getCatIds(catNms=["person", "dog"]) == reference.getCatIds(catNms=["person", "dog"])
    assert ours.getCatIds(supNms=["animal"]) == reference.getCatIds(supNms=["animal"])
    assert sorted(ours.getImgIds()) == sorted(reference.getImgIds())
    assert sorted(ours.getImgIds(catIds=[1])) == sorted(reference.getImgIds(catIds=[1]))
    assert sorted(ours.getImgIds(imgIds=image_ids, catIds=[1])) == sorted(
        reference.getImgIds(imgIds=image_ids, catIds=[1])
    )
    ids = reference.getAnnIds(imgIds=image_ids)
    assert ours.loadAnns(ids) == reference.loadAnns(ids)
    assert ours.loadAnns(ids[0]) == reference.loadAnns(ids[0])
    assert ours.loadCats(category_ids) == reference.loadCats(category_ids)
    assert ours.loadImgs(image_ids) == reference.loadImgs(image_ids)
    assert ours.loadImgs(image_ids[0]) == reference.loadImgs(image_ids[0])


def test_masks_of_annotations_agree(pair):
    reference, ours = pair
    for ann in reference.dataset["annotations"][::7]:
        a, b = reference.annToRLE(copy.deepcopy(ann)), ours.annToRLE(copy.deepcopy(ann))
        assert a == b
        assert np.array_equal(reference.annToMask(copy.deepcopy(ann)), ours.annToMask(copy.deepcopy(ann)))


@pytest.mark.parametrize(
    "name", ["instances_val2014_fakebbox100_results.json", "instances_val2014_fakesegm100_results.json"]
)
def test_load_res_from_a_path_equals_pycocotools(pair, name):
    reference, ours = pair
    a = quiet(lambda: reference.loadRes(str(DATA / name)))
    b = quiet(lambda: ours.loadRes(str(DATA / name)))
    assert_same_annotations(b.dataset["annotations"], a.dataset["annotations"])
    assert_same_annotations(list(b.anns.values()), list(a.anns.values()))
    assert b.dataset["images"] == a.dataset["images"]
    assert b.dataset["categories"] == a.dataset["categories"]
    assert sorted(b.getImgIds()) == sorted(a.getImgIds())


def test_load_res_from_a_list_and_an_array(pair):
    reference, ours = pair
    results = fixture("instances_val2014_fakebbox100_results.json")
    a = quiet(lambda: reference.loadRes(copy.deepcopy(results)))
    b = quiet(lambda: ours.loadRes(copy.deepcopy(results)))
    assert_same_annotations(b.dataset["annotations"], a.dataset["annotations"])
    rows = np.array([[r["image_id"], *r["bbox"], r["score"], r["category_id"]] for r in results])
    a = quiet(lambda: reference.loadRes(rows))
    b = quiet(lambda: ours.loadRes(rows))
    assert_same_annotations(b.dataset["annotations"], a.dataset["annotations"])


def test_keypoint_results_are_completed_as_pycocotools():
    reference, ours = build(ReferenceCOCO, fixture("keypoints_gt.json")), build(COCO, fixture("keypoints_gt.json"))
    results = fixture("keypoints_dt.json")
    a = quiet(lambda: reference.loadRes(copy.deepcopy(results)))
    b = quiet(lambda: ours.loadRes(copy.deepcopy(results)))
    assert_same_annotations(b.dataset["annotations"], a.dataset["annotations"])


def test_columnar_results_build_dicts_only_when_asked(pair):
    _, ours = pair
    results = quiet(lambda: ours.loadRes(str(DATA / "instances_val2014_fakebbox100_results.json")))
    assert results._columns is not None  # held as columns
    assert len(results.getImgIds()) == len(ours.getImgIds())
    assert len(results.anns) == len(fixture("instances_val2014_fakebbox100_results.json"))
    assert results._columns is None  # dicts built on first use


def test_file_constructor_and_empty_then_index():
    from_file = quiet(lambda: COCO(str(DATA / "instances_val2014_100.json")))
    empty = COCO()
    empty.dataset = copy.deepcopy(INSTANCES)
    quiet(empty.createIndex)
    assert from_file.anns == empty.anns and from_file.imgs == empty.imgs and from_file.cats == empty.cats
    assert dict(from_file.imgToAnns) == dict(empty.imgToAnns)
    assert dict(from_file.catToImgs) == dict(empty.catToImgs)


def test_params_is_the_detection_areas_and_old_pickles_of_it_load():
    """``Params`` lives in the detection area (turbometrics.detection) and
    keeps its public name here; a Params pickled when its module was
    turbometrics.coco._params still loads."""
    import pickle

    import turbometrics.coco
    import turbometrics.detection

    assert turbometrics.coco.Params is turbometrics.detection.Params
    params = turbometrics.coco.Params(iouType="segm")
    params.maxDets = [1, 10]
    today = pickle.dumps(params, protocol=0)
    assert b"turbometrics.detection._params" in today
    old = today.replace(b"turbometrics.detection._params", b"turbometrics.coco._params")
    loaded = pickle.loads(old)
    assert type(loaded) is turbometrics.coco.Params
    assert loaded.maxDets == [1, 10] and loaded.iouType == "segm"
    np.testing.assert_array_equal(loaded.iouThrs, params.iouThrs)
