"""``turbometrics.segmentation.torchmetrics.hausdorff_distance`` against
torchmetrics 1.9's ``torchmetrics.functional.segmentation.hausdorff_distance``
on square 2-D images (where torchmetrics is right): random and blob-shaped
maps, absent classes, empty predictions and ground truth, every input
format, ``include_background``, ``directed``, integer spacing (within an
ulp of float32: torch's float32 square root of the exact integer squared
distance is not always correctly rounded) and other spacings (float32
rounding). Non-square images (torchmetrics issue #3344) against
torchmetrics on the image padded to a square, and 3-D volumes (which
torchmetrics refuses) against :func:`turbometrics.segmentation.hausdorff_distance`."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from segmentation_strategies import map_pairs, torch_formats

torch = pytest.importorskip("torch")
reference = pytest.importorskip("torchmetrics.functional.segmentation")

from turbometrics.segmentation import hausdorff_distance as generic  # noqa: E402
from turbometrics.segmentation.torchmetrics import hausdorff_distance  # noqa: E402

pytestmark = pytest.mark.bits

FORMATS = st.sampled_from(["index", "one-hot", "one-hot-float", "mixed"])


def _channels(preds, target, k, fmt):
    """Both sides as (B, C, ...) one-hot tensors, as torchmetrics sees them."""

    def encoded(x, is_labels):
        return torch.nn.functional.one_hot(x, k).movedim(-1, 1) if is_labels else x

    if fmt == "index":
        return encoded(preds, True), encoded(target, True)
    if fmt == "mixed":
        return preds, encoded(target, True)
    return tuple(encoded(x.argmax(1), True) if x.is_floating_point() else x for x in (preds, target))


def _expected(preds, target, k, fmt, include_background, **kw):
    """torchmetrics' values; where a class is empty in both (torchmetrics
    raises a RuntimeError), nan, each image and class computed alone."""
    try:
        return reference.hausdorff_distance(
            preds, target, num_classes=k, include_background=include_background, input_format=fmt, **kw
        )
    except RuntimeError:
        pass
    p, t = _channels(preds, target, k, fmt)
    if not include_background and p.shape[1] > 1:
        p, t = p[:, 1:], t[:, 1:]
    out = torch.full(p.shape[:2], float("nan"))
    for i in range(p.shape[0]):
        for c in range(p.shape[1]):
            if p[i, c].any() or t[i, c].any():
                one = (p[i : i + 1, c : c + 1], t[i : i + 1, c : c + 1])
                out[i, c] = reference.hausdorff_distance(*one, num_classes=1, include_background=True, **kw)[0, 0]
    return out


@given(map_pairs(ignore=False, three_d=False), FORMATS, st.booleans(), st.booleans(), st.data())
@settings(max_examples=40, deadline=None)
def test_square_images_against_torchmetrics(pair, input_format, include_background, directed, data):
    y_true, y_pred, k, _ = pair
    side = min(y_true.shape[1:])
    y_true, y_pred = y_true[:, :side, :side].copy(), y_pred[:, :side, :side].copy()
    preds, target, fmt = torch_formats(y_true, y_pred, k, input_format)
    spacing = data.draw(st.one_of(st.none(), st.lists(st.integers(1, 3), min_size=2, max_size=2)))
    kw = {"directed": directed, "spacing": spacing}
    got = hausdorff_distance(preds, target, k, include_background=include_background, input_format=fmt, **kw)
    want = _expected(preds, target, k, fmt, include_background, **kw)
    assert got.dtype == torch.float32 and got.shape == want.shape
    assert torch.equal(got.isnan(), want.isnan())
    # float32: the correctly rounded exact distance here; torch's float32
    # square root may be an ulp off (torch.tensor([37]).sqrt())
    torch.testing.assert_close(got, want, rtol=2.4e-7, atol=0, equal_nan=True)


@given(map_pairs(ignore=False, three_d=False, max_classes=3), st.data())
@settings(max_examples=30, deadline=None)
def test_float_spacing_within_float32_rounding(pair, data):
    y_true, y_pred, k, _ = pair
    side = min(y_true.shape[1:])
    preds, target = torch.from_numpy(y_pred[:, :side, :side].copy()), torch.from_numpy(y_true[:, :side, :side].copy())
    spacing = data.draw(st.lists(st.floats(0.25, 4.0), min_size=2, max_size=2))
    got = hausdorff_distance(preds, target, k, spacing=spacing, input_format="index")
    want = _expected(preds, target, k, "index", False, spacing=spacing)
    torch.testing.assert_close(got, want, rtol=1e-6, atol=0, equal_nan=True)


def test_non_square_images_are_correct():
    """torchmetrics 1.9 misplaces the distances of a non-square image (#3344);
    padding the image to a square with background changes no edge or
    distance, and there torchmetrics is right."""
    rng = np.random.default_rng(3)
    for shape in [(1, 5, 11), (2, 9, 4)]:
        y_pred, y_true = rng.integers(0, 3, shape), rng.integers(0, 3, shape)
        side = max(shape[1:])
        square = [np.zeros((shape[0], side, side), np.int64) for _ in range(2)]
        square[0][:, : shape[1], : shape[2]], square[1][:, : shape[1], : shape[2]] = y_pred + 1, y_true + 1
        got = hausdorff_distance(torch.from_numpy(y_pred), torch.from_numpy(y_true), 3, input_format="index")
        pads = [torch.from_numpy(s) for s in square]  # label 0: the padding, scored apart
        want = reference.hausdorff_distance(*pads, num_classes=4, input_format="index")  # labels 1, 2, 3
        torch.testing.assert_close(got, want[:, 1:], rtol=2.4e-7, atol=0)


def test_3d_volumes_and_tensor_spacing():
    rng = np.random.default_rng(4)
    y_pred, y_true = rng.integers(0, 3, (2, 5, 6, 7)), rng.integers(0, 3, (2, 5, 6, 7))
    spacing = torch.tensor([2.0, 0.5, 1.5])
    got = hausdorff_distance(
        torch.from_numpy(y_pred), torch.from_numpy(y_true), 3, spacing=spacing, input_format="index"
    )
    for i in range(2):
        want = generic(y_pred[i], y_true[i], num_classes=3, spacing=(2.0, 0.5, 1.5))[1:]
        np.testing.assert_array_equal(got[i].numpy(), want.astype(np.float32))


def test_empty_masks():
    empty = torch.zeros(1, 2, 6, 6, dtype=torch.long)
    empty[:, 0] = 1
    some = empty.clone()
    some[0, 1, 1:4, 2:5], some[0, 0, 1:4, 2:5] = 1, 0
    assert torch.isnan(hausdorff_distance(empty, empty, 2)).all()
    for directed in (False, True):
        assert hausdorff_distance(some, empty, 2, directed=directed)[0, 0] == float("inf")
        assert hausdorff_distance(empty, some, 2, directed=directed)[0, 0] == float("inf")
        want = reference.hausdorff_distance(empty, some, num_classes=2, directed=directed)
        assert torch.equal(hausdorff_distance(empty, some, 2, directed=directed), want)
    with pytest.raises(RuntimeError):  # torchmetrics: the maximum of an empty tensor
        reference.hausdorff_distance(empty, empty, num_classes=2)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_classes": 0}, "num_classes"),
        ({"include_background": 1}, "include_background"),
        ({"distance_metric": "cosine"}, "must be one of 'euclidean', 'chessboard', 'taxicab'"),
        ({"distance_metric": "chessboard"}, "distance_metric='euclidean' only"),
        ({"distance_metric": "taxicab"}, "distance_metric='euclidean' only"),
        ({"spacing": (1.0, 1.0)}, "must be a list or tensor"),
        ({"spacing": [1.0]}, "one value per axis"),
        ({"directed": 1}, "directed"),
        ({"input_format": "labels"}, "input_format"),
    ],
)
def test_errors(kwargs, match):
    x = torch.zeros(1, 2, 4, 4, dtype=torch.long)
    args = {"num_classes": 2} | kwargs
    with pytest.raises(ValueError, match=match):
        hausdorff_distance(x, x, **args)


def test_one_dimensional_images_are_refused_as_torchmetrics_refuses_them():
    x = torch.zeros(2, 2, 5, dtype=torch.long)
    with pytest.raises(ValueError, match="rank 2 or 3") as ours:
        hausdorff_distance(x, x, 2)
    with pytest.raises(ValueError) as theirs:
        reference.hausdorff_distance(x, x, num_classes=2)
    assert str(ours.value) == str(theirs.value)
