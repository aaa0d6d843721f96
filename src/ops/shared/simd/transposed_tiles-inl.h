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
// 20-22 / 22-27, 32 x 128: 21-22.5 / 18-19 / 19-21 / 19-23. Those blocks were
// float32 scratch of 32 (backward) or 64 (forward) rows; the blocks now are
// taller, and hold out's own 16-bit values for a 16-bit out (kSharedTileRows
// below, SharedTileBlockOfHalves).
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
#include <utility>

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

// The block: kSharedTileRows<Out> rows along dim 0 (out's contiguous dim) by
// as many columns along dim 1 (the inputs' contiguous dim) as fill
// kSharedTileBytes of out's elements: 256 x 128 for a 16-bit out, 128 x 128
// for a 32-bit one. Why so many rows: each block writes that many out elements
// to each of its out lines at once, and memory takes short runs badly. A probe
// of the access pattern alone (no arithmetic: row segments read, line segments
// written with non-temporal stores; 16-bit 4096^2, one core, AMD Zen 5 VM, ms,
// three interleaved runs): 64 x 128 3.9-4.0, 256 x 128 2.2-2.3, 512 x 128
// 2.1-2.3, 512 x 512 2.3-3.4, a contiguous copy of the same bytes 1.26-1.32;
// writes alone, 128 B a line (64 rows) 2.8-3.5, 512 B (256 rows) 0.75. The
// operators, 4096^2, one core, same VM, ms per call, rows alternated in one
// process (columns fixed): 16-bit out, 256 / 128 / 64 rows, forward f16 3.96 /
// 4.42 / 5.58, backward f16 5.38 / 5.74 / 6.95; float32 out at 64 columns,
// forward 7.39 / 7.00 / 7.49, backward 10.06 / 9.63 / 10.14, and 128 x 128
// against the former 64 x 128 (forward) and 32 x 128 (backward), two runs, one
// and two threads: forward 6.8-7.1 vs 6.6-7.6 and 3.3 vs 3.5-3.7, backward
// 9.5-10.1 vs 11.9-12.1 and 5.2 vs 6.5-6.6. In cache the float32 blocks lost a
// little at 256^2 (0.21 -> 0.22 ns an element forward, 0.25 -> 0.28 backward)
// and gained at 1024^2 (0.35 -> 0.23, 0.53 -> 0.31). 64 KiB of scratch sits in
// L2 on the thread's stack, less than the former blocks' float and out scratch
// together (96 KiB for a double out).
constexpr int64_t kSharedTileBytes = int64_t{64} << 10;
template <class Out>
constexpr int64_t kSharedTileRows = sizeof(typename Out::Storage) == 2 ? 256 : 128;
template <class Out>
constexpr int64_t kSharedTileCols =
    kSharedTileBytes / (kSharedTileRows<Out> * static_cast<int64_t>(sizeof(typename Out::Storage)));

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

// Where each input's block row starts, and the prefetch of the same row of the
// next block, `cols_ahead` columns on. The
// hardware prefetchers do not follow hundreds of row streams (backward f32
// bench 36 -> 29 ms, f16 44-58 -> 31 ms at 64 x 64 blocks). Past a row's end it
// is harmless.
template <int kInputs>
HWY_INLINE void RowStartsAndPrefetch(const SharedTileInput (&inputs)[kInputs], int64_t i, int64_t j0,
                                     int64_t cols_ahead, const char* (&row_starts)[kInputs]) {
  for (int k = 0; k < kInputs; ++k) {
    row_starts[k] = inputs[k].At(i, j0);
    const int64_t row_bytes = cols_ahead * inputs[k].bytes;
    for (int64_t byte = 0; byte < row_bytes; byte += 64) hwy::Prefetch(row_starts[k] + row_bytes + byte);
  }
}

// Stores one out vector: non-temporally on huge planes (`stream`: no read of
// out's line before it is overwritten) where the address is vector-aligned.
template <class D>
HWY_INLINE void StoreOutVector(D d, hn::Vec<D> v, hn::TFromD<D>* target, bool stream) {
  if (stream && reinterpret_cast<uintptr_t>(target) % (hn::Lanes(d) * sizeof(hn::TFromD<D>)) == 0) {
    hn::Stream(v, d, target);
  } else {
    hn::StoreU(v, d, target);
  }
}

// One block of a plane with a 32-bit out, when every input is contiguous along
// dim 1 and out along dim 0: block rows are computed by the operator with full
// vectors into the scratch (out's own bits: float32, or an int32's bits, which
// the permutes, loads and stores move unchanged), the scratch is transposed in
// registers by squares of lanes x lanes (simd/transpose-inl.h: permutes, no
// gathers), and each transposed vector is stored to its out line. Rows past the
// last whole square go element by element. `block` has kSharedTileRows<Out> x
// kSharedTileCols<Out> floats, vector-aligned.
//
// compute_row(rows, b_row, cols): rows[k] is input k's first element of the
// block row; writes b_row[0, cols) (vector-aligned) as float32 results, or
// for an int32 out, their bits.
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
// input streams in one set: SSE4 f16 4096^2 1.6-2.2x). All of a square's steps
// in registers (a load and a store a row, not one per pair of steps) made
// 1024^2 f32 0.40 -> 0.31 but 4096^2 f32 7.5-8.2 -> 8.2-11.1, the time going
// to the waits on out's non-temporal stores (forward op, one core, Zen 5 VM,
// ms per call, old and new alternated, 64-row blocks): TransposeBlock takes
// that way for blocks that are not streamed only.
//
// Not inlined into the plane walk: called once a block, it costs nothing at
// run time, and inlined it made the backward op's grad_f32.cc compile with 11 %
// more compiler memory (5.5 % this way) and several seconds more.
template <class Out, int kInputs, class ComputeRow>
HWY_NOINLINE void SharedTileBlockOfWords(const SharedTileInput (&inputs)[kInputs], int64_t i0, int64_t j0,
                                         typename Out::Storage* o, int64_t out_stride1, int64_t rows, int64_t cols,
                                         float* block, bool stream, ComputeRow& compute_row) {
  static_assert(sizeof(typename Out::Storage) == sizeof(float), "out's bits in float lanes");
  constexpr int64_t kPitch = kSharedTileCols<Out>;
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  static_assert(kPitch % hn::MaxLanes(hn::ScalableTag<float>()) == 0, "whole vectors in a scratch row");
  const int64_t square_rows = rows - rows % lanes;
  const int64_t square_cols = (cols + lanes - 1) / lanes * lanes;  // <= kPitch
  for (int64_t i = 0; i < rows; ++i) {
    const char* row_starts[kInputs];
    RowStartsAndPrefetch(inputs, i0 + i, j0, kPitch, row_starts);
    float* b_row = block + i * kPitch;
    compute_row(static_cast<const char* const*>(row_starts), b_row, cols);
    // The last square's columns past the block: transposed with the rest, never
    // stored; zeros so that no indeterminate value is read.
    for (int64_t j = cols; j < square_cols; ++j) b_row[j] = 0.0f;
  }
  TransposeBlock(
      df, block, kPitch, square_rows, square_cols,
      [&](hn::Vec<decltype(df)> v, int64_t j, int64_t i) {
        if (j < cols) StoreOutVector(df, v, reinterpret_cast<float*>(o + j * out_stride1 + i), stream);
      },
      /*whole_lines=*/stream);
  for (int64_t j = 0; j < cols; ++j) {
    auto* o_row = o + j * out_stride1;
    for (int64_t i = square_rows; i < rows; ++i) {
      // Strided reads of the scratch: kept scalar, no gather (simd/keep_scalar.h).
      const float value = KeepScalar(block[i * kPitch + j]);
      std::memcpy(o_row + i, &value, sizeof(value));
    }
  }
}

// No map: RunSharedTransposedPlane's default, where out's 16-bit values are
// computed by compute_row (SharedTileBlockOfHalves). An operator whose 16-bit
// out is a function of inputs all of out's type, lane by lane, passes a map
// instead, applied to the inputs' values as their rows are loaded
// (SharedTileBlockOfInputHalves): Vector(du16, bits...), one full vector of
// values in from each input, in the inputs' order, the results' bits out.
struct NoHalvesMap {};

#if HWY_TARGET != HWY_SCALAR
// The column map of SharedTileBlockOfHalves below: word q of a chunk of
// 2 x lanes columns holds column column_of[q] of the chunk, and word_of is the
// reverse.
struct HalvesColumnMap {
  HWY_ALIGN uint32_t column_of[2 * hn::MaxLanes(hn::ScalableTag<float>())];
  uint32_t word_of[2 * hn::MaxLanes(hn::ScalableTag<float>())];
};

HWY_INLINE void MakeHalvesColumnMap(HalvesColumnMap& map) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const hn::Repartition<uint16_t, decltype(df)> du16;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto iota = hn::Iota(du16, 0);
  hn::Store(hn::BitCast(du32, hn::InterleaveLower(du16, iota, iota)), du32, map.column_of);
  hn::Store(hn::BitCast(du32, hn::InterleaveUpper(du16, iota, iota)), du32, map.column_of + lanes);
  for (int64_t q = 0; q < 2 * lanes; ++q) {
    map.column_of[q] &= 0xFFFF;
    map.word_of[KeepScalar(map.column_of[q])] = static_cast<uint32_t>(q);  // no scatter (simd/keep_scalar.h)
  }
}

// Two block rows of float32 results (`even`, `odd`: rows 2k and 2k + 1, over
// `square_cols` columns, a multiple of 2 x lanes) rounded to Out and
// interleaved into pair-row k's words (SharedTileBlockOfHalves below).
template <class Out>
HWY_NOINLINE void NarrowAndInterleaveRows(const float* even, const float* odd, uint32_t* pair_row,
                                          int64_t square_cols) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const hn::Repartition<uint16_t, decltype(df)> du16;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  for (int64_t c = 0; c < square_cols; c += 2 * lanes) {
    const auto low = hn::Combine(du16, VectorIo<Out>::Narrow(df, hn::Load(df, even + c + lanes)),
                                 VectorIo<Out>::Narrow(df, hn::Load(df, even + c)));
    const auto high = hn::Combine(du16, VectorIo<Out>::Narrow(df, hn::Load(df, odd + c + lanes)),
                                  VectorIo<Out>::Narrow(df, hn::Load(df, odd + c)));
    hn::Store(hn::BitCast(du32, hn::InterleaveLower(du16, low, high)), du32, pair_row + c);
    hn::Store(hn::BitCast(du32, hn::InterleaveUpper(du16, low, high)), du32, pair_row + c + lanes);
  }
}

// The pair-rows' words transposed and stored to out (`pitch` words a
// pair-row; `square_cols`, the block's columns rounded up to whole chunks of
// 2 x lanes, as the row pass filled them), the rows no square covers element
// by element. Independent of Out and of the operator: one instance a target.
// (inline: one definition across the operators' translation units; never
// inlined, one copy a target.)
HWY_NOINLINE inline void TransposeAndStoreHalves(uint32_t* pairs, int64_t pitch, const HalvesColumnMap& map,
                                                 uint16_t* o, int64_t out_stride1, int64_t rows, int64_t cols,
                                                 int64_t square_cols, bool stream) {
  const hn::ScalableTag<float> df;
  const hn::Repartition<uint16_t, decltype(df)> du16;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const int64_t chunk = 2 * lanes;
  const int64_t square_pair_rows = rows / chunk * lanes;  // squares of whole row pairs only
  TransposeBlock(df, reinterpret_cast<float*>(pairs), pitch, square_pair_rows, square_cols,
                 [&](hn::Vec<decltype(df)> v, int64_t p, int64_t k) {
                   const int64_t j = (p & ~(chunk - 1)) + map.column_of[p & (chunk - 1)];
                   if (j < cols) {
                     StoreOutVector(du16, hn::BitCast(du16, v), o + j * out_stride1 + 2 * k, stream);
                   }
                 },
                 /*whole_lines=*/stream);
  for (int64_t j = 0; j < cols; ++j) {
    uint16_t* o_row = o + j * out_stride1;
    const uint32_t* words = pairs + (j & ~(chunk - 1)) + map.word_of[j & (chunk - 1)];
    for (int64_t i = 2 * square_pair_rows; i < rows; ++i) {
      const uint32_t word = KeepScalar(words[(i / 2) * pitch]);  // no gather
      o_row[i] = static_cast<uint16_t>(i % 2 == 0 ? word & 0xFFFF : word >> 16);
    }
  }
}

// The shape of a 16-bit block's pair-rows (the two blocks below): kPitch
// words a pair-row, one per column; chunks of 2 x lanes columns, a vector of
// 16-bit values; and the block's columns rounded up to whole chunks (at most
// kPitch), as the row pass fills them.
template <class Out>
struct HalvesBlockShape {
  static_assert(sizeof(typename Out::Storage) == sizeof(uint16_t), "a 16-bit out");
  static constexpr int64_t kPitch = kSharedTileCols<Out>;
  static_assert(kPitch % (2 * hn::MaxLanes(hn::ScalableTag<float>())) == 0, "whole chunks in a pair-row");
  explicit HalvesBlockShape(int64_t cols)
      : chunk(2 * static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>()))),
        square_cols((cols + chunk - 1) / chunk * chunk) {}
  int64_t chunk;
  int64_t square_cols;
};

// One block of a plane with a 16-bit out (f16, bf16): the same walk on out's
// 16-bit values, two rows to a 32-bit word. Rows are computed two at a time
// into float32, rounded to out's type, and the two rows' values interleaved
// (InterleaveLower/Upper: in-block unpacks on every target), so that word p of
// pair-row k holds rows 2k (low half) and 2k + 1 (high half) of one column;
// the words are transposed as 32-bit lanes, which leaves each vector holding
// 2 x lanes consecutive rows of one column, in order: an out line's values,
// stored as they are. Against transposing float32 values and narrowing on the
// way out, half the scratch and half the permutes an element, and out's stores
// are whole vectors, which non-temporal stores need. The interleave takes each
// 128-bit block's halves, so the words of a chunk of 2 x lanes columns are in
// a target-dependent order, read off an iota once a plane (HalvesColumnMap). Not
// for the one-lane scalar target, whose 16-bit outs take the element walk.
//
// f16 4096^2, Zen 5 VM, ms per call, against the former walk (float32 blocks of
// 64 rows forward, 32 backward, narrowed on the way out), a noisy hour: forward
// one thread 3.9-5.2 vs 6.4-7.4 (256-row float32 blocks with whole-vector
// non-temporal stores made 5.1-5.5), two threads 1.8 vs 3.1; backward one
// thread 5.4-6.8 vs 12.7, two threads 2.7 vs 5.1. In cache, forward 1024^2
// 0.18 vs 0.19 ns an element, backward 0.19 vs 0.29. Only the operator's row
// loop is instantiated per operator row; the narrowing, the transpose and the
// stores once per Out or target (NarrowAndInterleaveRows,
// TransposeAndStoreHalves), which keeps the kernels' compile time in check.
template <class Out, int kInputs, class ComputeRow>
HWY_NOINLINE void SharedTileBlockOfHalves(const SharedTileInput (&inputs)[kInputs], int64_t i0, int64_t j0,
                                          uint16_t* o, int64_t out_stride1, int64_t rows, int64_t cols,
                                          uint32_t* pairs, const HalvesColumnMap& map, bool stream,
                                          ComputeRow& compute_row) {
  const HalvesBlockShape<Out> shape(cols);
  constexpr int64_t kPitch = HalvesBlockShape<Out>::kPitch;
  const int64_t square_cols = shape.square_cols;
  HWY_ALIGN float values[2][kPitch];
  // One call site of compute_row (rows in order, two at a time), so that the
  // operator's arithmetic is inlined once.
  for (int64_t i = 0; i < rows + rows % 2; ++i) {
    float* row_values = values[i % 2];
    int64_t computed = 0;
    if (i < rows) {
      const char* row_starts[kInputs];
      RowStartsAndPrefetch(inputs, i0 + i, j0, kPitch, row_starts);
      compute_row(static_cast<const char* const*>(row_starts), row_values, cols);
      computed = cols;
    }
    // Columns past the block (and a missing last row): zeros, so that no
    // indeterminate value is read; never stored.
    for (int64_t j = computed; j < square_cols; ++j) row_values[j] = 0.0f;
    if (i % 2 == 1) NarrowAndInterleaveRows<Out>(values[0], values[1], pairs + (i / 2) * kPitch, square_cols);
  }
  TransposeAndStoreHalves(pairs, kPitch, map, o, out_stride1, rows, cols, square_cols, stream);
}

// The map of a row vector of each input (SharedTileBlockOfInputHalves): one
// full vector of 16-bit bits loaded from each input's row at column c.
template <class HalvesMap, class DU16, int kInputs, size_t... kInput>
HWY_INLINE hn::Vec<DU16> MapInputHalves(const HalvesMap& halves_map, DU16 du16,
                                        const uint16_t* const (&rows)[kInputs], int64_t c,
                                        std::index_sequence<kInput...>) {
  return halves_map.Vector(du16, hn::LoadU(du16, rows[kInput] + c)...);
}

// One block of a plane whose 16-bit out is `halves_map` of its inputs, all of
// out's 16-bit type, lane by lane (the forward op; the backward op when every
// operand is f16, or every one bf16): the same walk as
// SharedTileBlockOfHalves, but on the inputs' own bits: each row vector is
// mapped as it is loaded (a widening, the arithmetic, a rounding), two rows'
// results are interleaved into words, and the words are transposed and
// stored as they are. Against computing float32 rows first: no float32 rows
// stored and read back, no narrowing pass. The arithmetic sits in the row
// pass, whose loads wait on memory, and not in the pass that streams out's
// lines: forward through the API, AMD Zen 5 VM, ms per call, old and new
// libraries alternated, against the map applied to each transposed vector on
// its way out: f16 4096^2 one thread 3.48-3.54 vs 4.42-6.81, two threads
// 2.21-2.35 vs 2.69-2.83; bf16 4096^2 one thread 3.83-5.02 vs 4.69-7.05,
// 2048^2 0.83-0.86 vs 0.93-0.97; in cache (256^2 to 1024^2) the same within
// noise. (That in turn had beaten float32 rows at 1024^2, 0.16 vs 0.25, and
// tied at 4096^2.) Tried and not kept: the next block's rows prefetched a few
// at a time while the columns are stored, not all in the row pass (4096^2
// slower, 8.4-8.9 vs 7.0-7.8 in a noisy round). The backward op, every operand
// f16 or every one bf16, against float32 rows (SharedTileBlockOfHalves), same
// VM, ms per call, old and new alternated: 4096^2 one thread f16 6.1-6.6 vs
// 6.3-6.5, bf16 5.9-6.7 vs 7.1; two threads f16 3.1 vs 3.5-3.6, bf16 3.1-3.2
// vs 3.8-4.1; AVX2 one thread f16 7.1-7.6 vs 8.0-8.4, bf16 7.2-7.5 vs
// 9.3-10.2; SSE4 f16 26 vs 30, bf16 11.5 vs 15.6-16.0; AVX2 256^2 f16 0.013-
// 0.018 vs 0.026, bf16 0.015 vs 0.033.
template <class Out, int kInputs, class HalvesMap>
HWY_NOINLINE void SharedTileBlockOfInputHalves(const SharedTileInput (&inputs)[kInputs], int64_t i0, int64_t j0,
                                               uint16_t* o, int64_t out_stride1, int64_t rows, int64_t cols,
                                               uint32_t* pairs, const HalvesColumnMap& map, bool stream,
                                               const HalvesMap& halves_map) {
  const HalvesBlockShape<Out> shape(cols);
  constexpr int64_t kPitch = HalvesBlockShape<Out>::kPitch;
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const hn::Repartition<uint16_t, decltype(df)> du16;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const int64_t chunk = shape.chunk;
  const int64_t whole_cols = cols - cols % chunk;
  using Rows = const uint16_t* [kInputs];
  // Forced inline: called from two places (whole vectors, the tail), GCC 12
  // at -O2 (RelWithDebInfo, the build type when none is given) made it a
  // function called once a vector on AVX-512, AVX2 and the 16-byte targets.
  // Backward, every operand bf16, transposed to contiguous, one core, AMD Zen
  // 5 VM, -O2 against -O3 (Release, which inlined it): 256^2 11.4-11.7 against
  // 8.5-8.8 us, AVX2 1024^2 276-279 against 210-220 us; forced, -O2 is level
  // with -O3 (9.0-9.1 and 212-216 us).
  const auto interleave = [&](const Rows& even, const Rows& odd, int64_t c,
                              uint32_t* words) __attribute__((always_inline)) {
    const auto low = MapInputHalves(halves_map, du16, even, c, std::make_index_sequence<kInputs>());
    const auto high = MapInputHalves(halves_map, du16, odd, c, std::make_index_sequence<kInputs>());
    hn::Store(hn::BitCast(du32, hn::InterleaveLower(du16, low, high)), du32, words);
    hn::Store(hn::BitCast(du32, hn::InterleaveUpper(du16, low, high)), du32, words + lanes);
  };
  for (int64_t k = 0; 2 * k < rows; ++k) {
    const char* row_starts[kInputs];
    Rows even, odd;
    RowStartsAndPrefetch(inputs, i0 + 2 * k, j0, kPitch, row_starts);
    for (int n = 0; n < kInputs; ++n) even[n] = odd[n] = reinterpret_cast<const uint16_t*>(row_starts[n]);
    // A last row without its pair: the words' high halves repeat it and are
    // never stored (such rows are stored element by element).
    if (2 * k + 1 < rows) {
      RowStartsAndPrefetch(inputs, i0 + 2 * k + 1, j0, kPitch, row_starts);
      for (int n = 0; n < kInputs; ++n) odd[n] = reinterpret_cast<const uint16_t*>(row_starts[n]);
    }
    uint32_t* pair_row = pairs + k * kPitch;
    for (int64_t c = 0; c < whole_cols; c += chunk) interleave(even, odd, c, pair_row + c);
    if (whole_cols < cols) {
      // The columns past the last whole vector, and zeros to fill it (never
      // stored): the rows are not read past the block.
      HWY_ALIGN uint16_t tail[2][kInputs][2 * hn::MaxLanes(hn::ScalableTag<float>())];
      Rows even_tail, odd_tail;
      for (int n = 0; n < kInputs; ++n) {
        for (int64_t c = 0; c < chunk; ++c) {
          tail[0][n][c] = whole_cols + c < cols ? even[n][whole_cols + c] : 0;
          tail[1][n][c] = whole_cols + c < cols ? odd[n][whole_cols + c] : 0;
        }
        even_tail[n] = tail[0][n];
        odd_tail[n] = tail[1][n];
      }
      interleave(even_tail, odd_tail, 0, pair_row + whole_cols);
    }
  }
  TransposeAndStoreHalves(pairs, kPitch, map, o, out_stride1, rows, cols, shape.square_cols, stream);
}
#endif

// A size0 x size1 plane (transposed views; called once per plane by the
// executor's tile path): out element (i, j) at o + i * out_stride0 + j *
// out_stride1. Blocks of kSharedTileRows<Out> x kSharedTileCols<Out>, dim 0 blocks
// outside, so each input is read as kSharedTileRows<Out> sequential streams (its
// rows). Planes whose inputs are contiguous along dim 1 and out along dim 0 go
// through SharedTileBlockOfWords or SharedTileBlockOfHalves with
// `compute_row`; others (strided or broadcast inputs, strided out, a double out,
// which has no full-width float vector store) run each block row with
// run_row(starts, dst, cols): starts[k] is input k's first element of the row
// (stepping by its stride1), dst a contiguous scratch row of Out, then copy the
// block out element by element. An operator whose inputs are all of out's
// 16-bit type may pass `halves_map` (see NoHalvesMap): its vector blocks then
// take SharedTileBlockOfInputHalves, and compute_row is used by no 16-bit block.
// `stream`: the vector blocks store out's aligned vectors non-temporally (phase
// 1 decides: ElementwiseGeometry::WorthStreamingTiles); the launch fences them
// once a thread, after its part (ElementwiseRunner).
template <class Out, int kInputs, class ComputeRow, class RunRow, class HalvesMap = NoHalvesMap>
void RunSharedTransposedPlane(const SharedTileInput (&inputs)[kInputs], typename Out::Storage* o,
                              int64_t out_stride0, int64_t out_stride1, int64_t size0, int64_t size1, bool stream,
                              ComputeRow&& compute_row, RunRow&& run_row, const HalvesMap& halves_map = {}) {
  (void)halves_map;  // used by 16-bit vector blocks only
  using T = typename Out::Storage;
  constexpr bool kHalves = sizeof(T) == sizeof(uint16_t) && HWY_TARGET != HWY_SCALAR;
  constexpr bool kWords = sizeof(T) == sizeof(float);
  bool vector_block = out_stride0 == 1 && (kHalves || kWords);
  for (int k = 0; k < kInputs; ++k) vector_block = vector_block && inputs[k].stride1 == 1;
  constexpr int64_t kRows = kSharedTileRows<Out>;
  constexpr int64_t kCols = kSharedTileCols<Out>;
  // One scratch, read as the vector walk's words or as the element walk's rows.
  union Scratch {
    float words[kSharedTileBytes / sizeof(float)];
    uint32_t pairs[kSharedTileBytes / sizeof(uint32_t)];
    T elements[kRows * kCols];
  };
  HWY_ALIGN Scratch scratch;
#if HWY_TARGET != HWY_SCALAR
  HalvesColumnMap column_map;
  if (kHalves && vector_block) MakeHalvesColumnMap(column_map);
#endif
  for (int64_t i0 = 0; i0 < size0; i0 += kRows) {
    const int64_t rows = size0 - i0 < kRows ? size0 - i0 : kRows;
    for (int64_t j0 = 0; j0 < size1; j0 += kCols) {
      const int64_t cols = size1 - j0 < kCols ? size1 - j0 : kCols;
      if (vector_block) {
        T* block_out = o + i0 + j0 * out_stride1;
        if constexpr (kWords) {
          SharedTileBlockOfWords<Out>(inputs, i0, j0, block_out, out_stride1, rows, cols, scratch.words, stream,
                                      compute_row);
          continue;
        }
#if HWY_TARGET != HWY_SCALAR
        if constexpr (kHalves && !std::is_same_v<HalvesMap, NoHalvesMap>) {
          SharedTileBlockOfInputHalves<Out>(inputs, i0, j0, reinterpret_cast<uint16_t*>(block_out), out_stride1,
                                            rows, cols, scratch.pairs, column_map, stream, halves_map);
          continue;
        } else if constexpr (kHalves) {  // else: not instantiated where the map replaces it
          SharedTileBlockOfHalves<Out>(inputs, i0, j0, reinterpret_cast<uint16_t*>(block_out), out_stride1, rows,
                                       cols, scratch.pairs, column_map, stream, compute_row);
          continue;
        }
#endif
      }
      for (int64_t i = 0; i < rows; ++i) {
        const char* starts[kInputs];
        for (int k = 0; k < kInputs; ++k) starts[k] = inputs[k].At(i0 + i, j0);
        run_row(static_cast<const char* const*>(starts), scratch.elements + i * cols, cols);
      }
      for (int64_t j = 0; j < cols; ++j) {
        auto* row = o + i0 * out_stride0 + (j0 + j) * out_stride1;
        for (int64_t i = 0; i < rows; ++i) row[i * out_stride0] = KeepScalar(scratch.elements[i * cols + j]);  // no scatter
      }
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
