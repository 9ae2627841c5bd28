#!/usr/bin/env python3
"""Benchmark turbometrics.segmentation's Cityscapes iIoU against cityscapesScripts, in one process.

Cityscapes-sized images (default 3 of 1024 x 2048: label ids in blobs of
16 x 16 pixels, instances of the classes 24-33 with up to 7 per class and
image, the prediction wrong on 20 % of the pixels) are written as PNGs
(``*_gtFine_labelIds.png``, ``*_gtFine_instanceIds.png`` (16-bit) and the
prediction) into a temporary folder. Then, alternately, ``--repeats``
times each (medians):

- cityscapesScripts 2.3.0's ``evaluateImgLists`` over the files (quiet, no
  JSON file; its per-image confusion counting and per-instance masks);
- turbometrics: each image's instance and predicted PNGs read with Pillow
  into an ``InstanceIoUState`` (Cityscapes' sizes, ignored labels and
  categories), then
  ``score()`` per class and per category;

and the turbometrics part alone on the arrays in memory. The per-class,
per-category and mean iIoU of both must be equal (``==``).

cityscapesScripts needs packages turbometrics does not (pyquaternion,
coloredlogs, appdirs): install it apart, e.g. ``pip install --no-deps
--target /tmp/csref cityscapesScripts==2.3.0 pyquaternion appdirs
coloredlogs humanfriendly``, and pass ``--reference-path /tmp/csref``.
Under NumPy 2.4 its ``np.in1d`` is aliased to ``np.isin`` here.

Usage: ``python benchmarks/bench_instance_iou.py --reference-path DIR
[--images 3] [--height 1024] [--width 2048] [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

import numpy as np

from timing import timed, timed_pair
from turbometrics import segmentation


def make_images(n: int, height: int, width: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """(instance map uint16, prediction uint8) per image."""
    rng = np.random.default_rng(seed)
    images = []
    for _ in range(n):
        grid = (height // 16, width // 16)
        labels = rng.integers(0, 34, grid).repeat(16, 0).repeat(16, 1)
        index = rng.integers(0, 8, grid).repeat(16, 0).repeat(16, 1)
        instances = np.where((labels >= 24) & (index > 0), labels * 1000 + index, labels).astype(np.uint16)
        wrong = rng.random(labels.shape) < 0.2
        prediction = np.where(wrong, rng.integers(0, 34, labels.shape), labels).astype(np.uint8)
        images.append((instances, prediction))
    return images


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference-path", required=True, help="a folder holding cityscapesscripts and its imports")
    parser.add_argument("--images", type=int, default=3)
    parser.add_argument("--height", type=int, default=1024)
    parser.add_argument("--width", type=int, default=2048)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, args.reference_path)
    # the reference calls np.in1d, gone in NumPy 2.4: its definition, as the reference reads it
    setattr(np, "in1d", lambda a, b, invert=False: np.isin(np.ravel(a), b, invert=invert))  # noqa: B010
    from cityscapesscripts.evaluation import evalPixelLevelSemanticLabeling as reference
    from PIL import Image

    images = make_images(args.images, args.height, args.width)
    options = {
        "num_classes": 34,
        "average_instance_sizes": segmentation.CITYSCAPES_AVERAGE_INSTANCE_SIZES,
        "ignored_classes": segmentation.CITYSCAPES_IGNORED_CLASSES,
        "categories": segmentation.CITYSCAPES_CATEGORIES,
    }
    with tempfile.TemporaryDirectory() as folder:
        ground_truths, predictions = [], []
        for i, (instances, prediction) in enumerate(images):
            name = os.path.join(folder, f"frankfurt_000000_{i:06d}_gtFine_labelIds.png")
            semantic = np.where(instances >= 1000, instances // 1000, instances).astype(np.uint8)
            Image.fromarray(semantic).save(name)
            Image.fromarray(instances).save(name.replace("labelIds", "instanceIds"))
            Image.fromarray(prediction).save(os.path.join(folder, f"pred_{i}.png"))
            ground_truths.append(name)
            predictions.append(os.path.join(folder, f"pred_{i}.png"))
        reference.args.quiet = True
        reference.args.JSONOutput = False

        def scripts() -> dict:
            return reference.evaluateImgLists(predictions, ground_truths, reference.args)

        def ours() -> tuple[np.ndarray, np.ndarray]:
            state = segmentation.InstanceIoUState(**options)
            for name, prediction_name in zip(ground_truths, predictions):
                with Image.open(name.replace("labelIds", "instanceIds")) as gt, Image.open(prediction_name) as pred:
                    state.update(np.asarray(gt), np.asarray(pred))
            return state.score(average=None), state.score(average=None, level="category")

        theirs, mine = timed_pair(scripts, ours, args.repeats)
    expected = np.array([theirs["result"]["classInstScores"][reference.id2label[c].name] for c in range(34)])
    assert np.array_equal(mine["result"][0], expected, equal_nan=True), (mine["result"][0], expected)
    categories = np.array([theirs["result"]["categoryInstScores"][name] for name in segmentation.CITYSCAPES_CATEGORIES])
    assert np.array_equal(mine["result"][1], categories, equal_nan=True), (mine["result"][1], categories)

    def in_memory() -> float:
        state = segmentation.InstanceIoUState(**options)
        for instances, prediction in images:
            state.update(instances, prediction)
        return state.score()

    compute, mean = timed(in_memory, args.repeats)
    assert mean == theirs["result"]["averageScoreInstClasses"]
    pixels = args.images * args.height * args.width
    print(f"{args.images} images of {args.height} x {args.width}, medians of {args.repeats}; iIoU equal (==)")
    print("| call | seconds | ns per pixel | speedup |")
    print("|---|---:|---:|---:|")
    reference_ns = theirs["wall"] / pixels * 1e9
    print(f"| cityscapesScripts evaluateImgLists (PNG files) | {theirs['wall']:.3f} | {reference_ns:.1f} | 1x |")
    print(
        f"| InstanceIoUState, PNGs read with Pillow | {mine['wall']:.3f} | {mine['wall'] / pixels * 1e9:.1f} "
        f"| {theirs['wall'] / mine['wall']:.1f}x |"
    )
    print(f"| InstanceIoUState, arrays in memory | {compute:.3f} | {compute / pixels * 1e9:.1f} | |")


if __name__ == "__main__":
    main()
