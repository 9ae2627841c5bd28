// Surface distances between the objects of two label maps, per class: the
// boundary of each class's object in each map and, for every boundary
// pixel of one, the exact Euclidean distance (with voxel spacing) to the
// nearest boundary pixel of the other. Hausdorff distances, their
// percentiles, average surface distances and surface Dice are statistics
// of these directed distances (computed by the caller).
//
// Boundary: medpy's and MONAI's, the object minus its binary erosion by the
// structuring element of the given connectivity (offsets in {-1, 0, 1}^d
// with at most `connectivity` non-zero components; 1 is the cross), with
// everything outside the image counted as background (scipy's
// binary_erosion with border_value=0): an object pixel is on the boundary
// when one of its neighbours is background or lies outside the image.
// Connectivity 0 (no neighbours) makes every object pixel a boundary pixel:
// the maps are then surfaces already (DeepMind's surface points on the
// corner grid, found by the caller).
//
// Distances: a separable exact Euclidean distance transform of the other
// boundary (Felzenszwalb and Huttenlocher's lower envelope of parabolas,
// one axis at a time from the last, on squared distances in float64 with
// the spacing of each axis), over the bounding box of the two objects only
// (which holds every boundary pixel, so the box transform is exact there).
// The distances of a boundary are listed in C order of its pixels, as
// medpy's dt[border] reads them. With spacing 1 (or integer spacings) the
// squared distances are exact integers, so the distances are the correctly
// rounded square roots, bit for bit scipy's; otherwise the sum of the axes'
// squared terms may round differently (within a few ulp).
//
// A map is read through a 3-D strided view (planes x rows x columns);
// `dims` (1 to 3) says how many trailing axes are spatial: a 2-D image is
// the view (1, rows, columns) with dims 2, so the leading axis has no
// neighbours. Classes are handed out to threads one at a time; each class
// is computed by one thread in a fixed order, so the results are the same
// for every thread count.
//
// Peak memory beyond the inputs and outputs: per thread, for the class
// being computed, two uint8 masks of its padded box, one float64 distance
// array of the box and two uint8 site marks of it (about 12 bytes a box
// pixel), and line buffers of its longest axis; the
// bounding boxes take 2 x 6 int64 per class.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "turbometrics/interrupt.hpp"
#include "turbometrics/isa.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/segmentation/label_confusion.hpp"

namespace turbometrics::segmentation {

// The box [lo, hi] (inclusive) of the pixels of one class, per axis of the
// 3-D view; empty while lo[0] > hi[0].
struct Box {
  int64_t lo[3] = {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max(),
                   std::numeric_limits<int64_t>::max()};
  int64_t hi[3] = {-1, -1, -1};
  bool empty() const { return lo[0] > hi[0]; }
  void add(const Box& other) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], other.lo[a]);
      hi[a] = std::max(hi[a], other.hi[a]);
    }
  }
};

// The geometry of both maps: the 3-D view's extent, how many trailing axes
// are spatial (1, 2 or 3) and the spacing of each axis of the view.
struct SurfaceGrid {
  int64_t extent[3] = {1, 1, 1};
  int dims = 2;
  double spacing[3] = {1.0, 1.0, 1.0};
  int connectivity = 1;
};

// One class's result: the boundary pixel counts and the directed distances
// (C order of the boundary pixels). A direction towards an empty boundary
// holds +infinity for each of its pixels.
struct SurfaceDistances {
  int64_t pred_boundary = 0;
  int64_t true_boundary = 0;
  std::vector<double> pred_to_true;
  std::vector<double> true_to_pred;
};

namespace detail {

// The bounding boxes of the classes [0, K) of one map (labels outside are
// read and skipped). Stops between rows once `interrupt` is requested.
template <class Label>
std::vector<Box> class_boxes(const MapView& map, const SurfaceGrid& grid, int64_t classes, const Interrupt& interrupt) {
  std::vector<Box> boxes(static_cast<size_t>(classes));
  std::vector<int64_t> row_seen(static_cast<size_t>(classes), -1);
  int64_t row_id = 0;
  for (int64_t i = 0; i < grid.extent[0]; ++i) {
    for (int64_t j = 0; j < grid.extent[1]; ++j, ++row_id) {
      if ((row_id & 63) == 0 && interrupt.requested()) return boxes;
      const char* row = map.data + i * map.image_stride + j * map.row_stride;
      for (int64_t k = 0; k < grid.extent[2]; ++k) {
        Label value;
        std::memcpy(&value, row + k * map.column_stride, sizeof value);
        const auto label = static_cast<int64_t>(value);
        if (label < 0 || label >= classes) continue;
        const auto c = static_cast<size_t>(label);
        Box& box = boxes[c];
        if (row_seen[c] != row_id) {
          row_seen[c] = row_id;
          box.lo[0] = std::min(box.lo[0], i);
          box.hi[0] = std::max(box.hi[0], i);
          box.lo[1] = std::min(box.lo[1], j);
          box.hi[1] = std::max(box.hi[1], j);
        }
        box.lo[2] = std::min(box.lo[2], k);
        box.hi[2] = std::max(box.hi[2], k);
      }
    }
  }
  return boxes;
}

// The padded box: the class's box with a one-pixel margin on each spatial
// axis (background), so that every neighbour of a box pixel is in it.
struct Padded {
  int64_t n[3];       // the box's extent
  int64_t p[3];       // the padded extent
  int64_t pad[3];     // 1 on a spatial axis, else 0
  int64_t stride[3];  // of the padded array
  int64_t size() const { return p[0] * p[1] * p[2]; }
  int64_t box_size() const { return n[0] * n[1] * n[2]; }
};

inline Padded padded_of(const Box& box, const SurfaceGrid& grid) {
  Padded out{};
  for (int a = 0; a < 3; ++a) {
    out.n[a] = box.hi[a] - box.lo[a] + 1;
    out.pad[a] = a >= 3 - grid.dims ? 1 : 0;
    out.p[a] = out.n[a] + 2 * out.pad[a];
  }
  out.stride[2] = 1;
  out.stride[1] = out.p[2];
  out.stride[0] = out.p[1] * out.p[2];
  return out;
}

// mask[padded] = (label == c) over the box (the margin stays 0).
// out[k] = (value k of the row == c), k < n; a loop the compiler vectorises
// when the row is contiguous (`step` a constant).
template <class Label, int64_t Step>
TURBOMETRICS_ALWAYS_INLINE inline void match_row(const char* row, int64_t step, int64_t n, int64_t c, uint8_t* out) {
  const int64_t stride = Step > 0 ? Step : step;
  for (int64_t k = 0; k < n; ++k) {
    Label value;
    std::memcpy(&value, row + k * stride, sizeof value);
    out[k] = static_cast<int64_t>(value) == c ? 1 : 0;
  }
}

// mask[padded] = (label == c) over the box (the margin stays 0). Stops
// (mask unspecified) once `interrupt` is requested.
template <class Label>
void fill_mask(const MapView& map, const Box& box, const Padded& geo, int64_t c, std::vector<uint8_t>& mask,
               const Interrupt& interrupt) {
  mask.assign(static_cast<size_t>(geo.size()), 0);
  const bool contiguous = map.column_stride == static_cast<int64_t>(sizeof(Label));
  for (int64_t i = 0; i < geo.n[0]; ++i) {
    for (int64_t j = 0; j < geo.n[1]; ++j) {
      if ((j & 63) == 0 && interrupt.requested()) return;
      const char* row = map.data + (box.lo[0] + i) * map.image_stride + (box.lo[1] + j) * map.row_stride +
                        box.lo[2] * map.column_stride;
      uint8_t* out = mask.data() + (i + geo.pad[0]) * geo.stride[0] + (j + geo.pad[1]) * geo.stride[1] + geo.pad[2];
      if (contiguous) {
        match_row<Label, static_cast<int64_t>(sizeof(Label))>(row, 0, geo.n[2], c, out);
      } else {
        match_row<Label, 0>(row, map.column_stride, geo.n[2], c, out);
      }
    }
  }
}

// The padded-array offsets of the structuring element's neighbours.
inline std::vector<int64_t> neighbour_offsets(const Padded& geo, const SurfaceGrid& grid) {
  std::vector<int64_t> out;
  const int first = 3 - grid.dims;
  for (int d0 = -1; d0 <= 1; ++d0) {
    for (int d1 = -1; d1 <= 1; ++d1) {
      for (int d2 = -1; d2 <= 1; ++d2) {
        const int d[3] = {d0, d1, d2};
        int nonzero = 0;
        bool allowed = true;
        for (int a = 0; a < 3; ++a) {
          if (d[a] == 0) continue;
          ++nonzero;
          if (a < first) allowed = false;
        }
        if (!allowed || nonzero == 0 || nonzero > grid.connectivity) continue;
        out.push_back(d0 * geo.stride[0] + d1 * geo.stride[1] + d2 * geo.stride[2]);
      }
    }
  }
  return out;
}

// The box indices (C order) of the boundary pixels of `mask`; marks them
// in `sites` (box-sized, 1 on the boundary). Row by row: the AND of the
// neighbours, one offset at a time (vectorised), then the object pixels
// where it is 0, found eight bytes at a time. Stops (unspecified) once
// `interrupt` is requested.
inline void boundary_of(const std::vector<uint8_t>& mask, const Padded& geo, const std::vector<int64_t>& offsets,
                        std::vector<int64_t>& pixels, std::vector<uint8_t>& sites, const Interrupt& interrupt) {
  pixels.clear();
  sites.assign(static_cast<size_t>(geo.box_size()), 0);
  const int64_t n = geo.n[2];
  int64_t index = 0;
  for (int64_t i = 0; i < geo.n[0]; ++i) {
    for (int64_t j = 0; j < geo.n[1]; ++j, index += n) {
      if ((j & 63) == 0 && interrupt.requested()) return;
      const uint8_t* row =
          mask.data() + (i + geo.pad[0]) * geo.stride[0] + (j + geo.pad[1]) * geo.stride[1] + geo.pad[2];
      uint8_t* site = sites.data() + index;
      // No neighbours (connectivity 0): the AND of none is taken as 0, so
      // that every object pixel is on the boundary.
      std::fill(site, site + n, static_cast<uint8_t>(offsets.empty() ? 0 : 1));
      for (const int64_t o : offsets) {
        const uint8_t* neighbour = row + o;
        for (int64_t k = 0; k < n; ++k) site[k] &= neighbour[k];
      }
      for (int64_t k = 0; k < n; ++k) site[k] = row[k] & static_cast<uint8_t>(site[k] ^ 1);
      int64_t k = 0;
      for (; k + 8 <= n; k += 8) {
        uint64_t word;
        std::memcpy(&word, site + k, sizeof word);
        if (word == 0) continue;
        for (int64_t b = 0; b < 8; ++b)
          if (site[k + b]) pixels.push_back(index + k + b);
      }
      for (; k < n; ++k)
        if (site[k]) pixels.push_back(index + k);
    }
  }
}

// The lines of a strided pass transformed together.
constexpr int64_t line_block = 16;

// Scratch buffers of one thread's 1-D transforms (line_block lines).
struct LineBuffers {
  std::vector<double> f, out, z;
  std::vector<int64_t> v;
  void reserve(int64_t n) {
    f.resize(static_cast<size_t>(n * line_block));
    out.resize(static_cast<size_t>(n * line_block));
    z.resize(static_cast<size_t>(n) + 1);
    v.resize(static_cast<size_t>(n));
  }
};

// out[q] = min_p (s (q - p))^2 + f[p] over the finite f[p] (the lower
// envelope of parabolas); all +infinity when no f[p] is finite.
inline void parabola_envelope(const double* f, int64_t n, double s, LineBuffers& b, double* out) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  int64_t* v = b.v.data();
  double* z = b.z.data();
  const double s2 = s * s;
  int64_t k = -1;
  for (int64_t q = 0; q < n; ++q) {
    if (f[q] == inf) continue;
    const double fq = f[q] + s2 * static_cast<double>(q) * static_cast<double>(q);
    double x = -inf;
    while (k >= 0) {
      const int64_t p = v[k];
      const double fp = f[p] + s2 * static_cast<double>(p) * static_cast<double>(p);
      x = (fq - fp) / (2.0 * s2 * static_cast<double>(q - p));
      if (x > z[k]) break;
      --k;
    }
    ++k;
    v[k] = q;
    z[k] = k == 0 ? -inf : x;
  }
  if (k < 0) {
    std::fill(out, out + n, inf);
    return;
  }
  int64_t j = 0;
  for (int64_t q = 0; q < n; ++q) {
    while (j < k && z[j + 1] < static_cast<double>(q)) ++j;
    const double d = s * static_cast<double>(q - v[j]);
    out[q] = d * d + f[v[j]];
  }
}

// Squared distances (box-sized) of every box pixel to the nearest site
// within its line of the first spatial axis (every axis but that one
// transformed; final_pass does that one). Returns early (dist unspecified)
// once `interrupt` is requested.
inline void squared_distances(const std::vector<uint8_t>& sites, const Padded& geo, const SurfaceGrid& grid,
                              LineBuffers& b, std::vector<double>& dist, const Interrupt& interrupt) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const int64_t n0 = geo.n[0], n1 = geo.n[1], n2 = geo.n[2];
  dist.resize(static_cast<size_t>(geo.box_size()));
  // The last axis: distance to the nearest site of the row, two sweeps.
  const double s2 = grid.spacing[2];
  for (int64_t r = 0; r < n0 * n1; ++r) {
    if ((r & 255) == 0 && interrupt.requested()) return;
    const uint8_t* site = sites.data() + r * n2;
    double* d = dist.data() + r * n2;
    int64_t last = -1;
    for (int64_t k = 0; k < n2; ++k) {
      if (site[k]) last = k;
      d[k] = last < 0 ? inf : static_cast<double>(k - last);
    }
    last = -1;
    for (int64_t k = n2 - 1; k >= 0; --k) {
      if (site[k]) last = k;
      if (last >= 0) d[k] = std::min(d[k], static_cast<double>(last - k));
      if (d[k] != inf) {
        const double t = s2 * d[k];
        d[k] = t * t;
      }
    }
  }
  // The other spatial axes, from the last: envelopes of the lines.
  for (int axis = 1; axis > 3 - grid.dims; --axis) {
    const int64_t n = geo.n[axis];
    if (n == 1) continue;
    const double s = grid.spacing[axis];
    b.reserve(n);
    const int64_t step = axis == 1 ? n2 : n1 * n2;
    const int64_t outer = axis == 1 ? n0 : 1;
    const int64_t inner = axis == 1 ? n2 : n1 * n2;
    // Lines are gathered `block` at a time (neighbours in memory), so that
    // each cache line of a strided pass is read once, not once per line.
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t first = 0; first < inner; first += line_block) {
        if (interrupt.requested()) return;
        const int64_t lines = std::min(line_block, inner - first);
        double* base = dist.data() + o * n1 * n2 + first;
        for (int64_t q = 0; q < n; ++q) {
          const double* from = base + q * step;
          for (int64_t l = 0; l < lines; ++l) b.f[static_cast<size_t>(l * n + q)] = from[l];
        }
        for (int64_t l = 0; l < lines; ++l) {
          double* line = b.f.data() + l * n;
          if (std::all_of(line, line + n, [](double x) { return x == inf; })) {
            std::copy(line, line + n, b.out.data() + l * n);
            continue;
          }
          parabola_envelope(line, n, s, b, b.out.data() + l * n);
        }
        for (int64_t q = 0; q < n; ++q) {
          double* to = base + q * step;
          for (int64_t l = 0; l < lines; ++l) to[l] = b.out[static_cast<size_t>(l * n + q)];
        }
      }
    }
  }
}

// Per thread: the buffers of one class.
struct ClassScratch {
  std::vector<uint8_t> pred_mask, true_mask, pred_sites, true_sites;
  std::vector<int64_t> pred_pixels, true_pixels;
  std::vector<double> dist;
  LineBuffers lines;
};

// The first spatial axis's pass, evaluated at the query pixels only: out[i]
// = min over the line of pixels[i] of (s (q - p))^2 + dist[p]. A line with
// many queries is transformed whole (lower envelope); on the others each
// query looks outwards along its line until (s r)^2 reaches the best value
// found (its cost is its distance to the nearest site along the line, in
// pixels), which is the envelope's value (the same candidates and
// arithmetic, minimised exactly).
inline void final_pass(std::vector<double>& dist, const Padded& geo, const SurfaceGrid& grid,
                       const std::vector<int64_t>& pixels, LineBuffers& b, std::vector<double>& out,
                       const Interrupt& interrupt) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const int axis = 3 - grid.dims;
  const int64_t n = geo.n[axis];
  const double s = grid.spacing[axis];
  const int64_t step = axis == 2 ? 1 : axis == 1 ? geo.n[2] : geo.n[1] * geo.n[2];
  const int64_t plane = n * step;
  auto line_of = [&](int64_t index) { return (index / plane) * step + index % step; };
  auto base_of = [&](int64_t line) { return (line / step) * plane + line % step; };
  std::vector<int32_t> queries(static_cast<size_t>(geo.box_size() / n), 0);
  for (const int64_t index : pixels) ++queries[static_cast<size_t>(line_of(index))];
  auto heavy = [&](int64_t line) { return int64_t{queries[static_cast<size_t>(line)]} * 32 > n; };
  b.reserve(n);
  int64_t done = 0;
  for (int64_t line = 0; line < static_cast<int64_t>(queries.size()); ++line) {
    if (!heavy(line)) continue;
    if ((++done & 63) == 0 && interrupt.requested()) return;
    double* base = dist.data() + base_of(line);
    for (int64_t q = 0; q < n; ++q) b.f[static_cast<size_t>(q)] = base[q * step];
    if (std::all_of(b.f.begin(), b.f.begin() + n, [](double x) { return x == inf; })) continue;
    parabola_envelope(b.f.data(), n, s, b, b.out.data());
    for (int64_t q = 0; q < n; ++q) base[q * step] = b.out[static_cast<size_t>(q)];
  }
  for (size_t i = 0; i < pixels.size(); ++i) {
    if ((i & 4095) == 0 && interrupt.requested()) return;
    const int64_t index = pixels[i], line = line_of(index);
    double best = dist[static_cast<size_t>(index)];
    if (!heavy(line)) {
      const double* base = dist.data() + base_of(line);
      const int64_t q = (index % plane) / step;
      for (int64_t r = 1;; ++r) {
        const double d = s * static_cast<double>(r);
        const double d2 = d * d;
        const bool below = q - r >= 0, above = q + r < n;
        if (d2 >= best || (!below && !above)) break;
        if (below) best = std::min(best, d2 + base[(q - r) * step]);
        if (above) best = std::min(best, d2 + base[(q + r) * step]);
      }
    }
    out[i] = best;
  }
}

// dist at each pixel, square-rooted (all +infinity when there are no sites).
inline void read_distances(const std::vector<int64_t>& pixels, const std::vector<uint8_t>& sites, bool any_site,
                           const Padded& geo, const SurfaceGrid& grid, ClassScratch& s, std::vector<double>& out,
                           const Interrupt& interrupt) {
  out.assign(pixels.size(), std::numeric_limits<double>::infinity());
  if (!any_site || pixels.empty()) return;
  squared_distances(sites, geo, grid, s.lines, s.dist, interrupt);
  if (grid.dims == 1) {  // the row pass was the only one
    for (size_t i = 0; i < pixels.size(); ++i) out[i] = s.dist[static_cast<size_t>(pixels[i])];
  } else {
    final_pass(s.dist, geo, grid, pixels, s.lines, out, interrupt);
  }
  for (double& d : out) d = std::sqrt(d);
}

}  // namespace detail

// The surface distances of each class of `classes` (values in [0, K)) in
// two label maps of one geometry: out[i] for classes[i]. Labels outside
// [0, K) belong to no class. Stops early (results unspecified) once
// `interrupt` is requested.
template <class Pred, class True>
void surface_distances(const MapView& y_pred, const MapView& y_true, const SurfaceGrid& grid, int64_t classes,
                       const std::vector<int64_t>& wanted, int n_threads, std::vector<SurfaceDistances>& out,
                       const Interrupt& interrupt = Interrupt::never()) {
  out.assign(wanted.size(), SurfaceDistances{});
  if (grid.extent[0] * grid.extent[1] * grid.extent[2] == 0 || wanted.empty()) return;
  const std::vector<Box> pred_boxes = detail::class_boxes<Pred>(y_pred, grid, classes, interrupt);
  const std::vector<Box> true_boxes = detail::class_boxes<True>(y_true, grid, classes, interrupt);
  const int threads = std::max(1, n_threads);
  parallel_for_dynamic(static_cast<int64_t>(wanted.size()), threads, interrupt, [&](int64_t w) {
    const int64_t c = wanted[static_cast<size_t>(w)];
    const Box& pred_box = pred_boxes[static_cast<size_t>(c)];
    const Box& true_box = true_boxes[static_cast<size_t>(c)];
    Box box = pred_box;
    box.add(true_box);
    if (box.empty()) return;
    // Scratch per call: a class's buffers are sized by its box.
    detail::ClassScratch s;
    const detail::Padded geo = detail::padded_of(box, grid);
    const std::vector<int64_t> offsets = detail::neighbour_offsets(geo, grid);
    detail::fill_mask<Pred>(y_pred, box, geo, c, s.pred_mask, interrupt);
    detail::fill_mask<True>(y_true, box, geo, c, s.true_mask, interrupt);
    detail::boundary_of(s.pred_mask, geo, offsets, s.pred_pixels, s.pred_sites, interrupt);
    detail::boundary_of(s.true_mask, geo, offsets, s.true_pixels, s.true_sites, interrupt);
    std::vector<uint8_t>().swap(s.pred_mask);
    std::vector<uint8_t>().swap(s.true_mask);
    SurfaceDistances& result = out[static_cast<size_t>(w)];
    result.pred_boundary = static_cast<int64_t>(s.pred_pixels.size());
    result.true_boundary = static_cast<int64_t>(s.true_pixels.size());
    detail::read_distances(s.pred_pixels, s.true_sites, !s.true_pixels.empty(), geo, grid, s, result.pred_to_true,
                           interrupt);
    detail::read_distances(s.true_pixels, s.pred_sites, !s.pred_pixels.empty(), geo, grid, s, result.true_to_pred,
                           interrupt);
  });
}

}  // namespace turbometrics::segmentation
