// aclcpu kernel tests: the planes the two-dimensional block kernels of the
// elementwise operators (ops/shared/simd/transposed_tiles-inl.h) are tested on,
// against each operator's scalar reference run column by column, and how
// both results are taken (PlaneOut, ScalarPlaneOut). Shared by the
// backward op's (tests/unit/simd_kernel_test.cc) and the forward pair's
// (tests/hardsigmoid/kernel_test.cc) tests.
#ifndef ACLCPU_TESTS_SUPPORT_TILE_TEST_PLANES_H_
#define ACLCPU_TESTS_SUPPORT_TILE_TEST_PLANES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace aclcpu {

// A size0 x size1 plane in one of kTileTestLayouts layouts: 0, transposed
// (inputs contiguous along dim 1, out along dim 0: the vector block path); 1,
// the same with padded pitches and misaligned starts; 2, everything strided
// (the element-by-element path). Input element (i, j) is at misalign + i *
// in_pitch + j * in_step of its buffer, out element (i, j) at misalign + i *
// out_step + j * out_pitch of its own; the buffers hold in_extent and out_extent
// elements.
struct TileTestPlane {
  int64_t size0, size1;
  int layout;
  int64_t misalign, in_step, out_step, in_pitch, out_pitch;
  size_t in_extent, out_extent;
};

constexpr int kTileTestLayouts = 3;
constexpr int kTileTestStridedLayout = 2;  // the one layout without vector blocks

inline TileTestPlane MakeTileTestPlane(int64_t size0, int64_t size1, int layout) {
  TileTestPlane p{};
  p.size0 = size0;
  p.size1 = size1;
  p.layout = layout;
  p.misalign = layout == 0 ? 0 : 3;
  p.in_step = layout == 2 ? 2 : 1;
  p.out_step = layout == 2 ? 3 : 1;
  p.in_pitch = size1 * p.in_step + (layout == 0 ? 0 : 5);
  p.out_pitch = size0 * p.out_step + (layout == 0 ? 0 : 7);
  p.in_extent = static_cast<size_t>(p.misalign + size0 * p.in_pitch);
  p.out_extent = static_cast<size_t>(p.misalign + size1 * p.out_pitch);
  return p;
}

// Every (size0, size1) the block kernels are tested at: sizes around the lane
// counts, then sizes at the edges of the squares and blocks (blocks of 128
// columns, and of 128 rows for a 32-bit out, 256 for a 16-bit one, whose
// squares hold 2 x lanes rows: an odd count leaves a row without its pair) and
// odd sizes crossed, so that the last block's rows end inside a square that the
// vector path transposes in registers (the rows past the last whole square go
// element by element) and its columns end inside a vector. The tall planes
// (around 128 and 256 rows) only a few, in the two vector layouts: they run
// emulated on Arm in CI.
inline std::vector<TileTestPlane> AllTileTestPlanes() {
  std::vector<TileTestPlane> planes;
  const int64_t around_lanes[][2] = {{1, 1},   {1, 70},  {70, 1},  {15, 17}, {63, 65},
                                     {64, 64}, {65, 63}, {17, 130}, {129, 3}};
  for (const auto& shape : around_lanes) {
    for (int layout = 0; layout < kTileTestLayouts; ++layout) {
      planes.push_back(MakeTileTestPlane(shape[0], shape[1], layout));
    }
  }
  for (int64_t size0 : {1, 31, 32, 33, 63, 65}) {
    for (int64_t size1 : {1, 75, 127, 128, 129, 257}) {
      for (int layout = 0; layout < kTileTestLayouts; ++layout) {
        planes.push_back(MakeTileTestPlane(size0, size1, layout));
      }
    }
  }
  const int64_t tall[][3] = {{127, 129, 0}, {129, 75, 0}, {255, 129, 0}, {256, 129, 1}, {257, 75, 1}};
  for (const auto& shape : tall) planes.push_back(MakeTileTestPlane(shape[0], shape[1], static_cast<int>(shape[2])));
  return planes;
}

// How each plane's block kernel stores out: with ordinary stores, and in the
// vector layouts also with non-temporal ones (the strided layout's element
// walk has none). A test compares both with one scalar result: the inputs and
// the reference are made once a plane (under emulation on Arm in CI they cost
// more than the block kernel itself).
inline std::vector<bool> TileTestStoreModes(const TileTestPlane& p) {
  if (p.layout == kTileTestStridedLayout) return {false};
  return {false, true};
}

// Out's buffer for plane `p` (out_extent elements of `out_bytes` bytes, 0xA5
// wherever nothing is written) as `run(out)` leaves it, `out` pointing at out's
// element (0, 0), past the plane's misalignment: how a block kernel's result is
// taken, the same way for every operator.
template <class Run>
std::vector<uint8_t> PlaneOut(const TileTestPlane& p, size_t out_bytes, Run&& run) {
  std::vector<uint8_t> out(p.out_extent * out_bytes, 0xA5);
  run(out.data() + out_bytes * static_cast<size_t>(p.misalign));
  return out;
}

// The same buffer filled by an operator's scalar reference run column by
// column: `column(j, out_column)` writes column j's size0 elements from
// out_column, p.out_step apart. What every block kernel is compared with.
template <class Column>
std::vector<uint8_t> ScalarPlaneOut(const TileTestPlane& p, size_t out_bytes, Column&& column) {
  return PlaneOut(p, out_bytes, [&](uint8_t* out) {
    for (int64_t j = 0; j < p.size1; ++j) column(j, out + out_bytes * static_cast<size_t>(j * p.out_pitch));
  });
}

}  // namespace aclcpu

#endif  // ACLCPU_TESTS_SUPPORT_TILE_TEST_PLANES_H_
