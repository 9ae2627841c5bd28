"""``turbometrics coco``: the summary, JSON, per-category table and exit
codes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from coco_helpers import DATA, both, fixture
from turbometrics.cli import main

GT = str(DATA / "instances_val2014_100.json")
BOXES = str(DATA / "instances_val2014_fakebbox100_results.json")


def test_builtin_example_prints_twelve_summary_lines(capsys):
    assert main(["coco"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sum(line.startswith(" Average") for line in out) == 12
    assert "built-in example" in out[-1]


def test_json_stats_equal_pycocotools(capsys):
    pytest.importorskip("pycocotools")
    reference, _ = both(
        fixture("instances_val2014_100.json"), fixture("instances_val2014_fakebbox100_results.json"), "bbox"
    )
    assert main(["coco", GT, BOXES, "--json", "--per-category"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report["stats"].values()) == [float(v) for v in reference.stats]
    assert report["source"] == [GT, BOXES]
    assert set(report["per_category"]["1"]) == {"name", "AP", "AP50", "AP75", "AR100"}


def test_per_category_table(capsys):
    assert main(["coco", GT, BOXES, "--per-category"]) == 0
    out = capsys.readouterr().out
    assert "category" in out and "person" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["coco", GT], "give both"),
        (["coco", "missing.json", BOXES], "missing.json"),
        (["coco", "--iou-type", "segm"], "boxes only"),
    ],
)
def test_bad_usage_exits_2_with_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_results_for_unknown_images_exit_2(tmp_path, capsys):
    results = fixture("instances_val2014_fakebbox100_results.json")[:3]
    results[1]["image_id"] = 999999999
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    assert main(["coco", GT, str(path)]) == 2
    err = capsys.readouterr().err
    assert "result 1 has image_id 999999999" in err


DEEP = "[" * 100_000 + "]" * 100_000


def _one_error_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("turbometrics: error: "), err
    return err[0]


@pytest.mark.parametrize("side", ["ground truth", "results"])
def test_deeply_nested_json_exits_2_with_one_line(tmp_path, capsys, side):
    path = tmp_path / "deep.json"
    if side == "ground truth":
        text = (DATA / "instances_val2014_100.json").read_text()
        path.write_text(text.replace('"info": {', f'"deep": {DEEP}, "info": {{', 1))
        argv = ["coco", str(path), BOXES]
    else:
        path.write_text(DEEP)
        argv = ["coco", GT, str(path)]
    assert main(argv) == 2
    assert f"{path}: the JSON is nested too deeply" in _one_error_line(capsys)


@pytest.mark.parametrize("key", ["images", "annotations", "categories"])
def test_ground_truth_without_a_top_level_key_is_named(tmp_path, capsys, key):
    dataset = fixture("instances_val2014_100.json")
    del dataset[key]
    path = tmp_path / "gt.json"
    path.write_text(json.dumps(dataset))
    assert main(["coco", str(path), BOXES]) == 2
    assert f"not a COCO ground truth: it has no '{key}'" in _one_error_line(capsys)


@pytest.mark.parametrize("key", ["width", "height"])
def test_image_size_given_as_a_string_is_named(tmp_path, capsys, key):
    dataset = fixture("instances_val2014_100.json")
    image = dataset["images"][0]
    image[key] = str(image[key])
    path = tmp_path / "gt.json"
    path.write_text(json.dumps(dataset))
    masks = str(DATA / "instances_val2014_fakesegm100_results.json")
    assert main(["coco", str(path), masks, "--iou-type", "segm"]) == 2
    line = _one_error_line(capsys)
    assert f"its image {image['id']} has {key} '{image[key]}': an integer is required" in line


@pytest.mark.parametrize(
    "results, gt, iou_type",
    [
        ("keypoints_dt.json", "keypoints_gt.json", "keypoints"),
        ("instances_val2014_fakesegm100_results.json", "instances_val2014_100.json", "segm"),
        ("instances_val2014_fakebbox100_results.json", "instances_val2014_100.json", "bbox"),
    ],
)
def test_iou_type_is_inferred_from_the_results(capsys, results, gt, iou_type):
    pytest.importorskip("pycocotools")
    reference, _ = both(fixture(gt), fixture(results), iou_type)
    assert main(["coco", str(DATA / gt), str(DATA / results), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["iou_type"] == iou_type
    assert list(report["stats"].values()) == [float(v) for v in reference.stats]


def test_keypoints_asked_of_results_without_keypoints_is_refused(capsys):
    assert main(["coco", GT, BOXES, "--iou-type", "keypoints"]) == 2
    line = _one_error_line(capsys)
    assert "--iou-type keypoints needs 'keypoints' in the results" in line and BOXES in line


def test_explicit_iou_type_wins(capsys):
    assert (
        main(["coco", str(DATA / "keypoints_gt.json"), str(DATA / "keypoints_dt.json"), "--iou-type", "bbox", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["iou_type"] == "bbox"


def test_masks_of_another_size_are_evaluated_with_one_warning_line(tmp_path, capsys):
    from turbometrics.coco import mask

    results = fixture("instances_val2014_fakesegm100_results.json")[:30]
    rle = mask.encode(np.asfortranarray(np.ones((10, 10), dtype=np.uint8)))
    results[4]["segmentation"] = {"size": rle["size"], "counts": rle["counts"].decode()}
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    assert main(["coco", GT, str(path)]) == 0
    captured = capsys.readouterr()
    assert sum(line.startswith(" Average") for line in captured.out.splitlines()) == 12
    err = captured.err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("turbometrics: warning: 1 result has a mask of another size than its image")


@pytest.mark.parametrize(
    "side, content, message",
    [
        ("results", b"", "empty file"),
        ("results", b"  \n", "empty file"),
        (
            "results",
            b'[{"image_id": 1, "category_id": 1, "bbox": [0, 0, 1, 1], "score": 0.5, "x": "\xff"}]',
            "not UTF-8",
        ),
        ("results", b"[{]", "not JSON (Expecting property name enclosed in double quotes at line 1 column 3)"),
        ("ground truth", b"", "empty file"),
        ("ground truth", b'{"images": [], "x": "\xe9"}', "not UTF-8 text (byte 0xe9 at offset 21)"),
    ],
)
def test_unreadable_json_names_the_file(tmp_path, capsys, side, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    argv = ["coco", str(path), BOXES] if side == "ground truth" else ["coco", GT, str(path)]
    assert main(argv) == 2
    line = _one_error_line(capsys)
    assert line.startswith(f"turbometrics: error: {path}: ") and message in line


def test_a_list_as_image_id_names_the_file_and_the_field(tmp_path, capsys):
    results = fixture("instances_val2014_fakebbox100_results.json")[:3]
    results[1]["image_id"] = [results[1]["image_id"]]
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    assert main(["coco", GT, str(path)]) == 2
    line = _one_error_line(capsys)
    assert f"{path}: result 1: 'image_id' must be an image id (a number), got [" in line
