// COCO run-length encoded masks: everything pycocotools.mask computes, in
// plain C++17 with no Python dependency. Include this header; the pieces
// live in
//   run_lengths.hpp  RunLengths, encode, decode, area, pixel_count, to_bbox
//   rle_string.hpp   to_string / from_string (compressed text, validated)
//   polygon.hpp      from_polygon, from_bbox (pycocotools' rasterisation)
//   rle_ops.hpp      box_iou, rle_iou, the IoU matrices, merge
// All functions are free functions over plain data, results are
// bit-identical to pycocotools 2.0.11, malformed input throws
// std::invalid_argument, and none of them keeps state between calls.
#pragma once

#include "turbometrics/detection/polygon.hpp"
#include "turbometrics/detection/rle_ops.hpp"
#include "turbometrics/detection/rle_string.hpp"
#include "turbometrics/detection/run_lengths.hpp"
