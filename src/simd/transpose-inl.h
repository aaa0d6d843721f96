// aclcpu: transposing a block of float32 values by squares of L x L (L = the
// target's float lanes), in registers, with no gather instruction.
//
// Why not gathers: vector gathers (VGATHERDPS and kin) are microcoded. On CPUs
// with the Gather Data Sampling mitigation (Skylake-SP, Cascade Lake, Ice Lake)
// they are many times slower (the block kernel ran 8x slower on AVX-512 there
// than on SSE4, whose gather is scalar loads), and they are slow on Zen 2/3 too.
// Two-input permutes (ConcatEven/ConcatOdd: SHUFPS, VPERMT2PS, UZP1/UZP2) are
// single ordinary instructions on every target.
//
// The method. Take L rows of L lanes (L a power of two: Highway rounds SVE's
// lane count down to one) and index each value by its row v and lane l,
// log2(L) bits each. An unzip step s pairs the rows v and v + 2^s (bit s of v
// clear) and replaces them with ConcatEven and ConcatOdd of the pair: the value
// at lane l of row v goes to lane (bit s of v) * L/2 + l/2 of the row whose bit
// s is l's lowest bit. So each step moves one row bit to the top of the lane
// index and the lane's lowest bit into row bit s; after steps 0, 1, ...,
// log2(L) - 1 the lane index is the old row index and the row index the old
// lane index: row v holds what was column v. A step touches two rows at a time,
// so rows can wait in memory between steps (SVE vectors cannot be held in
// arrays): the steps run in place in the block, two at a time in registers,
// and the transposed rows are then handed out column by column.
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_SIMD_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_SIMD_TRANSPOSE_INL_H_
#undef ACLCPU_SIMD_TRANSPOSE_INL_H_
#else
#define ACLCPU_SIMD_TRANSPOSE_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include "hwy/base.h"
#include "hwy/highway.h"

// Whether this target's vectors can be elements of an array: not SVE's
// sizeless types, and the scalar target's squares have no steps.
#undef ACLCPU_SIMD_VECTOR_ARRAYS
#if HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_SVE || HWY_TARGET == HWY_SVE2 || HWY_TARGET == HWY_SVE_256 || \
    HWY_TARGET == HWY_SVE2_128
#define ACLCPU_SIMD_VECTOR_ARRAYS 0
#else
#define ACLCPU_SIMD_VECTOR_ARRAYS 1
#endif

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One unzip step on a pair of rows (`upper` is the row with bit s set).
template <class D>
HWY_INLINE void UnzipStep(D d, hn::Vec<D>& lower, hn::Vec<D>& upper) {
#if HWY_TARGET == HWY_SCALAR
  // One lane: a 1 x 1 square is its own transpose and has no steps.
  (void)d, (void)lower, (void)upper;
#else
  const hn::Vec<D> even = hn::ConcatEven(d, upper, lower);
  upper = hn::ConcatOdd(d, upper, lower);
  lower = even;
#endif
}

// Steps s and s + 1 on the rows v, v + 2^s, v + 2^(s+1), v + 2^s + 2^(s+1)
// (r0, r1, r2, r3; bits s and s + 1 of v clear).
template <class D>
HWY_INLINE void UnzipTwoSteps(D d, hn::Vec<D>& r0, hn::Vec<D>& r1, hn::Vec<D>& r2, hn::Vec<D>& r3) {
  UnzipStep(d, r0, r1);
  UnzipStep(d, r2, r3);
  UnzipStep(d, r0, r2);
  UnzipStep(d, r1, r3);
}

// Applies `count` (1 or 2) steps from step `first` to the L rows at `rows`
// (`pitch` floats apart), in place, over `width` columns (a multiple of L).
template <class D>
void UnzipStepsInPlace(D d, float* rows, int64_t pitch, int64_t width, size_t first, size_t count) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t gap = int64_t{1} << first;  // between the rows a step pairs
  const int64_t span = gap << count;        // rows that exchange values within the steps
  for (int64_t column = 0; column < width; column += lanes) {
    for (int64_t base = 0; base < lanes; base += span) {
      for (int64_t v = base; v < base + gap; ++v) {
        float* r0 = rows + v * pitch + column;
        float* r1 = r0 + gap * pitch;
        if (count == 1) {
          auto a = hn::Load(d, r0), b = hn::Load(d, r1);
          UnzipStep(d, a, b);
          hn::Store(a, d, r0), hn::Store(b, d, r1);
        } else {
          float* r2 = r0 + 2 * gap * pitch;
          float* r3 = r1 + 2 * gap * pitch;
          auto a = hn::Load(d, r0), b = hn::Load(d, r1), c = hn::Load(d, r2), e = hn::Load(d, r3);
          UnzipTwoSteps(d, a, b, c, e);
          hn::Store(a, d, r0), hn::Store(b, d, r1), hn::Store(c, d, r2), hn::Store(e, d, r3);
        }
      }
    }
  }
}

// Transposes the float32 block at `block` (`rows` x `width`, `pitch` floats a
// row, all of them vector-aligned; rows and width multiples of L) by L x L
// squares, and calls emit(vector, column, row) for every L values of a
// column: `vector` holds block[row + k][column] in lane k. Columns go in order
// and each column's vectors in increasing row order, so that a caller writing
// columns out as lines writes each line at once, as the gathers did (see
// SharedTileBlockVector in ops/shared/simd/transposed_tiles-inl.h for what
// other orders cost). The block may be overwritten.
//
// `whole_lines` false (out's lines stay in cache: nothing is streamed), where
// vectors can be held in an array (not SVE's): each square's steps all in
// registers instead, squares column by column, so a column's vectors go out
// L values at a time, interleaved with its square's other columns: a load a
// row and no stores to the block, where the steps above take two loads and
// two stores a row and the columns' pass one more load. Streamed blocks keep
// the whole lines: there the interleaved order waited on out's non-temporal
// stores (ops/shared/simd/transposed_tiles-inl.h). Forward through the API,
// one core unless said, AMD Zen 4 VM (avx512_bf16; family 25 model 17), the
// two libraries alternated, us per call: f32 256^2 20.7 -> 15.8, 512^2 100
// -> 83, 1024^2 354-368 -> 328-345, 2048^2 2480-2720 -> 2580-2850 (the one
// loss, 4 %; two threads 1434 -> 1083); f16 256^2 17.4 -> 16.4, 512^2 69 ->
// 60, 1024^2 263 -> 255, 2048^2 1797 -> 1283; 4096^2 (streamed) level.
template <class D, class Emit>
void TransposeBlock(D d, float* block, int64_t pitch, int64_t rows, int64_t width, Emit emit, bool whole_lines) {
#if ACLCPU_SIMD_VECTOR_ARRAYS
  if (!whole_lines) {
    constexpr size_t kLanes = hn::MaxLanes(D());
    for (int64_t column = 0; column < width; column += kLanes) {
      for (int64_t group = 0; group < rows; group += kLanes) {
        hn::Vec<D> square[kLanes];
#pragma GCC unroll 16
        for (size_t r = 0; r < kLanes; ++r) square[r] = hn::Load(d, block + (group + r) * pitch + column);
#pragma GCC unroll 16
        for (size_t gap = 1; gap < kLanes; gap <<= 1) {
#pragma GCC unroll 16
          for (size_t r = 0; r < kLanes; ++r) {
            if ((r & gap) == 0) UnzipStep(d, square[r], square[r + gap]);
          }
        }
#pragma GCC unroll 16
        for (size_t p = 0; p < kLanes; ++p) emit(square[p], column + static_cast<int64_t>(p), group);
      }
    }
    return;
  }
#else
  (void)whole_lines;
#endif
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const size_t steps = hwy::FloorLog2(static_cast<size_t>(lanes));
  for (int64_t group = 0; group < rows; group += lanes) {
    size_t step = 0;
    if (steps % 2 == 1) {
      UnzipStepsInPlace(d, block + group * pitch, pitch, width, step, 1);
      step += 1;
    }
    for (; step < steps; step += 2) UnzipStepsInPlace(d, block + group * pitch, pitch, width, step, 2);
  }
  // Row p of the square at column c now holds column c + p.
  for (int64_t column = 0; column < width; ++column) {
    const float* transposed = block + (column % lanes) * pitch + (column - column % lanes);
    for (int64_t row = 0; row < rows; row += lanes) emit(hn::Load(d, transposed + row * pitch), column, row);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
