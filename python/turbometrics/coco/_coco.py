"""The COCO dataset API, as ``pycocotools.coco.COCO``."""

from __future__ import annotations

import copy
import itertools
import os
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from ..detection import say
from . import _json, mask as mask_utils
from ._masks import segmentation_to_rle
from ._results import ground_truth_list, load_results


def _is_array_like(obj: Any) -> bool:
    return hasattr(obj, "__iter__") and hasattr(obj, "__len__")


class COCO:
    """A COCO dataset (ground truth or results) with its lookup indices.

    ``COCO(path)`` reads a COCO JSON file; ``COCO()`` makes an empty one to
    fill with ``.dataset = {...}`` and ``.createIndex()``. The attributes and
    methods are pycocotools 2.0.11's: ``dataset``, ``anns``, ``imgs``,
    ``cats``, ``imgToAnns``, ``catToImgs``; ``getAnnIds``, ``getCatIds``,
    ``getImgIds``, ``loadAnns``, ``loadCats``, ``loadImgs``, ``loadRes``,
    ``loadNumpyAnnotations``, ``annToRLE``, ``annToMask``.

    Results read by :meth:`loadRes` from a file are kept as columns and
    turned into annotation dicts only when ``dataset``, ``anns``,
    ``imgToAnns`` or ``catToImgs`` is first read, so evaluating them never
    builds one dict per detection.

    Parameters
    ----------
    annotation_file : str or os.PathLike, default=None
        A COCO JSON file (read with orjson when installed); None makes an
        empty dataset.

    Examples
    --------
    >>> from turbometrics.coco import COCO, COCOeval
    >>> from turbometrics.coco.synthetic import make_coco_set
    >>> dataset, results = make_coco_set(n_images=20, n_categories=3, seed=0)
    >>> gt = COCO()
    >>> gt.dataset = dataset
    >>> gt.createIndex()
    creating index...
    index created!
    >>> len(gt.getImgIds()), gt.getCatIds()
    (20, [1, 2, 3])
    >>> gt.loadImgs(1)[0]["width"], len(gt.getAnnIds(imgIds=[1]))
    (480, 2)
    >>> dt = gt.loadRes(results)          # a path, a list of dicts or an (N, 7) array
    Loading and preparing results...
    creating index...
    index created!
    DONE (t=...s)
    >>> len(dt.getAnnIds())
    2000
    """

    def __init__(self, annotation_file: str | os.PathLike | None = None) -> None:
        self._dataset: dict[str, Any] = {}
        self._anns: dict[Any, dict] = {}
        self._imgToAnns: dict[Any, list[dict]] = defaultdict(list)
        self._catToImgs: dict[Any, list[Any]] = defaultdict(list)
        self.cats: dict[Any, dict] = {}
        self.imgs: dict[Any, dict] = {}
        # results kept as columns (see _results.py) until dicts are asked for
        self._columns: Any = None  # a ResultColumns once results are loaded
        self._materialize: Callable[[], list[dict]] | None = None
        if annotation_file is not None:
            say("loading annotations into memory...")
            tic = time.time()
            dataset = _json.load(annotation_file)
            assert type(dataset) is dict, f"annotation file format {type(dataset)} not supported"
            say(f"Done (t={time.time() - tic:0.2f}s)")
            self.dataset = dataset
            self.createIndex()

    # -- lazily built annotations -------------------------------------------------
    def _ensure_annotations(self) -> None:
        if self._materialize is not None:
            materialize, self._materialize = self._materialize, None
            self._dataset["annotations"] = materialize()
            self._columns = None
            self.createIndex()

    @property
    def dataset(self) -> dict[str, Any]:
        self._ensure_annotations()
        return self._dataset

    @dataset.setter
    def dataset(self, value: dict[str, Any]) -> None:
        self._materialize = None
        self._columns = None
        self._dataset = value

    @property
    def anns(self) -> dict[Any, dict]:
        self._ensure_annotations()
        return self._anns

    @anns.setter
    def anns(self, value: dict[Any, dict]) -> None:
        self._ensure_annotations()
        self._anns = value

    @property
    def imgToAnns(self) -> dict[Any, list[dict]]:
        self._ensure_annotations()
        return self._imgToAnns

    @imgToAnns.setter
    def imgToAnns(self, value: dict[Any, list[dict]]) -> None:
        self._ensure_annotations()
        self._imgToAnns = value

    @property
    def catToImgs(self) -> dict[Any, list[Any]]:
        self._ensure_annotations()
        return self._catToImgs

    @catToImgs.setter
    def catToImgs(self, value: dict[Any, list[Any]]) -> None:
        self._ensure_annotations()
        self._catToImgs = value

    # -- pycocotools API ----------------------------------------------------------
    def createIndex(self) -> None:
        """Build ``anns``, ``imgs``, ``cats``, ``imgToAnns`` and ``catToImgs``
        from ``dataset`` (later entries win on repeated ids)."""
        say("creating index...")
        dataset = self._dataset  # results still held as columns stay so
        anns: dict[Any, dict] = {}
        imgs: dict[Any, dict] = {}
        cats: dict[Any, dict] = {}
        img_to_anns: dict[Any, list[dict]] = defaultdict(list)
        cat_to_imgs: dict[Any, list[Any]] = defaultdict(list)
        annotations = dataset.get("annotations")
        if annotations is not None:
            for ann in annotations:
                img_to_anns[ann["image_id"]].append(ann)
                anns[ann["id"]] = ann
        for img in dataset.get("images", ()):
            imgs[img["id"]] = img
        for cat in dataset.get("categories", ()):
            cats[cat["id"]] = cat
        if annotations is not None and "categories" in dataset:
            for ann in annotations:
                cat_to_imgs[ann["category_id"]].append(ann["image_id"])
        say("index created!")
        self._anns, self._imgToAnns, self._catToImgs = anns, img_to_anns, cat_to_imgs
        self.imgs, self.cats = imgs, cats

    def info(self) -> None:
        """Print the dataset's ``info`` entries."""
        for key, value in self.dataset["info"].items():
            say(f"{key}: {value}")

    def getAnnIds(self, imgIds: Any = [], catIds: Any = [], areaRng: Any = [], iscrowd: bool | None = None) -> list:
        """Ids of the annotations on the given images, of the given
        categories, with area strictly inside ``areaRng`` and the given crowd
        flag; an empty filter is no filter. Annotations come image by image in
        the order of ``imgIds``, each image's in file order."""
        imgIds = imgIds if _is_array_like(imgIds) else [imgIds]
        catIds = catIds if _is_array_like(catIds) else [catIds]
        if len(imgIds) == len(catIds) == len(areaRng) == 0:
            anns = self.dataset["annotations"]
        else:
            if len(imgIds) != 0:
                img_to_anns = self.imgToAnns
                anns = list(itertools.chain.from_iterable(img_to_anns[i] for i in imgIds if i in img_to_anns))
            else:
                anns = self.dataset["annotations"]
            if len(catIds) != 0:
                anns = [ann for ann in anns if ann["category_id"] in catIds]
            if len(areaRng) != 0:
                anns = [ann for ann in anns if areaRng[0] < ann["area"] < areaRng[1]]
        if iscrowd is not None:
            return [ann["id"] for ann in anns if ann["iscrowd"] == iscrowd]
        return [ann["id"] for ann in anns]

    def getCatIds(self, catNms: Any = [], supNms: Any = [], catIds: Any = []) -> list:
        """Ids of the categories with the given names, supercategory names
        and ids; an empty filter is no filter."""
        catNms = catNms if _is_array_like(catNms) else [catNms]
        supNms = supNms if _is_array_like(supNms) else [supNms]
        catIds = catIds if _is_array_like(catIds) else [catIds]
        cats = self.dataset["categories"]
        if len(catNms) != 0:
            cats = [cat for cat in cats if cat["name"] in catNms]
        if len(supNms) != 0:
            cats = [cat for cat in cats if cat["supercategory"] in supNms]
        if len(catIds) != 0:
            cats = [cat for cat in cats if cat["id"] in catIds]
        return [cat["id"] for cat in cats]

    def getImgIds(self, imgIds: Any = [], catIds: Any = []) -> list:
        """Ids of the given images that contain every given category (all
        images when both filters are empty)."""
        imgIds = imgIds if _is_array_like(imgIds) else [imgIds]
        catIds = catIds if _is_array_like(catIds) else [catIds]
        if len(imgIds) == len(catIds) == 0:
            return list(self.imgs.keys())
        ids = set(imgIds)
        for i, catId in enumerate(catIds):
            if i == 0 and len(ids) == 0:
                ids = set(self.catToImgs[catId])
            else:
                ids &= set(self.catToImgs[catId])
        return list(ids)

    def loadAnns(self, ids: Any = []) -> list[dict]:
        """The annotations with the given id(s)."""
        return self._load(self.anns, ids)

    def loadCats(self, ids: Any = []) -> list[dict]:
        """The categories with the given id(s)."""
        return self._load(self.cats, ids)

    def loadImgs(self, ids: Any = []) -> list[dict]:
        """The images with the given id(s)."""
        return self._load(self.imgs, ids)

    @staticmethod
    def _load(table: dict[Any, dict], ids: Any) -> list[dict]:
        if _is_array_like(ids):
            return [table[i] for i in ids]
        if type(ids) is int:
            return [table[ids]]
        return None  # type: ignore[return-value]  # pycocotools returns None here

    def loadRes(self, resFile: Any) -> COCO:
        """Load detection results against this ground truth.

        ``resFile`` is a path to a JSON list of results, a list of result
        dicts (updated in place, as pycocotools does), or an ``(N, 7)``
        array of ``[image_id, x, y, w, h, score, category_id]`` rows. The
        kind of result is taken from the first one: ``bbox`` (area
        ``w * h``, a box polygon as segmentation when there is none),
        ``segmentation`` (area of the mask, box from the mask unless given),
        ``keypoints`` (area and box of the keypoints' extent) or ``caption``.
        Ids become 1..N and ``iscrowd`` 0 (boxes and masks).

        Raises
        ------
        AssertionError
            If a result names an image that is not in this dataset (the
            message names the result).
        ValueError
            If a result lacks a field its kind needs, or has a malformed
            box.
        """
        res = COCO()
        res._dataset["info"] = copy.deepcopy(self.dataset.get("info", {}))
        res._dataset["images"] = [img for img in ground_truth_list(self, "images")]
        say("Loading and preparing results...")
        tic = time.time()
        load_results(self, res, resFile)
        say(f"DONE (t={time.time() - tic:0.2f}s)")
        return res

    def loadNumpyAnnotations(self, data: np.ndarray) -> list[dict]:
        """Result dicts from an ``(N, 7)`` array of
        ``[image_id, x, y, w, h, score, category_id]`` rows."""
        assert type(data) is np.ndarray
        assert data.shape[1] == 7
        return [
            {
                "image_id": int(row[0]),
                "bbox": [row[1], row[2], row[3], row[4]],
                "score": row[5],
                "category_id": int(row[6]),
            }
            for row in data
        ]

    def annToRLE(self, ann: dict) -> dict:
        """The annotation's segmentation as a compressed RLE (polygons are
        merged into one mask; uncompressed RLE is compressed)."""
        image = self.imgs[ann["image_id"]]
        return segmentation_to_rle(ann["segmentation"], image["height"], image["width"])

    def annToMask(self, ann: dict) -> np.ndarray:
        """The annotation's segmentation as an ``(h, w)`` uint8 mask."""
        return mask_utils.decode(self.annToRLE(ann))
