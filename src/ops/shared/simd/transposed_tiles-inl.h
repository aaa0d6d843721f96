// aclcpu: the two-dimensional block walk every elementwise operator shares for
// transposed views (its inputs contiguous along dim 1, out along dim 0): the
// block shape, the walk over a plane, the scratch, prefetching, the in-register
// transpose (simd/transpose-inl.h) and out's stores. An operator supplies only
// its arithmetic: how one block row is computed, and its ordinary run kernel
// for planes the vector block does not suit (strided or broadcast inputs).
//
// Why blocks: walking either dim straight makes one side step 16 KiB per
// element on a 4096-wide matrix, and with a power-of-two row pitch all those
// lines fall in the same few cache sets, so 32 x 32 tiles of strided runs
// (scalar gathers) thrashed: 0.12 Gelem/s on the f32 4096 x 4096 bench, one
// core. Here each block row is computed along dim 1 (the inputs' contiguous
// dim) into scratch, then the block is copied out transposed, writing each out
// line in one go.
//
// Measured with hardsigmoid backward on that bench, one core, API ms per call
// (f32 / f16 / bf16 / mixed f16-f32): former tiles 160-250 / 120-200 / 125-235 /
// 145-230; scalar transpose 41-50 / 47-84 / 48-184 / 49-71; + vector column
// gathers and non-temporal f32 stores 31-37 / 44-59 / 42-47 / 31-33; + prefetch
// 28-30 / 31-33 / 36-38 / 24 (a noisy, loaded machine); block shape on a
// quieter machine, 64 x 64: 23 / 24 / 24-25 / 16-19, 16 x 256: 28-30 / 20-21 /
// 20-22 / 22-27, 32 x 128 (kept): 21-22.5 / 18-19 / 19-21 / 19-23. With one
// input (the forward op) blocks of 64 rows: its input is read as that many
// sequential streams, half as many as two inputs make at 32 rows, and each out
// line gets 64 elements at a time. Forward 4096^2 bench, one core, AMD Zen 5 VM
// (loaded, three runs), ms per call, 32 -> 64 rows: f32 10.7-14.5 -> 9.4-11.9,
// bf16 10.3-17.5 -> 8.2-10.9; the backward op's f32 case was unchanged
// (14.6-24 -> 14.4-16.5).
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_OPS_SHARED_SIMD_TRANSPOSED_TILES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_SHARED_SIMD_TRANSPOSED_TILES_INL_H_
#undef ACLCPU_OPS_SHARED_SIMD_TRANSPOSED_TILES_INL_H_
#else
#define ACLCPU_OPS_SHARED_SIMD_TRANSPOSED_TILES_INL_H_
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "ops/shared/element_types.h"
#include "ops/shared/simd/element_io-inl.h"
#include "simd/keep_scalar.h"
#include "simd/transpose-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Block rows along dim 0 (out's contiguous dim) for an operator of kInputs
// inputs; columns along dim 1 (the inputs' contiguous dim).
template <int kInputs>
constexpr int64_t kSharedTileRows = kInputs == 1 ? 64 : 32;
constexpr int64_t kSharedTileCols = 128;

// One input of a plane: element (i, j) is at start + (i * stride0 + j * stride1)
// elements of `bytes` bytes each (strides may be zero).
struct SharedTileInput {
  const void* start;
  int64_t stride0;
  int64_t stride1;
  int64_t bytes;
  const char* At(int64_t i, int64_t j) const {
    return static_cast<const char*>(start) + (i * stride0 + j * stride1) * bytes;
  }
};

// What the vector block holds for an Out: float32 values that out's store
// narrows (f16, bf16), or, for a 32-bit out, out's own bits (float32, or an
// int32's bits: the transpose's permutes and the loads and stores move bits
// unchanged, so no conversion is involved).
template <class Out>
constexpr bool kBlockHoldsOutBits = sizeof(typename Out::Storage) == sizeof(float);

// One block of a plane, when every input is contiguous along dim 1 and out
// along dim 0: block rows are computed by the operator with full vectors into
// float32 scratch, the scratch is transposed in registers by squares of
// lanes x lanes (simd/transpose-inl.h: permutes, no gathers), and each
// transposed vector is stored with out's conversion. Rows past the last whole
// square go element by element. `block` has kSharedTileRows<kInputs> x
// kSharedTileCols floats, vector-aligned. With `stream`, 32-bit out columns that are
// vector-aligned get non-temporal stores (huge planes only: they skip reading
// each out line before overwriting it).
//
// compute_row(rows, b_row, cols): rows[k] is input k's first element of the
// block row; writes b_row[0, cols) (vector-aligned) as kBlockHoldsOutBits says.
//
// Against the former column gathers (GatherIndex), kernel alone, one core, AMD
// EPYC Zen 5 (no GDS mitigation; gathers are cheap there), time per plane over
// two interleaved runs, 256^2 / 1040^2 / 4096^2: AVX-512 0.33-0.61x /
// 0.34-0.73x / 0.71-1.04x, AVX2 0.32-0.70x / 0.32-0.65x / 0.79-0.99x, SSE4
// (whose gather was scalar loads already) 0.98-1.24x / 1.02-1.23x / 1.01-1.32x;
// the 4096^2 bench through the API: AVX-512 0.52-0.94x, AVX2 0.59-1.02x, SSE4
// 0.96-1.22x. The noise between runs is about 15%. Two ways to spare a pass over
// the block were slower on power-of-two pitches, where every out line of a
// block falls in one L1 set: the last two steps done on the way out (each out
// line then written in pieces, four lines at a time: f32 1024^2 1.0-1.4x over
// three runs) and the first two done while computing four rows at once (eight
// input streams in one set: SSE4 f16 4096^2 1.6-2.2x). Tried and not kept either
// (forward op, one core, Zen 5 VM, ms per call, old and new alternated): all of
// a square's steps in registers (a load and a store a row, not one per pair of
// steps) made 1024^2 f32 0.40 -> 0.31 but 4096^2 f32 7.5-8.2 -> 8.2-11.1, the
// time going to the waits on out's non-temporal stores; non-temporal stores for
// a 16-bit out (two narrowed squares joined into whole vectors) left f16 4096^2
// as it was (6.97 vs 6.93). Where the time goes, f16 forward: 0.18 ns an element
// in cache (256^2), 0.39 at 4096^2, of which skipping out's stores saves 0.15.
//
// Not inlined into the plane walk: called once a block, it costs nothing at
// run time, and inlined it made the backward op's grad_f32.cc compile with 11 %
// more compiler memory (5.5 % this way) and several seconds more.
template <class Out, int kInputs, class ComputeRow>
HWY_NOINLINE void SharedTileBlockVector(const SharedTileInput (&inputs)[kInputs], int64_t i0, int64_t j0,
                           typename Out::Storage* o, int64_t out_stride1, int64_t rows, int64_t cols, float* block,
                           bool stream, ComputeRow& compute_row) {
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  static_assert(kSharedTileCols % hn::MaxLanes(hn::ScalableTag<float>()) == 0, "whole vectors in a scratch row");
  const int64_t square_rows = rows - rows % lanes;
  const int64_t square_cols = (cols + lanes - 1) / lanes * lanes;  // <= kSharedTileCols
  for (int64_t i = 0; i < rows; ++i) {
    const char* row_starts[kInputs];
    for (int k = 0; k < kInputs; ++k) {
      row_starts[k] = inputs[k].At(i0 + i, j0);
      // Prefetch the same row of the next block: the hardware prefetchers do
      // not follow 2 x 32 row streams (backward f32 bench 36 -> 29
      // ms, f16 44-58 -> 31 ms at 64 x 64 blocks). Past a row's end it is harmless.
      const int64_t row_bytes = kSharedTileCols * inputs[k].bytes;
      for (int64_t byte = 0; byte < row_bytes; byte += 64) hwy::Prefetch(row_starts[k] + row_bytes + byte);
    }
    float* b_row = block + i * kSharedTileCols;
    compute_row(static_cast<const char* const*>(row_starts), b_row, cols);
    // The last square's columns past the block: transposed with the rest, never
    // stored; zeros so that no indeterminate value is read.
    for (int64_t j = cols; j < square_cols; ++j) b_row[j] = 0.0f;
  }
  TransposeBlock(df, block, kSharedTileCols, square_rows, square_cols,
                 [&](hn::Vec<decltype(df)> v, int64_t j, int64_t i) {
                   if (j >= cols) return;
                   auto* target = o + j * out_stride1 + i;
                   if constexpr (kBlockHoldsOutBits<Out>) {
                     float* bits = reinterpret_cast<float*>(target);
                     if (stream && reinterpret_cast<uintptr_t>(bits) % (lanes * sizeof(float)) == 0) {
                       hn::Stream(v, df, bits);
                     } else {
                       hn::StoreU(v, df, bits);
                     }
                   } else {
                     VectorIo<Out>::Store(df, v, target);
                   }
                 });
  for (int64_t j = 0; j < cols; ++j) {
    auto* o_row = o + j * out_stride1;
    for (int64_t i = square_rows; i < rows; ++i) {
      // Strided reads of the scratch: kept scalar, no gather (simd/keep_scalar.h).
      const float value = KeepScalar(block[i * kSharedTileCols + j]);
      if constexpr (kBlockHoldsOutBits<Out>) {
        std::memcpy(o_row + i, &value, sizeof(value));
      } else {
        o_row[i] = Out::Store(value);
      }
    }
  }
}

// A size0 x size1 plane (transposed views; called once per plane by the
// executor's tile path): out element (i, j) at o + i * out_stride0 + j *
// out_stride1. Blocks of kSharedTileRows x kSharedTileCols, dim 0 blocks
// outside, so each input is read as kSharedTileRows sequential streams (its
// rows). Planes whose inputs are contiguous along dim 1 and out along dim 0 go
// through SharedTileBlockVector with `compute_row`; others (strided or
// broadcast inputs, strided out, a double out, which has no full-width float
// vector store) run each block row with run_row(starts, dst, cols): starts[k]
// is input k's first element of the row (stepping by its stride1), dst a
// contiguous scratch row of Out, then copy the block out element by element.
template <class Out, int kInputs, class ComputeRow, class RunRow>
void RunSharedTransposedPlane(const SharedTileInput (&inputs)[kInputs], typename Out::Storage* o,
                              int64_t out_stride0, int64_t out_stride1, int64_t size0, int64_t size1,
                              ComputeRow&& compute_row, RunRow&& run_row) {
  bool vector_block = out_stride0 == 1 && !std::is_same_v<Out, element::F64>;
  for (int k = 0; k < kInputs; ++k) vector_block = vector_block && inputs[k].stride1 == 1;
  // Non-temporal stores from 16 MiB of out per plane: with the inputs, at least
  // 32-48 MiB in all, the contiguous path's threshold (elementwise_plan.cc),
  // far beyond L2 and most of the L3 share. Backward f32 bench 41 -> 31-37 ms.
  const bool stream = size0 * size1 * int64_t{sizeof(typename Out::Storage)} >= (int64_t{16} << 20);
  constexpr int64_t kRows = kSharedTileRows<kInputs>;
  HWY_ALIGN float float_block[kRows * kSharedTileCols];
  HWY_ALIGN typename Out::Storage block[kRows * kSharedTileCols];
  for (int64_t i0 = 0; i0 < size0; i0 += kRows) {
    const int64_t rows = size0 - i0 < kRows ? size0 - i0 : kRows;
    for (int64_t j0 = 0; j0 < size1; j0 += kSharedTileCols) {
      const int64_t cols = size1 - j0 < kSharedTileCols ? size1 - j0 : kSharedTileCols;
      if constexpr (!std::is_same_v<Out, element::F64>) {
        if (vector_block) {
          SharedTileBlockVector<Out>(inputs, i0, j0, o + i0 + j0 * out_stride1, out_stride1, rows, cols,
                                     float_block, stream, compute_row);
          continue;
        }
      }
      for (int64_t i = 0; i < rows; ++i) {
        const char* starts[kInputs];
        for (int k = 0; k < kInputs; ++k) starts[k] = inputs[k].At(i0 + i, j0);
        run_row(static_cast<const char* const*>(starts), block + i * cols, cols);
      }
      for (int64_t j = 0; j < cols; ++j) {
        auto* row = o + i0 * out_stride0 + (j0 + j) * out_stride1;
        for (int64_t i = 0; i < rows; ++i) row[i * out_stride0] = KeepScalar(block[i * cols + j]);  // no scatter
      }
    }
  }
  if (stream) hwy::FlushStream();  // weakly ordered: visible before the launch completes
}

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
