// aclcpu: the vector hardsigmoid-backward kernels, templates compiled by
// Highway for every SIMD target (x86 SSSE3/SSE4/AVX2/AVX-512, Arm NEON/SVE, and
// the portable EMU128/SCALAR) and selected at run time (see simd/targets.h).
// Instantiated for one grad dtype in each of grad_f32.cc, grad_f16.cc and
// grad_bf16.cc (so that the three compile in parallel; the kernels of one
// translation unit took 2-5 minutes to compile under the sanitizers).
//
// Each kernel handles a contiguous run with full vectors and hands the tail
// (fewer than one vector of elements) to the scalar definition in
// scalar_kernel.h, which is also the reference these kernels are tested against.
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_KERNELS_INL_H_
#undef ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_KERNELS_INL_H_
#else
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_KERNELS_INL_H_
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "ops/hardsigmoid_backward/scalar_kernel.h"
#include "ops/hardsigmoid_backward/simd/select_by_grad-inl.h"
#include "ops/shared/simd/element_io-inl.h"
#include "ops/shared/simd/transposed_tiles-inl.h"
#include "simd/convert-inl.h"
#include "simd/unmasked_load-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using aclcpu::HWY_NAMESPACE::LoadBf16AsF32;
#if ACLCPU_SIMD_HAS_BF16_PAIRS
using aclcpu::HWY_NAMESPACE::LoadBf16PairAsF32;
using aclcpu::HWY_NAMESPACE::NarrowF32PairToBf16Bits;
#endif
using aclcpu::HWY_NAMESPACE::F32ToBf16Bits;
using aclcpu::HWY_NAMESPACE::F32ToF16Bits;
using aclcpu::HWY_NAMESPACE::LoadF16AsF32;
using aclcpu::HWY_NAMESPACE::StoreF32AsBf16;
using aclcpu::HWY_NAMESPACE::StoreF32AsF16;
using aclcpu::HWY_NAMESPACE::ElementsBeforeAlignment;
using aclcpu::HWY_NAMESPACE::ForEachFullVector;
using aclcpu::HWY_NAMESPACE::ForEachFullVectorUnrolledIfNarrow;
using aclcpu::HWY_NAMESPACE::ForEachStridedBlock;
using aclcpu::HWY_NAMESPACE::KeepLoadUnmasked;
using aclcpu::HWY_NAMESPACE::RunSharedTransposedPlane;
using aclcpu::HWY_NAMESPACE::SharedTileInput;
using aclcpu::HWY_NAMESPACE::StreamThroughBlocks;
using aclcpu::HWY_NAMESPACE::StreamVectors;
using aclcpu::HWY_NAMESPACE::StridedInput;
using aclcpu::HWY_NAMESPACE::VectorIo;

// Step 3 of the numerics: round to the promoted type. The identity for float32,
// and skipped when out has the promoted type (rounding twice to the same format
// changes nothing).
template <class Promoted, class Out, class DF>
HWY_INLINE hn::Vec<DF> RoundToPromoted(DF df, hn::Vec<DF> v) {
  if constexpr (std::is_same_v<Promoted, F32> || std::is_same_v<Promoted, Out>) {
    return v;
  } else {
    HWY_ALIGN uint16_t narrow[hn::MaxLanes(df)];
    VectorIo<Promoted>::Store(df, v, narrow);
    return VectorIo<Promoted>::Load(df, narrow);
  }
}

// -3 < self < 3 on float32 lanes, tested as |self| < 3 on the bits: the
// magnitude bits (sign cleared) compared as integers with those of 3.0, one
// AND and one compare instead of two float compares and a mask AND. NaN
// magnitudes are above infinity's and fail it, as they fail the ordered float
// compares; -0 and subnormals pass.
template <class DF>
HWY_INLINE auto SelfInsideWindowF32(DF df, hn::Vec<DF> self_f32) {
  const hn::RebindToSigned<DF> di32;
  const auto magnitude = hn::And(hn::BitCast(di32, self_f32), hn::Set(di32, 0x7FFFFFFF));
  return hn::RebindMask(df, hn::Lt(magnitude, hn::Set(di32, 0x40400000)));  // 3.0f
}

// grad / 6 where `inside` (self in the window), else +0.
template <class DF, class Mask>
HWY_INLINE hn::Vec<DF> ScaledGradInside(DF df, Mask inside, hn::Vec<DF> grad_f32) {
  return hn::IfThenElseZero(inside, hn::Mul(grad_f32, hn::Set(df, kOneSixth)));
}

// The definition on float32 lanes (before any rounding).
template <class DF>
HWY_INLINE hn::Vec<DF> HardsigmoidGradVector(DF df, hn::Vec<DF> grad_f32, hn::Vec<DF> self_f32) {
  return ScaledGradInside(df, SelfInsideWindowF32(df, self_f32), grad_f32);
}

// One vector of results, in float32 lanes, already rounded to the promoted type.
template <class Grad, class Self, class Promoted, class Out, class DF>
HWY_INLINE hn::Vec<DF> ComputeVector(DF df, const typename Grad::Storage* g, const typename Self::Storage* s) {
  // grad's load kept out of the masked multiply that selects on self's
  // comparison (simd/unmasked_load-inl.h).
  const auto result =
      HardsigmoidGradVector(df, KeepLoadUnmasked(VectorIo<Grad>::Load(df, g)), VectorIo<Self>::Load(df, s));
  return RoundToPromoted<Promoted, Out>(df, result);
}

template <class Grad, class Self, class Promoted, class Out>
void ContiguousRun(const void* grad, const void* self, void* out, int64_t count);

// Strided runs (slices, transposed views walked in tiles, broadcast inputs), in
// blocks through contiguous scratch (ops/shared/simd/element_io-inl.h).
template <class Grad, class Self, class Promoted, class Out>
void StridedRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
                int64_t out_stride, int64_t count) {
  StridedInput<Grad> g(static_cast<const typename Grad::Storage*>(grad), grad_stride);
  StridedInput<Self> s(static_cast<const typename Self::Storage*>(self), self_stride);
  ForEachStridedBlock<Out>(static_cast<typename Out::Storage*>(out), out_stride, count,
                           [&](int64_t start, int64_t length, bool more_follow, typename Out::Storage* o) {
                             ContiguousRun<Grad, Self, Promoted, Out>(g.Block(start, length, more_follow),
                                                                      s.Block(start, length, more_follow), o,
                                                                      length);
                           });
}

// -3 < self < 3 on a 16-bit float's bits (see SameHalfTypeRun): the
// magnitude bits, the low 15, compared as integers with those of 3.0. Signed
// lanes of 16 bits holding one value each, or of 32 bits holding a pair of
// values, the one tested in the low half (the high half is masked off).
template <class Half, class DI>
HWY_INLINE auto SelfInsideWindow(DI di, hn::Vec<DI> self_bits) {
  using Lane = hn::TFromD<DI>;
  return hn::Lt(hn::And(self_bits, hn::Set(di, Lane{0x7FFF})),
                hn::Set(di, static_cast<Lane>(WindowBits<Half>::kValue)));
}

// -3 < self < 3 for the even elements of a step-2 view of self, a mask of
// float32 lanes. A 16-bit self is tested on its bits as loaded in pairs (the
// even element is each 32-bit lane's low half), so it is never widened;
// float32 on its bits after ConcatEven.
template <class Self, class DF>
HWY_INLINE auto Step2SelfInside(DF df, const typename Self::Storage* s) {
  if constexpr (std::is_same_v<Self, F16> || std::is_same_v<Self, Bf16>) {
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the even element is the low half of a pair");
    const hn::RebindToSigned<DF> di32;
    return hn::RebindMask(df, SelfInsideWindow<Self>(di32, hn::LoadU(di32, reinterpret_cast<const int32_t*>(s))));
  } else {
    return SelfInsideWindowF32(df, VectorIo<Self>::LoadEven(df, s));
  }
}

// Inputs both viewed with step 2 ([::2]) and a dense out: de-interleave in
// registers (VectorIo::LoadEven: float32 by ConcatEven, 16-bit types by loading
// pairs as 32-bit lanes; a 16-bit self tested on its bits, Step2SelfInside)
// and compute straight away, without StridedRun's scratch round trip. Kernel
// alone, one core: f32/step2/64K 41 -> 54-56 GB/s. Full API, one core, AMD Zen
// 5 VM, both paths alternated in one process, 64K / 1M / 16M elements, this
// path over the scratch one: bf16 AVX-512 1.09 / 1.44 / 1.26, AVX2 1.15 /
// 1.16 / 1.48, SSE4 1.15 / 1.0 / 1.16; f16 AVX-512 1.0 / 1.23 / 1.20. Every
// operand f16 took the scratch path below AVX-512, and on AVX-512 below 128K
// elements, while self was widened here and the last vector went element by
// element (ScalarRun); since self is tested on its bits and the last vector
// is computed on a copy, this path is ahead for it too (API, one core, Zen 5
// VM, ns a call against the scratch path, 1K / 4K / 16K: AVX-512 200 / 381 /
// 1082 vs 210 / 456 / 1720, AVX2 250 / 641 / 2205 vs 246 / 651 / 2240, SSE4
// 1222-1442 / 4440 / 17430 vs 1308 / 4995 / 19760; 64K AVX-512 4.3 vs 6.1
// us, 1M AVX2 142-149 vs 161, SSE4 1165-1173 vs 1285-1309).
// Full vectors only: ConcatEven on the half-width float vectors a double out
// needs gave wrong results on SVE (sve_256 under qemu, Highway 1.0.3), so a
// double out takes StridedRun. kNonTemporal: out stored with non-temporal
// stores (see StreamingRun) from its first vector-aligned element on.
template <class Out>
constexpr bool kStep2InRegisters = !std::is_same_v<Out, F64>;

template <class Grad, class Self, class Promoted, class Out, bool kNonTemporal = false>
void Step2Run(const typename Grad::Storage* g, const typename Self::Storage* s, typename Out::Storage* o,
              int64_t count) {
  static_assert(kStep2InRegisters<Out>, "see kStep2InRegisters");
  int64_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  using OutT = typename Out::Storage;
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto result_of = [&](const typename Grad::Storage* g_at,
                             const typename Self::Storage* s_at) {
    const auto grad_f32 = VectorIo<Grad>::LoadEven(df, g_at);
    return RoundToPromoted<Promoted, Out>(df, ScaledGradInside(df, Step2SelfInside<Self>(df, s_at), grad_f32));
  };
  const auto result_at = [&](int64_t at) { return result_of(g + 2 * at, s + 2 * at); };
  // The second loads read one element past the last one used: the loops stop
  // one vector short of the end (count - 1 whole vectors' room) so they stay in
  // the view. Four 16-byte vectors a step (ForEachFullVectorUnrolledIfNarrow):
  // one SSE4 vector a step ran at 0.71x SSSE3's byte-identical loop placed
  // elsewhere in the code (see StreamVectors; f32 1K through the API, AMD Zen 5
  // VM: 433-441 against 314-320 ns a call, while the kernel alone, another copy
  // of the same loop in the bench, took 207-214 against 250).
  if constexpr (kNonTemporal) {
    // A 16-bit out: two float32 vectors of results make one whole vector.
    constexpr int64_t kVectorsAStore = sizeof(OutT) == sizeof(float) ? 1 : 2;
    const int64_t step = kVectorsAStore * lanes;
    i = ElementsBeforeAlignment(o, sizeof(OutT), step * static_cast<int64_t>(sizeof(OutT)), count);
    ScalarRun<Grad, Self, Promoted, Out>(g, 2, s, 2, o, 1, i);
    i = ForEachFullVectorUnrolledIfNarrow(df, i, count - 1, step, [&](int64_t at) {
      if constexpr (kVectorsAStore == 1) {
        hn::Stream(result_at(at), df, o + at);
      } else {
        const hn::Repartition<uint16_t, decltype(df)> du16;
        hn::Stream(hn::Combine(du16, VectorIo<Out>::Narrow(df, result_at(at + lanes)),
                               VectorIo<Out>::Narrow(df, result_at(at))),
                   du16, o + at);
      }
    });
  }
  i = ForEachFullVectorUnrolledIfNarrow(df, i, count - 1, lanes, [&](int64_t at) {
    VectorIo<Out>::Store(df, result_at(at), o + at);
  });
  // The last 1 to lanes elements, whose second loads would read past the view:
  // one vector computed on a copy (ScalarRun's conversions, element by
  // element, took a quarter of a 1K-element call).
  if (const int64_t rest = count - i; rest > 0) {
    HWY_ALIGN typename Grad::Storage g_tail[2 * hn::MaxLanes(df)] = {};
    HWY_ALIGN typename Self::Storage s_tail[2 * hn::MaxLanes(df)] = {};
    HWY_ALIGN OutT o_tail[hn::MaxLanes(df)];
    std::memcpy(g_tail, g + 2 * i, static_cast<size_t>(2 * rest - 1) * sizeof(g_tail[0]));
    std::memcpy(s_tail, s + 2 * i, static_cast<size_t>(2 * rest - 1) * sizeof(s_tail[0]));
    VectorIo<Out>::Store(df, result_of(g_tail, s_tail), o_tail);
    std::memcpy(o + i, o_tail, static_cast<size_t>(rest) * sizeof(OutT));
    i = count;
  }
#endif
  ScalarRun<Grad, Self, Promoted, Out>(g + 2 * i, 2, s + 2 * i, 2, o + i, 1, count - i);
}

// A run whose inputs are both step-2 views and whose out is dense goes
// through Step2Run, and this says it did; any other run is left to the caller.
template <class Grad, class Self, class Promoted, class Out, bool kNonTemporal = false>
HWY_INLINE bool RanAsStep2(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
                           int64_t out_stride, int64_t count) {
  if (grad_stride != 2 || self_stride != 2 || out_stride != 1) return false;
  Step2Run<Grad, Self, Promoted, Out, kNonTemporal>(static_cast<const typename Grad::Storage*>(grad),
                                                    static_cast<const typename Self::Storage*>(self),
                                                    static_cast<typename Out::Storage*>(out), count);
  return true;
}

template <class Grad, class Self, class Promoted, class Out>
void VectorRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
               int64_t out_stride, int64_t count) {
  // Runs shorter than a vector (tiny calls, ragged edges) would only reach the
  // scalar tail, through the vector loops' setup: a tenth of a 1-element call.
  if (count < static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>()))) {
    ScalarRun<Grad, Self, Promoted, Out>(grad, grad_stride, self, self_stride, out, out_stride, count);
    return;
  }
  if constexpr (kStep2InRegisters<Out>) {
    if (RanAsStep2<Grad, Self, Promoted, Out>(grad, grad_stride, self, self_stride, out, out_stride, count)) return;
  }
  if (grad_stride != 1 || self_stride != 1 || out_stride != 1) {
    StridedRun<Grad, Self, Promoted, Out>(grad, grad_stride, self, self_stride, out, out_stride, count);
    return;
  }
  ContiguousRun<Grad, Self, Promoted, Out>(grad, self, out, count);
}

// Every operand of one 16-bit float type, Half (all f16 or all bf16): the
// launches SameHalfTypeRun and HardsigmoidGradOnHalves serve.
template <class Grad, class Self, class Promoted, class Out>
constexpr bool kEveryOperandOneHalfType = (std::is_same_v<Out, F16> || std::is_same_v<Out, Bf16>)&&std::is_same_v<
    Grad, Out> && std::is_same_v<Self, Out> && std::is_same_v<Promoted, Out>;

// Every operand of one 16-bit float type (all f16 or all bf16), the usual case
// for those dtypes. -3 < self < 3 is |self| < 3, and on a 16-bit float's bits
// that is an integer compare of the magnitude bits with those of 3.0: NaNs have
// larger magnitude bits than infinity and fail it, as they fail the ordered
// float compares; -0 and subnormals pass. So self is never widened: a full
// vector of it is tested as int16 lanes; grad is widened to two float32
// vectors, scaled, and narrowed back (both exact conversions, convert-inl.h);
// the mask then zeroes the 16-bit results (+0.0 is all zero bits). Kernel
// alone, one core, 64K-1M elements: f16 55 -> 75-78 GB/s, bf16 40-45 -> 56
// GB/s. SameHalfTypeVector is one full vector of results, at g and s;
// SameHalfTypeRun stores them for whole vectors of a run and returns how many
// elements it did.
#if HWY_TARGET != HWY_SCALAR
template <class Half>
HWY_INLINE hn::Vec<hn::ScalableTag<uint16_t>> SameHalfTypeVector(const uint16_t* g, const uint16_t* s) {
  const hn::ScalableTag<int16_t> di16;
  const hn::RebindToUnsigned<decltype(di16)> du16;
  const hn::Repartition<float, decltype(du16)> df;  // half as many lanes
  const auto one_sixth = hn::Set(df, kOneSixth);
  const auto self_bits = hn::BitCast(di16, hn::LoadU(du16, s));
  const auto inside = hn::RebindMask(du16, SelfInsideWindow<Half>(di16, self_bits));
  hn::Vec<decltype(du16)> scaled;
  if constexpr (std::is_same_v<Half, Bf16>) {
#if ACLCPU_SIMD_HAS_BF16_PAIRS
    // Widened by zero interleaving, narrowed by the matching pack: no lane
    // crossing (convert-inl.h).
    hn::Vec<decltype(df)> lo, hi;
    LoadBf16PairAsF32(du16, g, lo, hi);
    scaled = NarrowF32PairToBf16Bits(du16, hn::Mul(lo, one_sixth), hn::Mul(hi, one_sixth));
#else
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    scaled = hn::Combine(du16, F32ToBf16Bits(df, hn::Mul(LoadBf16AsF32(df, g + lanes), one_sixth)),
                         F32ToBf16Bits(df, hn::Mul(LoadBf16AsF32(df, g), one_sixth)));
#endif
  } else {
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    scaled = hn::Combine(du16, F32ToF16Bits(df, hn::Mul(LoadF16AsF32(df, g + lanes), one_sixth)),
                         F32ToF16Bits(df, hn::Mul(LoadF16AsF32(df, g), one_sixth)));
  }
  return hn::IfThenElseZero(inside, scaled);
}

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// AVX-512, f16: one float32 vector of elements a step, half a vector of
// results. The window test on half a vector of self's bits yields the 16-lane
// mask the float32 multiply takes as it is, so no mask splitting, combine or
// 16-bit select follows (kernel alone, one core, 64K-1M: 75-78 GB/s with full
// vectors, 85-89 with the 32-lane mask split in halves, 87-97 this way).
using F16HalfVectorTag = hn::Rebind<uint16_t, hn::ScalableTag<float>>;
HWY_INLINE hn::Vec<F16HalfVectorTag> SameF16HalfVector(const uint16_t* g, const uint16_t* s) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<int16_t, decltype(df)> di16_half;
  const F16HalfVectorTag du16_half;
  const auto self_bits = hn::BitCast(di16_half, hn::LoadU(du16_half, s));
  const hn::Mask512<float> inside{SelfInsideWindow<F16>(di16_half, self_bits).raw};
  return F32ToF16Bits(df, hn::IfThenElseZero(inside, hn::Mul(LoadF16AsF32(df, g), hn::Set(df, kOneSixth))));
}
#endif
#endif  // HWY_TARGET != HWY_SCALAR

template <class Half>
int64_t SameHalfTypeRun(const uint16_t* g, const uint16_t* s, uint16_t* o, int64_t count) {
  int64_t i = 0;
#if HWY_TARGET == HWY_SCALAR
  (void)g, (void)s, (void)o, (void)count;
#elif HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  if constexpr (std::is_same_v<Half, F16>) {
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(F16HalfVectorTag()));
    for (; i + lanes <= count; i += lanes) hn::StoreU(SameF16HalfVector(g + i, s + i), F16HalfVectorTag(), o + i);
    return i;
  }
#endif
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<uint16_t> du16;
  const int64_t lanes16 = static_cast<int64_t>(hn::Lanes(du16));
  for (; i + lanes16 <= count; i += lanes16) hn::StoreU(SameHalfTypeVector<Half>(g + i, s + i), du16, o + i);
#endif
  return i;
}

template <class Grad, class Self, class Promoted, class Out>
void ContiguousRun(const void* grad, const void* self, void* out, int64_t count) {
  // A double output needs as many double lanes as float lanes: use half-width
  // float vectors then.
  using DF = std::conditional_t<std::is_same_v<Out, F64>, hn::Rebind<float, hn::ScalableTag<double>>,
                                hn::ScalableTag<float>>;
  const DF df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  auto* o = static_cast<typename Out::Storage*>(out);
  int64_t i = 0;
  if constexpr (kEveryOperandOneHalfType<Grad, Self, Promoted, Out>) {
    i = SameHalfTypeRun<Out>(g, s, o, count);
  }
  i = ForEachFullVector(i, count, lanes, [&](int64_t at) {
    VectorIo<Out>::Store(df, ComputeVector<Grad, Self, Promoted, Out>(df, g + at, s + at), o + at);
  });
  ScalarRun<Grad, Self, Promoted, Out>(g + i, 1, s + i, 1, o + i, 1, count - i);
}

// Every operand Half, on a transposed plane's 16-bit values, for the shared
// block that computes on the inputs' own bits as their rows are loaded
// (SharedTileBlockOfInputHalves): SameHalfTypeRun's arithmetic, lane by lane
// (self tested on its bits, grad widened, scaled, rounded once to Half, zero
// outside the window), so the bits are those of every other path.
template <class Half>
struct HardsigmoidGradOnHalves {
  template <class DU16>
  hn::Vec<DU16> Vector(DU16 du16, hn::Vec<DU16> grad_bits, hn::Vec<DU16> self_bits) const {
    const hn::RebindToSigned<DU16> di16;
    const hn::Repartition<float, DU16> df;
    const auto inside = hn::RebindMask(du16, SelfInsideWindow<Half>(di16, hn::BitCast(di16, self_bits)));
    const auto scaled = VectorIo<Half>::MapFullVector(
        du16, grad_bits, [df](hn::Vec<decltype(df)> grad) { return hn::Mul(grad, hn::Set(df, kOneSixth)); });
    return hn::IfThenElseZero(inside, scaled);
  }
};

// Two-dimensional blocks, for transposed views (inputs contiguous along dim 1,
// out along dim 0), called once per plane by the executor: the shared block
// walk (ops/shared/simd/transposed_tiles-inl.h) with this operator's rows.
// A block row holds float32 results rounded to the promoted type unless out is
// the promoted type, whose store rounds (rounding again on the way out is
// exact). When every operand is f16, or every one bf16, the vector blocks
// compute on the inputs' loaded rows instead (HardsigmoidGradOnHalves).
template <class Grad, class Self, class Promoted, class Out>
void TileRun(const void* grad, int64_t grad_stride0, int64_t grad_stride1, const void* self, int64_t self_stride0,
             int64_t self_stride1, void* out, int64_t out_stride0, int64_t out_stride1, int64_t size0,
             int64_t size1, bool stream) {
  using G = typename Grad::Storage;
  using S = typename Self::Storage;
  const SharedTileInput inputs[2] = {{grad, grad_stride0, grad_stride1, int64_t{sizeof(G)}},
                                     {self, self_stride0, self_stride1, int64_t{sizeof(S)}}};
  // Generic lambdas: instantiated only where the shared walk calls them (never
  // the vector row for a double out).
  auto compute_row = [](auto rows, float* b_row, int64_t cols) {
    const G* g_row = reinterpret_cast<const G*>(rows[0]);
    const S* s_row = reinterpret_cast<const S*>(rows[1]);
    const hn::ScalableTag<float> df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    int64_t j = 0;
    for (; j + lanes <= cols; j += lanes) {
      hn::Store(ComputeVector<Grad, Self, Promoted, Out>(df, g_row + j, s_row + j), df, b_row + j);
    }
    for (; j < cols; ++j) b_row[j] = ToOut<Promoted, F32>(HardsigmoidGrad(Grad::Load(g_row[j]), Self::Load(s_row[j])));
  };
  auto run_row = [&](auto starts, typename Out::Storage* dst, int64_t cols) {
    VectorRun<Grad, Self, Promoted, Out>(starts[0], grad_stride1, starts[1], self_stride1, dst, 1, cols);
  };
  auto* o = static_cast<typename Out::Storage*>(out);
  if constexpr (kEveryOperandOneHalfType<Grad, Self, Promoted, Out>) {
    RunSharedTransposedPlane<Out>(inputs, o, out_stride0, out_stride1, size0, size1, stream, compute_row, run_row,
                                  HardsigmoidGradOnHalves<Out>());
  } else {
    RunSharedTransposedPlane<Out>(inputs, o, out_stride0, out_stride1, size0, size1, stream, compute_row, run_row);
  }
}

// Runs of launches far larger than the last-level cache (out one dense run,
// or rows of it: ElementwiseGeometry::WorthStreamingRuns), with non-temporal
// stores: they skip reading each output line before overwriting it (a third
// of the DRAM traffic of a contiguous launch, a sixth of a step-2 one) and
// keep the inputs' lines in cache. Each vector of results is streamed from
// registers as it is computed (StreamVectors; the elements up to out's
// alignment and the tail go through ContiguousRun). Step-2 inputs take
// Step2Run with non-temporal stores of its own; runs of other strides take the
// ordinary kernels. A 16-bit out is streamed a whole vector of its bits at a
// time (two float32 vectors of results), or for every operand f16 on AVX-512
// half of one (SameHalfTypeRun's loop there). Computing 16-bit results in
// blocks into L1 and copying them out, as before: every operand f16, 16M
// elements, one core, AMD Zen 5 VM, API against the bench's non-temporal
// roofline, old and new libraries alternated, 0.72-0.89x -> 0.95-1.03x
// (every operand bf16, avx512_bf16's own kernel: 0.74-0.77x -> 0.94-0.95x).
// (Step-2 runs with a 16-bit out, before they took Step2Run, gained nothing
// from the blocks: 16M, one core, same VM, all-bf16 0.57-0.62x -> 0.92-0.99x
// with Step2Run's own non-temporal stores, all-f16 0.61-0.70x -> 0.80-1.0x.)
template <class Grad, class Self, class Promoted, class Out>
void StreamingRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
                  int64_t out_stride, int64_t count) {
  if (RanAsStep2<Grad, Self, Promoted, Out, /*kNonTemporal=*/true>(grad, grad_stride, self, self_stride, out,
                                                                      out_stride, count)) {
    return;
  }
  if (grad_stride != 1 || self_stride != 1 || out_stride != 1) {
    VectorRun<Grad, Self, Promoted, Out>(grad, grad_stride, self, self_stride, out, out_stride, count);
    return;
  }
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  auto* o = static_cast<typename Out::Storage*>(out);
  const auto run = [g, s, o](int64_t start, int64_t length) {
    ContiguousRun<Grad, Self, Promoted, Out>(g + start, s + start, o + start, length);
  };
#if HWY_TARGET == HWY_SCALAR
  run(0, count);  // one lane: nothing to stream
#else
  const hn::ScalableTag<float> df;
  if constexpr (std::is_same_v<Out, F32>) {
    StreamVectors(df, o, count, [&](int64_t i) { return ComputeVector<Grad, Self, Promoted, Out>(df, g + i, s + i); },
                  run);
  } else if constexpr (kEveryOperandOneHalfType<Grad, Self, Promoted, Out>) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if constexpr (std::is_same_v<Out, F16>) {
      StreamVectors(F16HalfVectorTag(), o, count, [&](int64_t i) { return SameF16HalfVector(g + i, s + i); }, run);
      return;
    }
#endif
    StreamVectors(hn::ScalableTag<uint16_t>(), o, count,
                  [&](int64_t i) { return SameHalfTypeVector<Out>(g + i, s + i); }, run);
  } else {
    const hn::Repartition<uint16_t, decltype(df)> du16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    // Forced inline: GCC 12 at -O2 made it a function called once a vector
    // on SSE4 and SSSE3 (f16 inputs, a bf16 out: four conversions without
    // F16C's instructions make it large).
    StreamVectors(du16, o, count, [&](int64_t i) __attribute__((always_inline)) {
      const auto lower = ComputeVector<Grad, Self, Promoted, Out>(df, g + i, s + i);
      const auto upper = ComputeVector<Grad, Self, Promoted, Out>(df, g + i + lanes, s + i + lanes);
      return hn::Combine(du16, VectorIo<Out>::Narrow(df, upper), VectorIo<Out>::Narrow(df, lower));
    }, run);
  }
#endif
}

// The same through blocks (StreamThroughBlocks), for a target's own 16-bit
// kernel that only comes as whole runs, kKernel: the avx512_fp16 target's,
// whose CPUs are not at hand to measure or test a streaming form on.
template <class Grad, class Self, class Promoted, class Out, HardsigmoidBackwardRunFn kKernel>
void StreamingThroughBlockRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                              void* out, int64_t out_stride, int64_t count) {
  if (RanAsStep2<Grad, Self, Promoted, Out, /*kNonTemporal=*/true>(grad, grad_stride, self, self_stride, out,
                                                                      out_stride, count)) {
    return;
  }
  if (grad_stride != 1 || self_stride != 1 || out_stride != 1) {
    kKernel(grad, grad_stride, self, self_stride, out, out_stride, count);
    return;
  }
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  StreamThroughBlocks(static_cast<typename Out::Storage*>(out), count,
                      [&](int64_t start, int64_t length, typename Out::Storage* dst) {
                        kKernel(g + start, 1, s + start, 1, dst, 1, length);
                      });
}

// Each grad dtype's kernels, compiled in a translation unit of their own
// (grad_f32.cc, grad_f16.cc, grad_bf16.cc; see select_by_grad-inl.h).
template <class Grad>
HardsigmoidBackwardRunFn SelectVectorKernelForGrad(aclDataType self, aclDataType promoted, aclDataType out) {
  return WithSelfAndPromotedType<Grad>(self, promoted, [&](auto s, auto p) {
    using S = decltype(s);
    using P = decltype(p);
    return WithOutType(out, [](auto o) -> HardsigmoidBackwardRunFn { return &VectorRun<Grad, S, P, decltype(o)>; });
  });
}

template <class Grad>
HardsigmoidBackwardRunFn SelectStreamingKernelForGrad(aclDataType self, aclDataType promoted, aclDataType out) {
  // The compute dtypes only (WithComputeType): no streaming kernel writes double, a rare out.
  return WithSelfAndPromotedType<Grad>(self, promoted, [&](auto s, auto p) {
    using S = decltype(s);
    using P = decltype(p);
    return WithComputeType(out,
                           [](auto o) -> HardsigmoidBackwardRunFn { return &StreamingRun<Grad, S, P, decltype(o)>; });
  });
}

template <class Grad>
HardsigmoidBackwardTileFn SelectTileKernelForGrad(aclDataType self, aclDataType promoted, aclDataType out) {
  return WithSelfAndPromotedType<Grad, HardsigmoidBackwardTileFn>(self, promoted, [&](auto s, auto p) {
    using S = decltype(s);
    using P = decltype(p);
    return WithOutType<HardsigmoidBackwardTileFn>(
        out, [](auto o) -> HardsigmoidBackwardTileFn { return &TileRun<Grad, S, P, decltype(o)>; });
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid_backward
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
