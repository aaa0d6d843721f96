// aclcpu: the vector building blocks every elementwise kernel shares — loads
// and stores of each element type as float32 lanes (with our exact f16/bf16
// conversions, simd/convert-inl.h), strided runs in blocks through contiguous
// scratch (no vector gathers or scatters: simd/keep_scalar.h), the unrolled
// loop over full vectors, and where non-temporal stores can start.
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_OPS_SHARED_SIMD_ELEMENT_IO_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_SHARED_SIMD_ELEMENT_IO_INL_H_
#undef ACLCPU_OPS_SHARED_SIMD_ELEMENT_IO_INL_H_
#else
#define ACLCPU_OPS_SHARED_SIMD_ELEMENT_IO_INL_H_
#endif

#include <cstdint>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "ops/shared/element_types.h"
#include "simd/convert-inl.h"
#include "simd/keep_scalar.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET != HWY_SCALAR
// The 32-bit-lane route of VectorIo<F16/Bf16>::MapFullVector, for targets
// without a whole-vector conversion: the values of the even and odd 16-bit
// lanes, widened to float32 (`even`, `odd`), mapped by `f`, rounded back by
// `narrow` (float32 vector -> its 16-bit bits) and put back in their lanes.
template <class DU16, class F, class Narrow>
HWY_INLINE hn::Vec<DU16> MapEvenOddHalves(DU16 du16, hn::Vec<hn::Repartition<float, DU16>> even,
                                          hn::Vec<hn::Repartition<float, DU16>> odd, F&& f, Narrow&& narrow) {
  const hn::Repartition<float, DU16> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const auto even_bits = hn::PromoteTo(du32, narrow(df, f(even)));
  const auto odd_bits = hn::PromoteTo(du32, narrow(df, f(odd)));
  return hn::BitCast(du16, hn::Or(even_bits, hn::ShiftLeft<16>(odd_bits)));
}
#endif

// Vector loads and stores of each element type, as float32 lanes. LoadEven:
// the elements p[0], p[2], ... of a step-2 view ([::2]), reading p[0, 2 x
// lanes), the element after the last one used included.
template <class Type>
struct VectorIo;

template <>
struct VectorIo<element::F32> {
  template <class DF>
  static hn::Vec<DF> Load(DF df, const float* p) { return hn::LoadU(df, p); }
  template <class DF>
  static hn::Vec<DF> LoadEven(DF df, const float* p) {
#if HWY_TARGET == HWY_SCALAR
    return hn::LoadU(df, p);  // one lane: p[0]
#else
    return hn::ConcatEven(df, hn::LoadU(df, p + hn::Lanes(df)), hn::LoadU(df, p));
#endif
  }
  template <class DF>
  static void Store(DF df, hn::Vec<DF> v, float* p) { hn::StoreU(v, df, p); }
};

template <>
struct VectorIo<element::F16> {
  template <class DF>
  static hn::Vec<DF> Load(DF df, const uint16_t* p) { return LoadF16AsF32(df, p); }
  template <class DF>
  static hn::Vec<DF> LoadEven(DF df, const uint16_t* p) { return LoadEvenF16AsF32(df, p); }
  template <class DF>
  static void Store(DF df, hn::Vec<DF> v, uint16_t* p) { StoreF32AsF16(df, v, p); }
  // The bits Store writes, as a vector of Lanes(df) uint16 lanes.
  template <class DF>
  static hn::Vec<hn::Rebind<uint16_t, DF>> Narrow(DF df, hn::Vec<DF> v) { return F32ToF16Bits(df, v); }
#if HWY_TARGET != HWY_SCALAR
  // A full vector of f16 bits, every lane mapped by `f` (float32 vectors to
  // float32 vectors, lane by lane) and rounded back in its place.
  template <class DU16, class F>
  static hn::Vec<DU16> MapFullVector(DU16 du16, hn::Vec<DU16> bits, F&& f) {
    const hn::Repartition<float, DU16> df;
#if ACLCPU_SIMD_HAS_EXACT_F16
    // F16C: each half vector converted in order (one extract, one insert).
    const hn::Half<DU16> dh;
    const hn::Rebind<hwy::float16_t, decltype(df)> df16;
    const auto lower = f(hn::PromoteTo(df, hn::BitCast(df16, hn::LowerHalf(dh, bits))));
    const auto upper = f(hn::PromoteTo(df, hn::BitCast(df16, hn::UpperHalf(dh, bits))));
    return hn::Combine(du16, F32ToF16Bits(df, upper), F32ToF16Bits(df, lower));
#else
    // The integer conversions work in 32-bit lanes: the even lanes' values are
    // the low halves of the words, the odd lanes' the high halves.
    const hn::RebindToUnsigned<decltype(df)> du32;
    const hn::RebindToSigned<decltype(df)> di32;
    const auto words = hn::BitCast(du32, bits);
    const auto even = F16BitsInLanesToF32(df, hn::BitCast(di32, hn::And(words, hn::Set(du32, 0xFFFF))));
    const auto odd = F16BitsInLanesToF32(df, hn::BitCast(di32, hn::ShiftRight<16>(words)));
    return MapEvenOddHalves(du16, even, odd, f, [](auto d, auto v) { return F32ToF16Bits(d, v); });
#endif
  }
#endif
};

template <>
struct VectorIo<element::Bf16> {
  template <class DF>
  static hn::Vec<DF> Load(DF df, const uint16_t* p) { return LoadBf16AsF32(df, p); }
  template <class DF>
  static hn::Vec<DF> LoadEven(DF df, const uint16_t* p) { return LoadEvenBf16AsF32(df, p); }
  template <class DF>
  static void Store(DF df, hn::Vec<DF> v, uint16_t* p) { StoreF32AsBf16(df, v, p); }
  template <class DF>
  static hn::Vec<hn::Rebind<uint16_t, DF>> Narrow(DF df, hn::Vec<DF> v) { return F32ToBf16Bits(df, v); }
#if HWY_TARGET != HWY_SCALAR
  // As VectorIo<F16>::MapFullVector, for bf16 bits.
  template <class DU16, class F>
  static hn::Vec<DU16> MapFullVector(DU16 du16, hn::Vec<DU16> bits, F&& f) {
#if ACLCPU_SIMD_HAS_BF16_PAIRS
    hn::Vec<hn::Repartition<float, DU16>> lo, hi;
    Bf16PairToF32(du16, bits, lo, hi);
    return NarrowF32PairToBf16Bits(du16, f(lo), f(hi));
#else
    // In 32-bit lanes: a bf16 value is the top half of its float32, so the odd
    // lanes' values are the words with the low half cleared, the even lanes'
    // the words shifted up.
    const hn::Repartition<float, DU16> df;
    const hn::RebindToUnsigned<decltype(df)> du32;
    const auto words = hn::BitCast(du32, bits);
    const auto even = hn::BitCast(df, hn::ShiftLeft<16>(words));
    const auto odd = hn::BitCast(df, hn::And(words, hn::Set(du32, 0xFFFF0000u)));
    return MapEvenOddHalves(du16, even, odd, f, [](auto d, auto v) { return F32ToBf16Bits(d, v); });
#endif
  }
#endif
};

template <>
struct VectorIo<element::F64> {
  template <class DF>
  static void Store(DF /*df*/, hn::Vec<DF> v, double* p) {
    const hn::Rebind<double, DF> dd;
    hn::StoreU(hn::PromoteTo(dd, v), dd, p);
  }
};

// Copies `length` elements p[0], p[stride], ... to dst (a gather into scratch).
// Step-2 views ([::2], the common strided case) are de-interleaved with two
// vector loads and ConcatEven instead of element by element; a stride of 0
// (broadcast) is a fill. `more_follow`: the view has elements after these, so
// reading up to p[length * stride - 1] stays inside it.
template <class T>
HWY_INLINE void GatherToBlock(const T* HWY_RESTRICT p, int64_t stride, int64_t length, bool more_follow,
                              T* HWY_RESTRICT dst) {
  int64_t i = 0;
  if (stride == 0) {
    for (; i < length; ++i) dst[i] = p[0];
    return;
  }
#if HWY_TARGET == HWY_SCALAR
  (void)more_follow;  // only the vector de-interleave below reads ahead
#else
  if (stride == 2) {
    const hn::ScalableTag<T> d;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
    // The second load reads up to p[2 * (i + lanes) - 1], one element past the
    // last one used: at the end of the view, stop one vector short so it stays
    // inside (elsewhere a block's last vector went element by element, an
    // eighth of each 256-element block; step-2 64K, kernel alone, one core:
    // f16 32 -> 52 GB/s, bf16 30 -> 47).
    const int64_t vector_end = more_follow ? length : length - 1;
    for (; i + lanes <= vector_end; i += lanes) {
      const auto lo = hn::LoadU(d, p + 2 * i);
      const auto hi = hn::LoadU(d, p + 2 * i + lanes);
      hn::StoreU(hn::ConcatEven(d, hi, lo), d, dst + i);
    }
  }
#endif
  for (; i < length; ++i) dst[i] = KeepScalar(p[i * stride]);  // no gather (simd/keep_scalar.h)
}

// Strided runs are done in blocks of this many elements: each strided input is
// gathered into contiguous scratch (StridedInput), the contiguous kernel runs on
// the block, and a strided out is scattered from scratch (ForEachStridedBlock).
// The copies are branch-free, unlike a scalar select on random data, and the
// arithmetic stays vectorised.
// Why 2048: from DRAM each block reads one input's lines, then the other's,
// then writes out's, and longer bursts per stream suit the memory system. The
// backward op's all-bf16 step-2 kernel alone, 16M elements, one core, AMD Zen 5
// VM, targets interleaved in one process, GB/s, 256 -> 2048: AVX-512 11.0-11.7
// -> 14.8-18.6, AVX2 7.8-8.3 -> 12.3-13.2 (SSE4 14.4-15.0 -> 12.4-13.5); f16
// AVX-512 12.4 -> 17.9, AVX2 18.3 -> 22.1; at 64K and 1M (in cache) within
// the noise (AVX-512 bf16 64K 61.9 -> 64.9, 1M 45.9 -> 44.0). The scratch is
// 4-16 KiB an operand, in L1; worker threads have 512 KiB stacks.
constexpr int64_t kStridedBlock = 2048;

// One input of a strided run, with its scratch block.
template <class Type>
struct StridedInput {
  using T = typename Type::Storage;
  // The scratch is left uninitialised: Block writes what it returns.
  StridedInput(const T* start, int64_t step) : p(start), stride(step) {}
  // The block of elements [start, start + length) as a contiguous array: the
  // input itself when its stride is 1, else a copy in scratch.
  HWY_INLINE const T* Block(int64_t start, int64_t length, bool more_follow) {
    if (stride == 1) return p + start;
    GatherToBlock(p + start * stride, stride, length, more_follow, scratch);
    return scratch;
  }
  const T* p;
  int64_t stride;
  HWY_ALIGN T scratch[kStridedBlock];
};

// Calls block(start, length, more_follow, out_block) for each block of a run of
// `count` elements; out_block is where the block's results go: out itself when
// its stride is 1, else scratch scattered to out afterwards.
template <class Out, class BlockFn>
HWY_INLINE void ForEachStridedBlock(typename Out::Storage* o, int64_t out_stride, int64_t count, BlockFn&& block) {
  HWY_ALIGN typename Out::Storage out_block[kStridedBlock];
  for (int64_t start = 0; start < count; start += kStridedBlock) {
    const int64_t length = count - start < kStridedBlock ? count - start : kStridedBlock;
    const bool more_follow = start + length < count;
    if (out_stride == 1) {
      block(start, length, more_follow, o + start);
      continue;
    }
    block(start, length, more_follow, out_block);
    for (int64_t i = 0; i < length; ++i) o[(start + i) * out_stride] = KeepScalar(out_block[i]);  // no scatter
  }
}

// Calls vector_at(i) for every full vector of `lanes` elements from `begin` on
// and returns where the tail (fewer than `lanes` elements) starts. Four vectors
// a step: the loop's own instructions (index, compare, branch) were half of an
// f32 iteration's. Full API, f32 1K elements, one core (Xeon, AVX-512): 107-109
// -> 92-95 ns a call (hardsigmoid backward). Unrolled by the compiler, from one
// call of vector_at: written out four times (and once more for the rest), a
// large vector_at was often left a function called per vector, which GCC 12
// did on x86 in the forward op's bf16 runs (AVX2, AVX-512 without BF16) and
// f16 runs (SSE4, SSSE3), and in some of the backward op's. The forward op in
// place over 1M bf16 through the API, one core, AMD Zen 5 VM, alternated:
// AVX2 168-178 -> 150-152 us, AVX-512 84 -> 70-72 us.
template <class VectorAt>
HWY_INLINE int64_t ForEachFullVector(int64_t begin, int64_t count, int64_t lanes, VectorAt&& vector_at) {
  int64_t i = begin;
#pragma GCC unroll 4
  for (; i + lanes <= count; i += lanes) vector_at(i);
  return i;
}

// ForEachFullVector where d's vectors are at most 16 bytes (SSE4, SSSE3, NEON,
// SVE2_128: the loop overhead above; the scalar fallback's one lane as well),
// one vector a step on wider targets: unrolled there they gained nothing, and
// the backward op's step-2 kernels grew by half (grad_f32.cc 40 -> 60 MB, its
// g++ compile 70 -> 92 s). `step`: elements a step, a multiple of Lanes(d).
template <class D, class VectorAt>
HWY_INLINE int64_t ForEachFullVectorUnrolledIfNarrow(D /*d*/, int64_t begin, int64_t count, int64_t step,
                                                     VectorAt&& vector_at) {
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) <= 16) {
    return ForEachFullVector(begin, count, step, vector_at);
  } else {
    int64_t i = begin;
    for (; i + step <= count; i += step) vector_at(i);
    return i;
  }
}

// How many of `count` elements of `element_bytes` each at `out` come before the
// first address aligned to `vector_bytes`, where non-temporal vector stores can
// start; `count` (no streaming) if out cannot be aligned at all.
inline int64_t ElementsBeforeAlignment(const void* out, int64_t element_bytes, int64_t vector_bytes, int64_t count) {
  const int64_t misalignment = static_cast<int64_t>(reinterpret_cast<uintptr_t>(out) % vector_bytes);
  const int64_t head = misalignment == 0 ? 0 : (vector_bytes - misalignment) / element_bytes;
  return misalignment % element_bytes != 0 || head > count ? count : head;
}

// Non-temporal stores for contiguous outputs far larger than the last-level
// cache, straight from registers: they skip reading each output line before
// overwriting it. run(start, length), the operator's ordinary contiguous kernel,
// computes the elements before out's first vector-aligned address and the last
// partial vector; each full vector between is vector_at(i), out's elements
// [i, i + Lanes(d)) in d's lanes, streamed as soon as it is computed. Why not
// blocks computed into L1 and copied out (StreamThroughBlocks, below): 16M
// elements, one core, AMD Zen 5 VM, API against the bench's non-temporal
// roofline of the same traffic, old and new libraries alternated, forward f32
// 0.59-0.89x through 4 KiB blocks (two modes, 3.1-3.3 or ~5 ms a call),
// 0.95-1.03x from registers; backward, every operand f16, 0.81-0.82x ->
// 0.95-0.99x, every operand bf16 0.74-0.77x -> 0.94-0.95x.
// The stores are weakly ordered: the launch fences once per thread, after its
// part (ops/shared/elementwise_launch.h), not after every run.
template <class D, class VectorAt, class Run>
HWY_INLINE void StreamVectors(D d, hn::TFromD<D>* o, int64_t count, VectorAt&& vector_at, Run&& run) {
  using T = hn::TFromD<D>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t head = ElementsBeforeAlignment(o, sizeof(T), lanes * static_cast<int64_t>(sizeof(T)), count);
  run(int64_t{0}, head);
  int64_t i = head;
#if HWY_ARCH_X86
  // Highway 1.0.3's Stream writes a whole 16-byte register for x86's partial
  // 128-bit vectors (half a vector of 16-bit results on SSE4 and SSSE3): past
  // the vector, and needing 16-byte alignment. Those take ordinary stores.
  constexpr bool kStreams = hn::MaxLanes(D()) * sizeof(T) >= 16;
#else
  constexpr bool kStreams = true;
#endif
  // Unrolled (ForEachFullVector): with 16-byte vectors a loop of one vector a
  // step ran 0.7-0.86x as fast as an identical one placed 16 bytes further in
  // the code (SSE4 against SSSE3, byte-identical loops, forward i32 16M, one
  // core, AMD Zen 5 VM): at the memory's speed it must issue about one
  // iteration a cycle, and its own index, compare and branch were half of it.
  i = ForEachFullVector(i, count, lanes, [&](int64_t at) {
    if constexpr (kStreams) {
      hn::Stream(vector_at(at), d, o + at);
    } else {
      hn::StoreU(vector_at(at), d, o + at);
    }
  });
  run(i, count - i);
}

// The same through blocks, for kernels that only come as whole runs (the
// backward op's avx512_fp16 kernels, untested here in a vector-at-a-time
// form). Each block of results is computed by kernel(start, length, dst) into
// a 4 KiB buffer in L1, then copied out with non-temporal vector stores; the
// elements before the first vector-aligned address, and the last partial
// block, are computed straight into out. The copy costs: see StreamVectors.
template <class T, class BlockKernel>
HWY_INLINE void StreamThroughBlocks(T* o, int64_t count, BlockKernel&& kernel) {
  constexpr int64_t kBlockBytes = 4096;  // a multiple of every target's vector size
  constexpr int64_t kBlock = kBlockBytes / static_cast<int64_t>(sizeof(T));
  HWY_ALIGN uint8_t block[kBlockBytes];
  const hn::ScalableTag<uint8_t> d8;
  const int64_t vector_bytes = static_cast<int64_t>(hn::Lanes(d8));
  const int64_t head = ElementsBeforeAlignment(o, sizeof(T), vector_bytes, count);
  kernel(int64_t{0}, head, o);
  int64_t i = head;
  for (; i + kBlock <= count; i += kBlock) {
    kernel(i, kBlock, reinterpret_cast<T*>(block));
    uint8_t* target = reinterpret_cast<uint8_t*>(o + i);
    for (int64_t byte = 0; byte < kBlockBytes; byte += vector_bytes) {
      hn::Stream(hn::LoadU(d8, block + byte), d8, target + byte);
    }
  }
  kernel(i, count - i, o + i);
}

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
