"""``turbometrics segmentation GT PRED``: PNG and NPY label maps, folders
paired by name, the JSON and the table equal to turbometrics.segmentation's
functions on the same arrays, progress, and every error as one line with
exit code 2."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from turbometrics import segmentation
from turbometrics.cli import main

Image = pytest.importorskip("PIL.Image")

_METRICS = {
    "iou": segmentation.iou,
    "dice": segmentation.dice,
    "precision": segmentation.precision,
    "recall": segmentation.recall,
    "accuracy": segmentation.class_accuracy,
}


def _maps(seed: int, n: int, shape: tuple[int, int] = (7, 9), k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, (n, *shape)).astype(np.uint8)
    y_pred = np.where(rng.random(y_true.shape) < 0.3, rng.integers(0, k, y_true.shape), y_true).astype(np.uint8)
    return y_true, y_pred


def _save(path, values: np.ndarray, mode: str | None = None) -> None:
    if path.suffix == ".npy":
        np.save(path, values)
    elif mode == "P":
        image = Image.fromarray(values.astype(np.uint8), mode="L").convert("P")
        palette = np.random.default_rng(1).integers(0, 256, 768).astype(np.uint8)  # colors unlike the indices
        image.putpalette(palette.tolist())
        image.save(path)
    else:
        Image.fromarray(values).save(path)


def _folders(tmp_path, y_true, y_pred, gt_suffix=".png", pred_suffix=".npy", mode=None):
    gt, pred = tmp_path / "gt", tmp_path / "pred"
    gt.mkdir()
    pred.mkdir()
    for i, (t, p) in enumerate(zip(y_true, y_pred)):
        _save(gt / f"frame_{i:03d}{gt_suffix}", t, mode)
        _save(pred / f"frame_{i:03d}{pred_suffix}", p, mode)
    return str(gt), str(pred)


def _json(capsys, *argv) -> dict:
    assert main(["segmentation", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _scores(report: dict) -> dict:
    """The report's scores (the per-class ones without the pixel counts)."""
    per_class = {key: report["per_class"][key] for key in _METRICS}
    return {"per_class": per_class, "mean": report["mean"], "pixel_accuracy": report["pixel_accuracy"]}


def _expected(y_true, y_pred, **options) -> dict:
    per_class = {
        key: [None if np.isnan(v) else float(v) for v in f(y_true, y_pred, average=None, **options)]
        for key, f in _METRICS.items()
    }
    mean = {key: f(y_true, y_pred, **options) for key, f in _METRICS.items()}
    return {
        "per_class": per_class,
        "mean": {key: None if np.isnan(v) else v for key, v in mean.items()},
        "pixel_accuracy": segmentation.pixel_accuracy(y_true, y_pred, **options),
    }


@pytest.mark.bits
@pytest.mark.parametrize(
    "gt_suffix, pred_suffix, mode", [(".png", ".npy", None), (".npy", ".png", None), (".png", ".png", "P")]
)
def test_folders_json_equals_the_functions(tmp_path, capsys, gt_suffix, pred_suffix, mode):
    y_true, y_pred = _maps(0, 3)
    y_true[0, 0, :3] = 255
    gt, pred = _folders(tmp_path, y_true, y_pred, gt_suffix, pred_suffix, mode)
    report = _json(capsys, gt, pred, "--num-classes", "5", "--ignore-index", "255")
    expected = _expected(y_true, y_pred, num_classes=5, ignore_index=255)
    assert _scores(report) == expected
    assert report["per_class"]["iou"][4] is None  # class 4: no true and no predicted pixel: null
    counts = segmentation.confusion_matrix(y_true, y_pred, num_classes=5, ignore_index=255)
    assert report["per_class"]["true_pixels"] == counts.sum(axis=1).tolist()
    assert report["per_class"]["predicted_pixels"] == counts.sum(axis=0).tolist()
    assert (report["n_maps"], report["n_pixels"]) == (3, int(counts.sum()))


@pytest.mark.bits
def test_a_pair_of_files_16_bit_png_and_reduce_zero_label(tmp_path, capsys):
    y_true = np.array([[0, 1, 300], [300, 2, 1]], dtype=np.uint16)
    y_pred = np.array([[5, 0, 299], [299, 1, 0]], dtype=np.uint16)
    _save(tmp_path / "gt.png", y_true)
    np.save(tmp_path / "pred.npy", y_pred)
    with Image.open(tmp_path / "gt.png") as image:
        assert image.mode == "I;16"
    report = _json(
        capsys,
        str(tmp_path / "gt.png"),
        str(tmp_path / "pred.npy"),
        "--num-classes",
        "300",
        "--reduce-zero-label",
        "--ignore-index",
        "255",
    )
    expected = _expected(y_true, y_pred, num_classes=300, ignore_index=255, reduce_zero_label=True)
    assert _scores(report) == expected
    assert report["n_maps"] == 1 and report["n_pixels"] == 5


def test_table_has_a_row_per_class_and_the_means(tmp_path, capsys):
    y_true, y_pred = _maps(2, 2)
    gt, pred = _folders(tmp_path, y_true, y_pred)
    assert main(["segmentation", gt, pred, "--num-classes", "5", "--n-threads", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(out) if line.split()[:2] == ["class", "IoU"])
    rows = [line.split() for line in out[header + 2 : header + 7]]
    assert [row[0] for row in rows] == ["0", "1", "2", "3", "4"]
    iou = segmentation.iou(y_true, y_pred, num_classes=5, average=None)
    assert [row[1] for row in rows[:4]] == [f"{v:.4f}" for v in iou[:4]]
    assert rows[4][1:6] == ["-"] * 5  # class 4 is undefined
    mean = next(line.split() for line in out if line.strip().startswith("mean"))
    assert mean[1] == f"{segmentation.iou(y_true, y_pred, num_classes=5):.4f}"
    assert any(line.startswith("pixel accuracy:") for line in out)


def test_progress_lines_over_folders(tmp_path, capsys):
    y_true, y_pred = _maps(3, 3)
    gt, pred = _folders(tmp_path, y_true, y_pred, ".npy", ".npy")
    assert main(["segmentation", gt, pred, "--num-classes", "4", "--progress", "--progress-every", "0"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("turbometrics: progress: gt: 100% (3 maps of 3 maps), 189 pixels")
    assert len(err) == 3


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("turbometrics: error: "), err
    return err[0]


def _two_folders(tmp_path):
    y_true, y_pred = _maps(4, 2)
    return _folders(tmp_path, y_true, y_pred, ".npy", ".npy")


def _unmatched(tmp_path):
    gt, pred = _two_folders(tmp_path)
    np.save(tmp_path / "pred" / "extra.npy", np.zeros((7, 9), np.uint8))
    return [gt, pred], "pred/extra.npy has no match in"


def _missing(tmp_path):
    gt, pred = _two_folders(tmp_path)
    (tmp_path / "pred" / "frame_000.npy").unlink()
    return [gt, pred], "gt/frame_000.npy has no match in"


def _shapes(tmp_path):
    gt, pred = _two_folders(tmp_path)
    np.save(tmp_path / "pred" / "frame_001.npy", np.zeros((9, 7), np.uint8))
    return [gt, pred], "gt/frame_001.npy has shape (7, 9) but"


def _broken_png(tmp_path):
    (tmp_path / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n garbage")
    np.save(tmp_path / "b.npy", np.zeros((2, 2), np.uint8))
    return [str(tmp_path / "a.png"), str(tmp_path / "b.npy")], "a.png: "


def _broken_npy(tmp_path):
    (tmp_path / "a.npy").write_bytes(b"not numpy")
    np.save(tmp_path / "b.npy", np.zeros((2, 2), np.uint8))
    return [str(tmp_path / "a.npy"), str(tmp_path / "b.npy")], "a.npy: neither a PNG nor a .npy file"


def _float_map(tmp_path):
    np.save(tmp_path / "a.npy", np.zeros((2, 2), np.float32))
    np.save(tmp_path / "b.npy", np.zeros((2, 2), np.uint8))
    return [str(tmp_path / "a.npy"), str(tmp_path / "b.npy")], "a.npy: a map of float32; label maps hold integer"


def _out_of_range(tmp_path):
    gt, pred = _two_folders(tmp_path)
    values = np.zeros((7, 9), np.uint8)
    values[2, 3] = 9
    np.save(tmp_path / "pred" / "frame_001.npy", values)
    return [gt, pred], "pred/frame_001.npy holds label 9 at index (2, 3), which is outside [0, 5) (--num-classes 5)"


def _rgb_png(tmp_path):
    Image.fromarray(np.zeros((2, 2, 3), np.uint8)).save(tmp_path / "a.png")
    np.save(tmp_path / "b.npy", np.zeros((2, 2), np.uint8))
    return [str(tmp_path / "a.png"), str(tmp_path / "b.npy")], "a.png: a PNG of mode RGB (3 channels)"


def _empty_folder(tmp_path):
    (tmp_path / "gt").mkdir()
    (tmp_path / "pred").mkdir()
    (tmp_path / "gt" / "notes.txt").write_text("not a map")
    return [str(tmp_path / "gt"), str(tmp_path / "pred")], "gt: no label maps (.png or .npy files)"


def _file_and_folder(tmp_path):
    gt, _ = _two_folders(tmp_path)
    return [gt, str(tmp_path / "pred" / "frame_000.npy")], "is a folder but"


def _no_such_path(tmp_path):
    return [str(tmp_path / "nothing"), str(tmp_path / "nothing")], "nothing: no such file or folder"


def _twice(tmp_path):
    gt, pred = _two_folders(tmp_path)
    _save(tmp_path / "gt" / "frame_000.png", np.zeros((7, 9), np.uint8))
    return [gt, pred], "two label maps named 'frame_000'"


def _empty_map(tmp_path):
    np.save(tmp_path / "a.npy", np.zeros((0, 3), np.uint8))
    np.save(tmp_path / "b.npy", np.zeros((0, 3), np.uint8))
    return [str(tmp_path / "a.npy"), str(tmp_path / "b.npy")], "a.npy: an empty label map (shape (0, 3))"


def _other_suffix(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"")
    return [str(tmp_path / "a.jpg"), str(tmp_path / "a.jpg")], "a.jpg: unsupported file type '.jpg'"


@pytest.mark.parametrize(
    "case",
    [
        _unmatched,
        _missing,
        _shapes,
        _broken_png,
        _broken_npy,
        _float_map,
        _out_of_range,
        _rgb_png,
        _empty_folder,
        _file_and_folder,
        _no_such_path,
        _twice,
        _empty_map,
        _other_suffix,
    ],
)
def test_unusable_input_exits_2_with_one_line(tmp_path, capsys, case):
    paths, message = case(tmp_path)
    assert main(["segmentation", *paths, "--num-classes", "5"]) == 2
    line = _error_line(capsys)
    assert message in line, line
    assert "Traceback" not in line


def test_png_without_pillow_names_the_extra(tmp_path, capsys, monkeypatch):
    _save(tmp_path / "a.png", np.zeros((2, 2), np.uint8))
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert main(["segmentation", str(tmp_path / "a.png"), str(tmp_path / "a.png"), "--num-classes", "2"]) == 2
    assert "pip install 'turbometrics[png]'" in _error_line(capsys)


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "the following arguments are required: --num-classes"),
        (["--num-classes", "0"], "must be at least 1"),
        (["--num-classes", "70000"], "--num-classes: "),
    ],
)
def test_bad_options_exit_2_with_one_line(tmp_path, capsys, argv, message):
    np.save(tmp_path / "a.npy", np.zeros((2, 2), np.uint8))
    assert main(["segmentation", str(tmp_path / "a.npy"), str(tmp_path / "a.npy"), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_maps_are_streamed_one_pair_at_a_time(tmp_path, capsys, monkeypatch):
    """Each pair is read, then added to the state, before the next is read."""
    from turbometrics.cli import _label_maps
    from turbometrics.segmentation import SegmentationState

    y_true, y_pred = _maps(5, 3)
    gt, pred = _folders(tmp_path, y_true, y_pred, ".npy", ".npy")
    events: list[str] = []
    read, update = _label_maps.read, SegmentationState.update
    monkeypatch.setattr(_label_maps, "read", lambda path: events.append(f"read {path.name}") or read(path))
    monkeypatch.setattr(
        SegmentationState, "update", lambda self, *a, **k: events.append("update") or update(self, *a, **k)
    )
    assert main(["segmentation", gt, pred, "--num-classes", "4"]) == 0
    assert events == [e for i in range(3) for e in (f"read frame_{i:03d}.npy", f"read frame_{i:03d}.npy", "update")]
    assert "mean" in capsys.readouterr().out
