// A reader of COCO detection results JSON (the file pycocotools'
// COCO.loadRes reads) into columns, in one pass over the text.
//
// The text must be a top-level array of objects. Each object's known keys
// go to columns; numbers convert exactly as Python's json module converts
// them (a float token as float(token), an integer token as int(token), and
// float(int(token)) where a double is stored), so a column equals the one
// built from json.loads of the same text, bit for bit. The reader accepts
// what json.loads accepts (NaN, Infinity and -Infinity included, a UTF-8
// byte order mark at the start, any JSON whitespace, duplicate keys with
// the last one winning) and nothing else; malformed text throws
// json::JsonError with the byte offset and, inside a row, the row index.
//
// A row's value that a column cannot hold exactly (an image_id of 3.0, a
// score of null, a segmentation of an unusual shape, ...) is not an error:
// the row is flagged `unstored`, and a key outside the known set flags it
// `extra_key`; `columnar_complete` is false when any row is flagged, and the
// caller then builds the rows' dicts with a general JSON reader when it
// needs them. The columns of known keys are correct either way.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "turbometrics/buffer.hpp"
#include "turbometrics/json_scanner.hpp"

namespace turbometrics::detection {

// Bits of ResultsColumns::present, one per row.
namespace present_bit {
constexpr uint16_t image_id = 1u << 0;
constexpr uint16_t category_id = 1u << 1;
constexpr uint16_t bbox = 1u << 2;
constexpr uint16_t score = 1u << 3;
constexpr uint16_t segmentation = 1u << 4;
constexpr uint16_t keypoints = 1u << 5;
constexpr uint16_t area = 1u << 6;
constexpr uint16_t id = 1u << 7;
constexpr uint16_t iscrowd = 1u << 8;
constexpr uint16_t bbox_empty = 1u << 9;  // "bbox": [] (bbox is also set)
constexpr uint16_t extra_key = 1u << 14;  // a key outside the known nine
constexpr uint16_t unstored = 1u << 15;   // a known key's value is not in the columns
}  // namespace present_bit

// ResultsColumns::segmentation_kind values.
enum class SegmentationKind : uint8_t {
  absent = 0,
  rle = 1,         // {"size": [h, w], "counts": "<string>"}
  rle_counts = 2,  // {"size": [h, w], "counts": [int, ...]}
  polygons = 3,    // [[x, y, ...], ...]
  other = 4,       // anything else (the row is flagged unstored)
};

// A malloc'ed array the bindings adopt (free() releases it).
template <class T>
struct Column {
  Buffer<T> data;
  int64_t size = 0;  // elements
};

struct ResultsColumns {
  int64_t n_rows = 0;
  Column<int64_t> image_id, category_id;  // 0 where absent or unstored
  Column<double> score;                   // NaN where absent or unstored
  Column<double> bbox;                    // 4 per row; NaN unless a list of 4 numbers
  Column<uint16_t> present;               // present_bit flags
  Column<double> area;                    // NaN where absent or unstored
  Column<int64_t> id, iscrowd;            // 0 where absent or unstored
  Column<uint8_t> segmentation_kind;      // SegmentationKind
  Column<int64_t> segmentation_size;      // 2 per row: [h, w] of either RLE, else 0
  Column<uint8_t> rle_chars;              // compressed counts, UTF-8, concatenated
  Column<int64_t> rle_chars_offsets;      // n_rows + 1
  Column<int64_t> rle_counts;             // uncompressed counts, concatenated
  Column<int64_t> rle_counts_offsets;     // n_rows + 1
  Column<double> polygon_coords;          // every polygon's numbers, concatenated
  Column<int64_t> polygon_offsets;        // n_polygons + 1, into polygon_coords
  Column<int64_t> polygon_row_offsets;    // n_rows + 1, into polygons
  Column<double> keypoints;               // concatenated
  Column<int64_t> keypoint_offsets;       // n_rows + 1
  bool columnar_complete = true;
};

namespace detail {

inline void* checked_realloc(void* pointer, std::size_t bytes) {
  void* grown = std::realloc(pointer, bytes == 0 ? 1 : bytes);
  if (!grown) throw std::bad_alloc();
  return grown;
}

// A growable array of a trivially copyable type in malloc'ed memory (large
// blocks grow by mremap, without copying), released as a Column.
template <class T>
class Growable {
 public:
  Growable() = default;
  Growable(const Growable&) = delete;
  Growable& operator=(const Growable&) = delete;
  ~Growable() { std::free(data_); }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  void reserve(std::size_t capacity) {
    if (capacity <= capacity_) return;
    data_ = static_cast<T*>(checked_realloc(data_, capacity * sizeof(T)));
    capacity_ = capacity;
  }
  // Appends bytes (a Growable of one-byte elements: a JSON string's UTF-8).
  void append(const char* s, std::size_t n) {
    static_assert(sizeof(T) == 1, "bytes are appended to byte arrays");
    if (n == 0) return;
    if (size_ + n > capacity_) reserve(std::max(size_ + n, 2 * capacity_));
    std::memcpy(data_ + size_, s, n);
    size_ += n;
  }
  void push_back(T value) {
    if (size_ == capacity_) reserve(capacity_ < 16 ? 16 : 2 * capacity_);
    data_[size_++] = value;
  }
  void truncate(std::size_t size) { size_ = size; }
  void append_fill(std::size_t count, T value) {
    reserve(size_ + count);
    for (std::size_t i = 0; i < count; ++i) data_[size_ + i] = value;
    size_ += count;
  }
  // Gives the elements away, shrunk to their size.
  Column<T> release() {
    Column<T> out;
    T* shrunk = static_cast<T*>(checked_realloc(data_, size_ * sizeof(T)));
    data_ = nullptr;
    out.data = Buffer<T>(shrunk);
    out.size = static_cast<int64_t>(size_);
    size_ = capacity_ = 0;
    return out;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
};

// A column of `Width` values per row, allocated when first written (rows
// before then read `fill`).
template <class T, int Width>
class RowColumn {
 public:
  explicit RowColumn(T fill) : fill_(fill) {}
  RowColumn(const RowColumn&) = delete;
  RowColumn& operator=(const RowColumn&) = delete;
  ~RowColumn() { std::free(data_); }

  bool active() const { return data_ != nullptr; }
  // Allocates `capacity` rows and fills rows [0, rows) with the fill value.
  void activate(std::size_t rows, std::size_t capacity) {
    data_ = static_cast<T*>(checked_realloc(nullptr, capacity * Width * sizeof(T)));
    for (std::size_t i = 0; i < rows * Width; ++i) data_[i] = fill_;
  }
  void grow(std::size_t capacity) {
    if (data_) data_ = static_cast<T*>(checked_realloc(data_, capacity * Width * sizeof(T)));
  }
  T* row(std::size_t r) { return data_ + r * Width; }
  void fill_row(std::size_t r) {
    for (int k = 0; k < Width; ++k) data_[r * Width + k] = fill_;
  }
  Column<T> release(std::size_t rows) {
    Column<T> out;
    const std::size_t count = rows * Width;
    if (!data_) {
      if (fill_ == T{}) {
        data_ = static_cast<T*>(std::calloc(count == 0 ? 1 : count, sizeof(T)));
        if (!data_) throw std::bad_alloc();
      } else {
        activate(rows, rows);
      }
    } else {
      data_ = static_cast<T*>(checked_realloc(data_, count * sizeof(T)));
    }
    out.data = Buffer<T>(data_);
    out.size = static_cast<int64_t>(count);
    data_ = nullptr;
    return out;
  }

 private:
  T* data_ = nullptr;
  T fill_;
};

// Per-row offsets into a growable array, kept only once some row wrote to
// it (all-zero offsets come from calloc otherwise).
class RowOffsets {
 public:
  bool active() const { return active_; }
  void activate(std::size_t rows) {  // rows before this one are empty
    active_ = true;
    offsets_.append_fill(rows + 1, 0);
  }
  void end_row(std::size_t stop) {
    if (active_) offsets_.push_back(static_cast<int64_t>(stop));
  }
  Column<int64_t> release(std::size_t rows) {
    if (active_) return offsets_.release();
    Column<int64_t> out;
    void* zeros = std::calloc(rows + 1, sizeof(int64_t));
    if (!zeros) throw std::bad_alloc();
    out.data = Buffer<int64_t>(static_cast<int64_t*>(zeros));
    out.size = static_cast<int64_t>(rows + 1);
    return out;
  }

 private:
  Growable<int64_t> offsets_;
  bool active_ = false;
};

enum Key : int {
  k_image_id,
  k_category_id,
  k_bbox,
  k_score,
  k_segmentation,
  k_keypoints,
  k_area,
  k_id,
  k_iscrowd,
  k_unknown
};

inline int key_of(const char* s, std::size_t n) {
  switch (n) {
    case 2: return std::memcmp(s, "id", 2) == 0 ? k_id : k_unknown;
    case 4:
      if (std::memcmp(s, "bbox", 4) == 0) return k_bbox;
      return std::memcmp(s, "area", 4) == 0 ? k_area : k_unknown;
    case 5: return std::memcmp(s, "score", 5) == 0 ? k_score : k_unknown;
    case 7: return std::memcmp(s, "iscrowd", 7) == 0 ? k_iscrowd : k_unknown;
    case 8: return std::memcmp(s, "image_id", 8) == 0 ? k_image_id : k_unknown;
    case 9: return std::memcmp(s, "keypoints", 9) == 0 ? k_keypoints : k_unknown;
    case 11: return std::memcmp(s, "category_id", 11) == 0 ? k_category_id : k_unknown;
    case 12: return std::memcmp(s, "segmentation", 12) == 0 ? k_segmentation : k_unknown;
    default: return k_unknown;
  }
}

using json::Number;
using json::number_to_double;
using json::number_to_int64;

// The COCO results schema (rows of known keys into columns), read with the
// JSON scanner's tokens.
class ResultsParser : json::Scanner {
 public:
  ResultsParser(const char* data, std::size_t size)
      : Scanner(data, size, "results JSON"),
        image_id_(0),
        category_id_(0),
        score_(std::numeric_limits<double>::quiet_NaN()),
        bbox_(std::numeric_limits<double>::quiet_NaN()),
        present_(0),
        area_(std::numeric_limits<double>::quiet_NaN()),
        id_(0),
        iscrowd_(0),
        seg_kind_(0),
        seg_size_(0) {}

  ResultsColumns run() {
    if (end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;
    skip_ws();
    if (at_end() || *p_ != '[')
      fail(at_end() ? "expected a JSON array, found the end of the text"
                    : "the top level must be a JSON array of result objects");
    ++p_;
    // Rows are at least 3 bytes ("{},"); start at an estimate from typical
    // rows and grow by doubling (realloc of large blocks does not copy).
    capacity_ = 64 + static_cast<std::size_t>(end_ - p_) / 64;
    image_id_.activate(0, capacity_);
    category_id_.activate(0, capacity_);
    score_.activate(0, capacity_);
    bbox_.activate(0, capacity_);
    present_.activate(0, capacity_);
    polygon_offsets_.push_back(0);
    skip_ws();
    if (!at_end() && *p_ == ']') {
      ++p_;
    } else {
      for (;;) {
        row_ = static_cast<int64_t>(rows_);
        if (at_end()) fail("unexpected end of the text: expected a result object");
        if (*p_ != '{') fail("each result must be a JSON object");
        parse_row();
        skip_ws();
        if (at_end()) fail("unexpected end of the text: expected ',' or ']'");
        const char c = *p_++;
        if (c == ']') break;
        if (c != ',') {
          --p_;
          fail("expected ',' or ']' after a result object");
        }
        skip_ws();
      }
    }
    row_ = -1;
    skip_ws();
    if (!at_end()) fail("extra data after the top-level array");
    return finish();
  }

 private:
  std::size_t rows_ = 0, capacity_ = 0;
  std::string scratch_;  // unescaped keys

  RowColumn<int64_t, 1> image_id_, category_id_;
  RowColumn<double, 1> score_;
  RowColumn<double, 4> bbox_;
  RowColumn<uint16_t, 1> present_;
  RowColumn<double, 1> area_;
  RowColumn<int64_t, 1> id_, iscrowd_;
  RowColumn<uint8_t, 1> seg_kind_;
  RowColumn<int64_t, 2> seg_size_;
  Growable<uint8_t> rle_chars_;
  Growable<int64_t> rle_counts_;
  Growable<double> polygon_coords_;
  Growable<int64_t> polygon_offsets_;
  Growable<double> keypoints_;
  RowOffsets rle_chars_offsets_, rle_counts_offsets_, polygon_row_offsets_, keypoint_offsets_;
  bool complete_ = true;

  // The row's flags and where its variable-length data starts.
  uint16_t flags_ = 0;
  uint16_t unstored_keys_ = 0;      // bit per Key whose last value is not stored
  const char* bad_bbox_ = nullptr;  // the row's last "bbox" value, when not 4 numbers or []
  std::size_t row_chars_ = 0, row_counts_ = 0, row_coords_ = 0, row_polygons_ = 0, row_keypoints_ = 0;

  // A key (p_ at its opening quote) as a Key.
  int read_key() {
    ++p_;
    const char* start = p_;
    while (p_ < end_) {
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
      ++p_;
    }
    if (!at_end() && *p_ == '"') {
      ++p_;
      return key_of(start, static_cast<std::size_t>(p_ - 1 - start));
    }
    p_ = start;
    scratch_.clear();
    read_string_body(&scratch_);
    return key_of(scratch_.data(), scratch_.size());
  }

  // ---- rows -------------------------------------------------------------------
  void begin_row() {
    if (rows_ == capacity_) {
      capacity_ *= 2;
      image_id_.grow(capacity_);
      category_id_.grow(capacity_);
      score_.grow(capacity_);
      bbox_.grow(capacity_);
      present_.grow(capacity_);
      area_.grow(capacity_);
      id_.grow(capacity_);
      iscrowd_.grow(capacity_);
      seg_kind_.grow(capacity_);
      seg_size_.grow(capacity_);
    }
    row_ = static_cast<int64_t>(rows_);
    image_id_.fill_row(rows_);
    category_id_.fill_row(rows_);
    score_.fill_row(rows_);
    bbox_.fill_row(rows_);
    if (area_.active()) area_.fill_row(rows_);
    if (id_.active()) id_.fill_row(rows_);
    if (iscrowd_.active()) iscrowd_.fill_row(rows_);
    if (seg_kind_.active()) {
      seg_kind_.fill_row(rows_);
      seg_size_.fill_row(rows_);
    }
    flags_ = 0;
    unstored_keys_ = 0;
    bad_bbox_ = nullptr;
    row_chars_ = rle_chars_.size();
    row_counts_ = rle_counts_.size();
    row_coords_ = polygon_coords_.size();
    row_polygons_ = polygon_offsets_.size();
    row_keypoints_ = keypoints_.size();
  }

  void end_row() {
    if (bad_bbox_) fail_at(bad_bbox_, "'bbox' must be a list of 4 numbers (or [])");
    if (unstored_keys_) flags_ |= present_bit::unstored;
    if (flags_ & (present_bit::unstored | present_bit::extra_key)) complete_ = false;
    *present_.row(rows_) = flags_;
    rle_chars_offsets_.end_row(rle_chars_.size());
    rle_counts_offsets_.end_row(rle_counts_.size());
    polygon_row_offsets_.end_row(polygon_offsets_.size() - 1);
    keypoint_offsets_.end_row(keypoints_.size());
    ++rows_;
  }

  void stored(int key, bool ok) {
    const uint16_t bit = static_cast<uint16_t>(1u << key);
    flags_ |= bit;
    if (ok)
      unstored_keys_ &= static_cast<uint16_t>(~bit);
    else
      unstored_keys_ |= bit;
  }

  template <class T, int W>
  T* lazy_row(RowColumn<T, W>& column) {
    if (!column.active()) column.activate(rows_ + 1, capacity_);
    return column.row(rows_);
  }

  void parse_row() {  // p_ at '{'
    ++p_;
    begin_row();
    skip_ws();
    if (!at_end() && *p_ == '}') {
      ++p_;
      end_row();
      return;
    }
    for (;;) {
      if (at_end() || *p_ != '"') fail("expected a key string");
      const int key = read_key();
      skip_ws();
      expect(':', "expected ':' after a key");
      skip_ws();
      switch (key) {
        case k_image_id: read_int(key, image_id_); break;
        case k_category_id: read_int(key, category_id_); break;
        case k_id: read_int(key, id_); break;
        case k_iscrowd: read_int(key, iscrowd_); break;
        case k_score: read_double(key, score_); break;
        case k_area: read_double(key, area_); break;
        case k_bbox: read_bbox(); break;
        case k_segmentation: read_segmentation(); break;
        case k_keypoints: read_keypoints(); break;
        default: skip_value(); flags_ |= present_bit::extra_key;
      }
      skip_ws();
      if (at_end()) fail("unexpected end of the text: expected ',' or '}'");
      const char c = *p_++;
      if (c == '}') break;
      if (c != ',') {
        --p_;
        fail("expected ',' or '}' after a value");
      }
      skip_ws();
    }
    end_row();
  }

  void read_int(int key, RowColumn<int64_t, 1>& column) {
    int64_t value = 0;
    bool ok = false;
    if (starts_number())
      ok = number_to_int64(scan_number(), value);
    else
      skip_value();
    if (ok)
      *lazy_row(column) = value;
    else if (column.active())
      column.fill_row(rows_);
    stored(key, ok);
  }

  void read_double(int key, RowColumn<double, 1>& column) {
    double value = 0.0;
    bool ok = false;
    if (starts_number())
      ok = number_to_double(scan_number(), value);
    else
      skip_value();
    if (ok)
      *lazy_row(column) = value;
    else if (column.active())
      column.fill_row(rows_);
    stored(key, ok);
  }

  // A bbox that is neither 4 numbers nor [] is an error, reported at the end
  // of the row unless a repeated "bbox" key replaces it.
  void read_bbox() {
    const char* start = p_;
    flags_ = static_cast<uint16_t>((flags_ | present_bit::bbox) & ~present_bit::bbox_empty);
    bad_bbox_ = nullptr;
    const int got = try_bbox(bbox_.row(rows_));
    if (got == 0) {
      bbox_.fill_row(rows_);  // a repeated key may have written numbers
      flags_ |= present_bit::bbox_empty;
    } else if (got != 4) {
      bbox_.fill_row(rows_);
      bad_bbox_ = start;
      p_ = start;
      skip_value();
    }
  }

  // 0 for [], 4 for a list of 4 numbers that convert, else -1 (p_ anywhere).
  int try_bbox(double* box) {
    if (at_end() || *p_ != '[') return -1;
    ++p_;
    skip_ws();
    if (!at_end() && *p_ == ']') {
      ++p_;
      return 0;
    }
    for (int k = 0; k < 4; ++k) {
      if (!starts_number() || !number_to_double(scan_number(), box[k])) return -1;
      skip_ws();
      if (at_end() || *p_ != (k == 3 ? ']' : ',')) return -1;
      ++p_;
      skip_ws();
    }
    return 4;
  }

  // A list of numbers at p_ appended to `values`, each converted by
  // `convert` (number_to_double or number_to_int64); false (p_ anywhere)
  // when the value is not a list of numbers that convert.
  template <class T>
  bool read_list(Growable<T>& values, bool (*convert)(const Number&, T&)) {
    if (at_end() || *p_ != '[') return false;
    ++p_;
    skip_ws();
    if (!at_end() && *p_ == ']') {
      ++p_;
      return true;
    }
    for (;;) {
      T v;
      if (!starts_number() || !convert(scan_number(), v)) return false;
      values.push_back(v);
      skip_ws();
      if (at_end()) return false;
      const char c = *p_++;
      if (c == ']') return true;
      if (c != ',') return false;
      skip_ws();
    }
  }

  void read_keypoints() {
    if (!keypoint_offsets_.active()) keypoint_offsets_.activate(rows_);
    keypoints_.truncate(row_keypoints_);  // a repeated key replaces the earlier value
    const char* start = p_;
    const bool ok = read_list(keypoints_, number_to_double);
    if (!ok) {
      keypoints_.truncate(row_keypoints_);
      p_ = start;
      skip_value();
    }
    stored(k_keypoints, ok);
  }

  void read_segmentation() {
    if (!rle_chars_offsets_.active()) {
      rle_chars_offsets_.activate(rows_);
      rle_counts_offsets_.activate(rows_);
      polygon_row_offsets_.activate(rows_);
    }
    const char* start = p_;
    uint8_t* kind = lazy_row(seg_kind_);
    int64_t* size = lazy_row(seg_size_);
    truncate_segmentation();
    size[0] = size[1] = 0;
    SegmentationKind got = SegmentationKind::other;
    const bool ok = try_segmentation(got, size);
    if (!ok) {
      truncate_segmentation();
      size[0] = size[1] = 0;
      got = SegmentationKind::other;
      p_ = start;
      skip_value();
    }
    *kind = static_cast<uint8_t>(got);
    stored(k_segmentation, ok);
  }

  void truncate_segmentation() {
    rle_chars_.truncate(row_chars_);
    rle_counts_.truncate(row_counts_);
    polygon_coords_.truncate(row_coords_);
    polygon_offsets_.truncate(row_polygons_);
  }

  bool try_segmentation(SegmentationKind& kind, int64_t* size) {
    if (at_end()) return false;
    if (*p_ == '[') {  // polygons
      kind = SegmentationKind::polygons;
      ++p_;
      skip_ws();
      if (!at_end() && *p_ == ']') {
        ++p_;
        return true;
      }
      for (;;) {
        if (!read_list(polygon_coords_, number_to_double)) return false;
        polygon_offsets_.push_back(static_cast<int64_t>(polygon_coords_.size()));
        skip_ws();
        if (at_end()) return false;
        const char c = *p_++;
        if (c == ']') return true;
        if (c != ',') return false;
        skip_ws();
      }
    }
    if (*p_ != '{') return false;
    ++p_;
    // Whether the last "size" and the last "counts" are storable (a repeated
    // key replaces the earlier value, as in Python's json).
    bool size_ok = false, counts_ok = false;
    skip_ws();
    for (;;) {
      if (at_end() || *p_ != '"') return false;
      scratch_.clear();
      ++p_;
      read_string_body(&scratch_);
      skip_ws();
      if (at_end() || *p_ != ':') return false;
      ++p_;
      skip_ws();
      const char* value = p_;
      if (scratch_ == "size") {
        size_ok = read_size(size);
        if (!size_ok) {
          p_ = value;
          skip_value();
        }
      } else if (scratch_ == "counts") {
        rle_chars_.truncate(row_chars_);
        rle_counts_.truncate(row_counts_);
        if (!at_end() && *p_ == '"') {
          ++p_;
          read_string_body(&rle_chars_);
          kind = SegmentationKind::rle;
          counts_ok = true;
        } else {
          kind = SegmentationKind::rle_counts;
          counts_ok = read_list(rle_counts_, number_to_int64);
          if (!counts_ok) {
            rle_counts_.truncate(row_counts_);
            p_ = value;
            skip_value();
          }
        }
      } else {
        return false;  // a key RLE does not have
      }
      skip_ws();
      if (at_end()) return false;
      const char c = *p_++;
      if (c == '}') return size_ok && counts_ok;
      if (c != ',') return false;
      skip_ws();
    }
  }

  bool read_size(int64_t* size) {
    if (at_end() || *p_ != '[') return false;
    ++p_;
    for (int k = 0; k < 2; ++k) {
      skip_ws();
      if (!starts_number() || !number_to_int64(scan_number(), size[k])) return false;
      skip_ws();
      if (at_end() || *p_ != (k == 1 ? ']' : ',')) return false;
      ++p_;
    }
    return true;
  }

  ResultsColumns finish() {
    ResultsColumns out;
    const std::size_t n = rows_;
    out.n_rows = static_cast<int64_t>(n);
    out.image_id = image_id_.release(n);
    out.category_id = category_id_.release(n);
    out.score = score_.release(n);
    out.bbox = bbox_.release(n);
    out.present = present_.release(n);
    out.area = area_.release(n);
    out.id = id_.release(n);
    out.iscrowd = iscrowd_.release(n);
    out.segmentation_kind = seg_kind_.release(n);
    out.segmentation_size = seg_size_.release(n);
    out.rle_chars = rle_chars_.release();
    out.rle_chars_offsets = rle_chars_offsets_.release(n);
    out.rle_counts = rle_counts_.release();
    out.rle_counts_offsets = rle_counts_offsets_.release(n);
    out.polygon_coords = polygon_coords_.release();
    out.polygon_offsets = polygon_offsets_.release();
    out.polygon_row_offsets = polygon_row_offsets_.release(n);
    out.keypoints = keypoints_.release();
    out.keypoint_offsets = keypoint_offsets_.release(n);
    out.columnar_complete = complete_;
    return out;
  }
};

}  // namespace detail

// Reads a COCO results JSON text (UTF-8) into columns. Throws
// json::JsonError for malformed text, std::bad_alloc when out of memory.
inline ResultsColumns read_results_json(const char* data, std::size_t size) {
  return detail::ResultsParser(data, size).run();
}

}  // namespace turbometrics::detection
