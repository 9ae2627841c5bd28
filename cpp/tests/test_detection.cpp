// Detection: run-length masks (encode, decode, area, box, IoU, merge, the
// compressed string), box IoU, the match table and COCOeval's accumulation.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.hpp"
#include "turbometrics/detection/accumulation.hpp"
#include "turbometrics/detection/match_table.hpp"
#include "turbometrics/detection/rle_ops.hpp"
#include "turbometrics/detection/rle_string.hpp"
#include "turbometrics/detection/run_lengths.hpp"

using namespace turbometrics::detection;
using turbometrics::testing::bits;

namespace {

// The 3 x 2 mask [[0, 1], [1, 0], [1, 0]] (column-major bytes) and the mask
// with only pixel (1, 0) set; their pycocotools encodings are "132" and "114".
const std::vector<uint8_t> mask_a = {0, 1, 1, 1, 0, 0};
const std::vector<uint8_t> mask_b = {0, 1, 0, 0, 0, 0};

}  // namespace

TEST_CASE("encode, decode, area and bbox as pycocotools") {
  const RunLengths a = encode(mask_a.data(), 3, 2);
  CHECK(a.counts == std::vector<uint32_t>{1, 3, 2});
  CHECK(area(a) == 3);
  CHECK(to_bbox(a) == Box{0.0, 0.0, 2.0, 3.0});  // the run crosses a column: full height
  std::vector<uint8_t> back(6, 7);
  decode(a, back.data());
  CHECK(back == mask_a);

  const std::vector<uint8_t> ones = {1, 1};
  CHECK(encode(ones.data(), 1, 2).counts == std::vector<uint32_t>{0, 2});  // zeros first, even when none
  CHECK(encode(nullptr, 0, 5).counts == std::vector<uint32_t>{0});
  const std::vector<uint8_t> zeros(4, 0);
  const RunLengths empty = encode(zeros.data(), 2, 2);
  CHECK(empty.counts == std::vector<uint32_t>{4});
  CHECK(to_bbox(empty) == Box{0.0, 0.0, 0.0, 0.0});

  RunLengths short_rle = a;
  short_rle.counts.pop_back();  // covers 4 of 6 pixels
  CHECK_THROWS_AS(decode(short_rle, back.data()), std::invalid_argument);
}

TEST_CASE("compressed strings: pycocotools' text, round trips and refusals") {
  const RunLengths a = encode(mask_a.data(), 3, 2);
  CHECK(to_string(a) == "132");
  CHECK(from_string("114", 3, 2).counts == std::vector<uint32_t>{1, 1, 4});

  std::vector<uint8_t> big(100 * 100, 0);
  for (int x = 20; x < 90; ++x)
    for (int y = 10; y < 60; ++y) big[x * 100 + y] = 1;
  const RunLengths rle = encode(big.data(), 100, 100);
  const std::string text = "jn1b1b1" + std::string(137, '0') + "nn0";  // pycocotools' encode(big)
  CHECK(to_string(rle) == text);
  CHECK(from_string(text, 100, 100).counts == rle.counts);
  CHECK(area(rle) == 3500);
  CHECK(to_bbox(rle) == Box{20.0, 10.0, 70.0, 50.0});

  CHECK_THROWS_AS(from_string("1 2", 3, 2), std::invalid_argument);  // outside '0'..'o'
  CHECK_THROWS_AS(from_string("1o", 3, 2), std::invalid_argument);   // says more follow, then ends
}

TEST_CASE("RLE and box IoU, crowd unions") {
  const RunLengths a = encode(mask_a.data(), 3, 2), b = encode(mask_b.data(), 3, 2);
  CHECK(rle_iou(a, b, false) == 1.0 / 3.0);
  CHECK(rle_iou(a, b, true) == 1.0 / 3.0);  // crowd: the union is the detection
  CHECK(rle_iou(b, a, true) == 1.0);
  const PreparedRle pa = prepare(a), pb = prepare(b);
  CHECK(rle_iou(pa, pb, false) == 1.0 / 3.0);
  const RunLengths masks[2] = {a, b};
  std::vector<double> matrix(4);
  const uint8_t crowd[2] = {0, 1};
  rle_iou_matrix(masks, 2, masks, 2, crowd, matrix.data(), turbometrics::testing::many_threads);
  CHECK(matrix == std::vector<double>{1.0, 1.0 / 3.0, 1.0 / 3.0, 1.0});

  const double dt[4] = {0, 0, 2, 2}, gt[4] = {1, 1, 2, 2}, apart[4] = {2, 0, 1, 1};
  CHECK(box_iou(dt, gt, false) == 1.0 / 7.0);
  CHECK(box_iou(dt, gt, true) == 0.25);
  CHECK(box_iou(dt, apart, false) == 0.0);  // touching edges: no overlap
  double out[2];
  const double gts[8] = {1, 1, 2, 2, 2, 0, 1, 1};
  box_iou_matrix(dt, 1, gts, 2, nullptr, out, 1);
  CHECK(out[0] == 1.0 / 7.0);
  CHECK(out[1] == 0.0);
}

TEST_CASE("merge: union and intersection, size mismatch gives an empty mask") {
  const RunLengths a = encode(mask_a.data(), 3, 2), b = encode(mask_b.data(), 3, 2);
  const RunLengths both[2] = {a, b};
  CHECK(merge(both, 2, false).counts == a.counts);
  CHECK(merge(both, 2, true).counts == b.counts);
  const std::vector<uint8_t> other(4, 1);
  const RunLengths mismatched[2] = {a, encode(other.data(), 2, 2)};
  const RunLengths none = merge(mismatched, 2, false);
  CHECK(none.height == 0);
  CHECK(none.counts.empty());
}

namespace {

// One category, one image: ground truths g0, g1 (area 100), detections
// d0, d1, d2 (scores 0.9, 0.8, 0.7) with IoUs d0: (0.8, 0.1), d1: (0.6, 0),
// d2: (0, 0.55); IoU thresholds 0.5 and 0.75; one area range; maxDets 100.
struct SmallEvaluation {
  std::vector<double> gt_id{1, 2}, gt_area{100, 100}, dt_id{1, 2, 3}, dt_area{100, 100, 100}, score{0.9, 0.8, 0.7};
  std::vector<uint8_t> no{0, 0};
  std::vector<double> ious{0.8, 0.1, 0.6, 0.0, 0.0, 0.55};  // kept detection x ground truth
  std::vector<double> thresholds{0.5, 0.75}, ranges{0.0, 1e10};
  std::vector<int64_t> gt_offsets{0, 2}, gt_members{0, 1}, dt_offsets{0, 3}, dt_members{0, 1, 2};

  MatchTable match(int threads) {
    const BlockMembers blocks{gt_offsets.data(), gt_members.data(), dt_offsets.data(), dt_members.data(), 1};
    const MatchingParams params{thresholds.data(), 2, ranges.data(), 1, 100};
    MatchTable table = empty_match_table(blocks, params);
    auto fill = [this](int64_t, const int64_t* dts, const int64_t*, int64_t n_kept, const int64_t* gts, int64_t n_gt,
                       double* out) {
      for (int64_t d = 0; d < n_kept; ++d)
        for (int64_t g = 0; g < n_gt; ++g) out[d * n_gt + g] = ious[dts[d] * 2 + gts[g]];
      return true;
    };
    match_blocks(table, 0, 1, blocks, GroundTruthColumns{gt_id.data(), gt_area.data(), no.data(), no.data()},
                 DetectionColumns{dt_id.data(), dt_area.data(), score.data()}, params, fill, threads);
    return table;
  }
};

}  // namespace

TEST_CASE("match table: greedy matching per IoU threshold, best score first") {
  SmallEvaluation e;
  const MatchTable table = e.match(1);
  CHECK_NOTHROW(check_match_table(table));
  REQUIRE(table.n_rows() == 3);
  CHECK(table.score == std::vector<double>{0.9, 0.8, 0.7});
  CHECK(table.regular_gts == std::vector<int64_t>{2});
  // bit 0: IoU 0.5, bit 1: IoU 0.75. d0 matches g0 at both; d1 finds g0
  // taken; d2 matches g1 at 0.5 only.
  CHECK(table.true_positive == std::vector<uint64_t>{0b11, 0b00, 0b01});
  CHECK(table.false_positive == std::vector<uint64_t>{0b00, 0b11, 0b10});

  MatchTable broken = table;
  broken.false_positive[0] = 0b01;  // true and false positive at once
  CHECK_THROWS_AS(check_match_table(broken), std::invalid_argument);
}

TEST_CASE("accumulate: precision, recall and scores at the recall thresholds") {
  SmallEvaluation e;
  const MatchTable table = e.match(1);
  const int64_t zero = 0, max_dets = 100;
  const double recall_thresholds[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
  const AccumulationLayout layout{&zero, 1, &zero, 1, &zero, 1, 1, 1, &max_dets, 1, recall_thresholds,
                                  5,     2, 5,     1, 1,     1};
  std::vector<double> precision(10, -1.0), recall(2, -1.0), scores(10, -1.0);
  accumulate(table, layout, precision.data(), recall.data(), scores.data(), 1);
  const double eps = std::nextafter(1.0, 2.0) - 1.0;
  const double p1 = 1.0 / (0.0 + 1.0 + eps), p3 = 2.0 / (1.0 + 2.0 + eps);
  // IoU 0.5: tp, fp, tp -> recall .5, .5, 1 and precision p1, 1/2, p3
  // (then the running maximum from the right: p1, p3, p3).
  CHECK(recall[0] == 1.0);
  CHECK(std::vector<double>(precision.begin(), precision.begin() + 5) == std::vector<double>{p1, p1, p1, p3, p3});
  CHECK(std::vector<double>(scores.begin(), scores.begin() + 5) == std::vector<double>{0.9, 0.9, 0.9, 0.7, 0.7});
  // IoU 0.75: tp, fp, fp -> recall .5 everywhere; thresholds above it read 0.
  CHECK(recall[1] == 0.5);
  CHECK(std::vector<double>(precision.begin() + 5, precision.end()) == std::vector<double>{p1, p1, p1, 0.0, 0.0});
  CHECK(std::vector<double>(scores.begin() + 5, scores.end()) == std::vector<double>{0.9, 0.9, 0.9, 0.0, 0.0});

  // maxDets 1 keeps only d0: recall 1/2 at both thresholds.
  const int64_t one = 1;
  AccumulationLayout first = layout;
  first.max_detections = &one;
  accumulate(table, first, precision.data(), recall.data(), scores.data(), 1);
  CHECK(recall == std::vector<double>{0.5, 0.5});
}

TEST_CASE("match table and accumulation are bit-identical at 1 and N threads") {
  // 12 categories x 40 images of random boxes; IoUs from the boxes.
  const int64_t K = 12, I = 40, B = K * I;
  turbometrics::testing::SplitMix random(23);
  std::vector<double> gt_box, dt_box, gt_id, gt_area, dt_id, dt_area, score;
  std::vector<uint8_t> crowd;
  std::vector<int64_t> gt_offsets{0}, gt_members, dt_offsets{0}, dt_members;
  auto box = [&](std::vector<double>& to) {
    const double x = random.uniform() * 50, y = random.uniform() * 50, w = 5 + random.uniform() * 30,
                 h = 5 + random.uniform() * 30;
    to.insert(to.end(), {x, y, w, h});
    return w * h;
  };
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t g = random.below(4); g > 0; --g) {
      gt_members.push_back(static_cast<int64_t>(gt_id.size()));
      gt_area.push_back(box(gt_box));
      gt_id.push_back(static_cast<double>(gt_id.size() + 1));
      crowd.push_back(random.below(8) == 0);
    }
    for (int64_t d = random.below(6); d > 0; --d) {
      dt_members.push_back(static_cast<int64_t>(dt_id.size()));
      dt_area.push_back(box(dt_box));
      dt_id.push_back(static_cast<double>(dt_id.size() + 1));
      score.push_back(static_cast<double>(random.below(5)) / 4.0);  // ties
    }
    gt_offsets.push_back(static_cast<int64_t>(gt_members.size()));
    dt_offsets.push_back(static_cast<int64_t>(dt_members.size()));
  }
  std::vector<double> thresholds;
  for (int t = 0; t < 10; ++t) thresholds.push_back(0.5 + 0.05 * t);
  const std::vector<double> ranges = {0, 1e10, 0, 400, 400, 1e10};
  const BlockMembers blocks{gt_offsets.data(), gt_members.data(), dt_offsets.data(), dt_members.data(), B};
  const MatchingParams params{thresholds.data(), 10, ranges.data(), 3, 100};
  auto fill = [&](int64_t, const int64_t* dts, const int64_t*, int64_t n_kept, const int64_t* gts, int64_t n_gt,
                  double* out) {
    for (int64_t d = 0; d < n_kept; ++d)
      for (int64_t g = 0; g < n_gt; ++g)
        out[d * n_gt + g] = box_iou(&dt_box[4 * dts[d]], &gt_box[4 * gts[g]], crowd[gts[g]] != 0);
    return true;
  };
  auto match = [&](int threads) {
    MatchTable table = empty_match_table(blocks, params);
    match_blocks(table, 0, B, blocks, GroundTruthColumns{gt_id.data(), gt_area.data(), crowd.data(), crowd.data()},
                 DetectionColumns{dt_id.data(), dt_area.data(), score.data()}, params, fill, threads);
    return table;
  };
  const int many = turbometrics::testing::many_threads;
  const MatchTable one = match(1), more = match(many);
  CHECK_NOTHROW(check_match_table(one));
  CHECK(one.true_positive == more.true_positive);
  CHECK(one.false_positive == more.false_positive);
  CHECK(one.regular_gts == more.regular_gts);

  std::vector<int64_t> k_rows(K), a_rows = {0, 1, 2}, i_rows(I), max_dets = {1, 10, 100};
  for (int64_t k = 0; k < K; ++k) k_rows[k] = k;
  for (int64_t i = 0; i < I; ++i) i_rows[i] = i;
  std::vector<double> recall_thresholds;
  for (int r = 0; r <= 100; ++r) recall_thresholds.push_back(r / 100.0);
  const AccumulationLayout layout{k_rows.data(),
                                  K,
                                  a_rows.data(),
                                  3,
                                  i_rows.data(),
                                  I,
                                  3,
                                  I,
                                  max_dets.data(),
                                  3,
                                  recall_thresholds.data(),
                                  101,
                                  10,
                                  101,
                                  K,
                                  3,
                                  3};
  auto run = [&](int threads) {
    std::vector<double> precision(10 * 101 * K * 9, -1.0), recall(10 * K * 9, -1.0), scores(precision);
    accumulate(one, layout, precision.data(), recall.data(), scores.data(), threads);
    precision.insert(precision.end(), recall.begin(), recall.end());
    precision.insert(precision.end(), scores.begin(), scores.end());
    return precision;
  };
  const std::vector<double> serial = run(1), parallel = run(many);
  bool same = serial.size() == parallel.size();
  for (size_t j = 0; same && j < serial.size(); ++j) same = bits(serial[j]) == bits(parallel[j]);
  CHECK(same);
  bool some_set = false;
  for (double r :
       std::vector<double>(serial.begin() + 10 * 101 * K * 9, serial.begin() + 10 * 101 * K * 9 + 10 * K * 9))
    some_set = some_set || r > 0.0;
  CHECK(some_set);
}
