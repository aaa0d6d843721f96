// aclcpu: exact vector conversions between float32 and the 16-bit float formats,
// for every Highway target — the vector twins of common/float16.h, and tested bit
// for bit against it on each compiled target.
//
// Why not Highway's own: in Highway 1.0.3, DemoteTo(f32 -> bf16) truncates on
// every target, and f16 conversions clamp and truncate on targets without F16C
// (SSSE3, SSE4, EMU128, SCALAR), losing infinities, NaN and -0. Where the CPU has
// exact hardware (x86 F16C, which AVX2 and AVX-512 imply) we use it for f16; the
// integer code below is used everywhere else and for bf16.
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_SIMD_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_SIMD_CONVERT_INL_H_
#undef ACLCPU_SIMD_CONVERT_INL_H_
#else
#define ACLCPU_SIMD_CONVERT_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// True on targets whose f16 <-> f32 conversions are exact IEEE hardware
// instructions that quiet NaNs and keep their payload (F16C on x86).
#undef ACLCPU_SIMD_HAS_EXACT_F16
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define ACLCPU_SIMD_HAS_EXACT_F16 1
#else
#define ACLCPU_SIMD_HAS_EXACT_F16 0
#endif

// bf16 (as uint16 bits, lane count of df) -> f32: the bits are the top half.
template <class DF>
HWY_INLINE hn::Vec<DF> LoadBf16AsF32(DF df, const uint16_t* p) {
  const hn::RebindToUnsigned<DF> du32;
  const hn::Rebind<uint16_t, DF> du16;
  return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(du32, hn::LoadU(du16, p))));
}

// f32 -> bf16 bits, round to nearest even; NaN stays NaN, quiet, sign kept.
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> F32ToBf16Bits(DF /*df*/, hn::Vec<DF> v) {
  const hn::RebindToUnsigned<DF> du32;
  const hn::RebindToSigned<DF> di32;
  const hn::Rebind<uint16_t, DF> du16;
  const auto bits = hn::BitCast(du32, v);
  const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(du32, 1u));
  const auto rounded = hn::ShiftRight<16>(hn::Add(bits, hn::Add(hn::Set(du32, 0x7FFFu), odd)));
  const auto quiet_nan = hn::Or(hn::ShiftRight<16>(bits), hn::Set(du32, 0x40u));
  // NaN test on the bits: Highway 1.0.3's float Ne is an ordered compare on x86
  // AVX2/AVX-512 (false for NaN), so v != v cannot be used.
  const auto magnitude = hn::BitCast(di32, hn::And(bits, hn::Set(du32, 0x7FFFFFFFu)));
  const auto is_nan = hn::RebindMask(du32, hn::Gt(magnitude, hn::Set(di32, 0x7F800000)));
  const auto result = hn::IfThenElse(is_nan, quiet_nan, rounded);
  return hn::DemoteTo(du16, hn::BitCast(di32, result));
}

template <class DF>
HWY_INLINE void StoreF32AsBf16(DF df, hn::Vec<DF> v, uint16_t* p) {
  hn::StoreU(F32ToBf16Bits(df, v), hn::Rebind<uint16_t, DF>(), p);
}

// Pairs of float32 vectors from one full vector of bf16 bits, and back, for
// loops whose every operand is bf16 (an elementwise op may permute lanes as long
// as its store undoes the permutation). The bits are widened by interleaving
// with zeros (ZipLower/ZipUpper: each 128-bit block's lower / upper half), and
// narrowed with x86's per-block signed pack (ReorderDemote2To on int16), which is
// exactly the inverse order. So this is for x86 targets only: elsewhere the two
// operations' lane orders are not documented to match.
#undef ACLCPU_SIMD_HAS_BF16_PAIRS
#if HWY_TARGET == HWY_SSSE3 || HWY_TARGET == HWY_SSE4 || HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3 || \
    HWY_TARGET == HWY_AVX3_DL
#define ACLCPU_SIMD_HAS_BF16_PAIRS 1
#else
#define ACLCPU_SIMD_HAS_BF16_PAIRS 0
#endif

#if ACLCPU_SIMD_HAS_BF16_PAIRS
// A full vector of bf16 bits as two float32 vectors (in a permuted order that
// NarrowF32PairToBf16Bits undoes).
template <class DU16>
HWY_INLINE void Bf16PairToF32(DU16 du16, hn::Vec<DU16> bits, hn::Vec<hn::Repartition<float, DU16>>& lo,
                              hn::Vec<hn::Repartition<float, DU16>>& hi) {
  const hn::RepartitionToWide<DU16> du32;
  const hn::Repartition<float, DU16> df;
  const auto zero = hn::Zero(du16);
  // The bf16 bits become the upper half of each 32-bit lane: the float value.
  lo = hn::BitCast(df, hn::ZipLower(du32, zero, bits));
  hi = hn::BitCast(df, hn::ZipUpper(du32, zero, bits));
}

// Loads Lanes(du16) bf16 values as two float32 vectors (in a permuted order
// that StoreBf16PairFromF32 undoes).
template <class DU16>
HWY_INLINE void LoadBf16PairAsF32(DU16 du16, const uint16_t* p, hn::Vec<hn::Repartition<float, DU16>>& lo,
                                  hn::Vec<hn::Repartition<float, DU16>>& hi) {
  Bf16PairToF32(du16, hn::LoadU(du16, p), lo, hi);
}

// f32 -> bf16 bits in the upper half of each 32-bit lane, round to nearest even;
// NaN stays NaN, quiet, sign and top payload bits kept. The lower half is junk.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> RoundF32ToBf16High(DF df, hn::Vec<DF> v) {
  const hn::RebindToSigned<DF> di32;
  const auto bits = hn::BitCast(di32, v);
  // Adding 0x7FFF plus the kept part's lowest bit rounds to nearest, ties to
  // even; for finite values the carry can at most reach infinity, as it should.
  const auto odd = hn::And(hn::ShiftRight<16>(bits), hn::Set(di32, 1));
  const auto rounded = hn::Add(bits, hn::Add(odd, hn::Set(di32, 0x7FFF)));
  // NaN must not round (its payload could carry into the exponent): set the
  // quiet bit instead. IsNaN is an unordered compare on every target, unlike
  // Highway 1.0.3's float Ne on x86 AVX2/AVX-512.
  return hn::IfThenElse(hn::RebindMask(di32, hn::IsNaN(v)), hn::Or(bits, hn::Set(di32, 0x00400000)), rounded);
}

// Two float32 vectors in LoadBf16PairAsF32's lane order -> one full vector of
// bf16 bits, in the original order.
template <class DU16>
HWY_INLINE hn::Vec<DU16> NarrowF32PairToBf16Bits(DU16 du16, hn::Vec<hn::Repartition<float, DU16>> lo,
                                                 hn::Vec<hn::Repartition<float, DU16>> hi) {
  const hn::Repartition<float, DU16> df;
  const hn::RebindToSigned<DU16> di16;
  // An arithmetic shift keeps each value in int16 range, so the saturating pack
  // passes the 16 bits through unchanged.
  const auto lo16 = hn::ShiftRight<16>(RoundF32ToBf16High(df, lo));
  const auto hi16 = hn::ShiftRight<16>(RoundF32ToBf16High(df, hi));
  return hn::BitCast(du16, hn::ReorderDemote2To(di16, lo16, hi16));
}

// Stores two float32 vectors from LoadBf16PairAsF32's lane order as Lanes(du16)
// bf16 values, in the original order.
template <class DU16>
HWY_INLINE void StoreBf16PairFromF32(DU16 du16, hn::Vec<hn::Repartition<float, DU16>> lo,
                                     hn::Vec<hn::Repartition<float, DU16>> hi, uint16_t* p) {
  hn::StoreU(NarrowF32PairToBf16Bits(du16, lo, hi), du16, p);
}
#endif  // ACLCPU_SIMD_HAS_BF16_PAIRS

// f16 bits, one in the low half of each 32-bit lane (upper half zero) -> f32, exact.
template <class DF>
HWY_INLINE hn::Vec<DF> F16BitsInLanesToF32(DF df, hn::Vec<hn::RebindToSigned<DF>> half) {
#if ACLCPU_SIMD_HAS_EXACT_F16
  const hn::Rebind<hwy::float16_t, DF> df16;
  const hn::Rebind<uint16_t, DF> du16;
  // A saturating narrow that never saturates here: every lane is below 2^16.
  return hn::PromoteTo(df, hn::BitCast(df16, hn::DemoteTo(du16, half)));
#else
  const hn::RebindToSigned<DF> di32;
  const auto sign = hn::ShiftLeft<16>(hn::And(half, hn::Set(di32, 0x8000)));
  const auto magnitude = hn::And(half, hn::Set(di32, 0x7FFF));
  const auto shifted = hn::ShiftLeft<13>(magnitude);
  // Normal: re-bias the exponent (15 -> 127).
  const auto normal = hn::Add(shifted, hn::Set(di32, 0x38000000));
  // Infinity and NaN: all-ones exponent; NaNs are made quiet, payload kept.
  const auto is_nan = hn::Gt(magnitude, hn::Set(di32, 0x7C00));
  const auto special = hn::Or(hn::Or(shifted, hn::Set(di32, 0x7F800000)),
                              hn::IfThenElseZero(is_nan, hn::Set(di32, 0x00400000)));
  // Zero and subnormal: mantissa * 2^-24, exact in float32.
  const auto tiny = hn::BitCast(di32, hn::Mul(hn::ConvertTo(df, magnitude), hn::Set(df, 5.9604644775390625e-8f)));
  auto result = hn::IfThenElse(hn::Lt(magnitude, hn::Set(di32, 0x0400)), tiny, normal);
  result = hn::IfThenElse(hn::Gt(magnitude, hn::Set(di32, 0x7BFF)), special, result);
  return hn::BitCast(df, hn::Or(result, sign));
#endif
}

// f16 bits -> f32, exact.
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF16AsF32(DF df, const uint16_t* p) {
#if ACLCPU_SIMD_HAS_EXACT_F16
  const hn::Rebind<hwy::float16_t, DF> df16;
  return hn::PromoteTo(df, hn::LoadU(df16, reinterpret_cast<const hwy::float16_t*>(p)));
#else
  const hn::Rebind<uint16_t, DF> du16;
  return F16BitsInLanesToF32(
      df, hn::BitCast(hn::RebindToSigned<DF>(), hn::PromoteTo(hn::RebindToUnsigned<DF>(), hn::LoadU(du16, p))));
#endif
}

// Step-2 views ([::2]) of 16-bit elements: the even elements p[0], p[2], ... of
// the 2 x Lanes(df) at p, as float32. Each pair is loaded as one 32-bit lane,
// whose low half is the even element on little-endian targets (all of ours), so
// no de-interleaving shuffle is needed: bf16 bits go to the top half by a shift
// that drops the odd element, f16 bits are masked. Reads p[0, 2 x lanes).
template <class DF>
HWY_INLINE hn::Vec<DF> LoadEvenBf16AsF32(DF df, const uint16_t* p) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the even element is the low half of a pair");
  const hn::RebindToUnsigned<DF> du32;
  return hn::BitCast(df, hn::ShiftLeft<16>(hn::LoadU(du32, reinterpret_cast<const uint32_t*>(p))));
}

template <class DF>
HWY_INLINE hn::Vec<DF> LoadEvenF16AsF32(DF df, const uint16_t* p) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the even element is the low half of a pair");
  const hn::RebindToSigned<DF> di32;
  const auto pairs = hn::LoadU(di32, reinterpret_cast<const int32_t*>(p));
  return F16BitsInLanesToF32(df, hn::And(pairs, hn::Set(di32, 0xFFFF)));
}

// f32 -> f16 bits, round to nearest even; overflow to infinity; NaN stays NaN,
// quiet, sign and top payload bits kept.
template <class DF>
HWY_INLINE hn::Vec<hn::Rebind<uint16_t, DF>> F32ToF16Bits(DF df, hn::Vec<DF> v) {
  const hn::Rebind<uint16_t, DF> du16;
#if ACLCPU_SIMD_HAS_EXACT_F16
  (void)df;
  return hn::BitCast(du16, hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v));
#else
  const hn::RebindToSigned<DF> di32;
  const auto bits = hn::BitCast(di32, v);
  const auto sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(di32, 0x8000));
  const auto magnitude = hn::And(bits, hn::Set(di32, 0x7FFFFFFF));
  const auto mantissa_top = hn::ShiftRight<13>(magnitude);
  // Normal half: re-bias (127 -> 15), add just under half an ulp plus the kept
  // part's lowest bit, so exact ties round to even.
  const auto odd = hn::And(mantissa_top, hn::Set(di32, 1));
  const auto normal = hn::ShiftRight<13>(
      hn::Add(hn::Sub(magnitude, hn::Set(di32, 0x38000000)), hn::Add(hn::Set(di32, 0xFFF), odd)));
  // Subnormal half: adding 0.5 aligns the value's 2^-24 unit with the last
  // mantissa bit of the sum, and the FPU's round-to-nearest-even does the rest
  // (the default rounding mode; FTZ/DAZ cannot matter, the sum is normal).
  const auto aligned = hn::BitCast(di32, hn::Add(hn::BitCast(df, magnitude), hn::Set(df, 0.5f)));
  const auto subnormal = hn::Sub(aligned, hn::Set(di32, 0x3F000000));
  const auto quiet_nan = hn::Or(hn::Set(di32, 0x7E00), hn::And(mantissa_top, hn::Set(di32, 0x3FF)));
  auto result = hn::IfThenElse(hn::Lt(magnitude, hn::Set(di32, 0x38800000)), subnormal, normal);
  result = hn::IfThenElse(hn::Gt(magnitude, hn::Set(di32, 0x477FEFFF)), hn::Set(di32, 0x7C00), result);
  result = hn::IfThenElse(hn::Gt(magnitude, hn::Set(di32, 0x7F800000)), quiet_nan, result);
  return hn::DemoteTo(du16, hn::Or(result, sign));
#endif
}

template <class DF>
HWY_INLINE void StoreF32AsF16(DF df, hn::Vec<DF> v, uint16_t* p) {
  hn::StoreU(F32ToF16Bits(df, v), hn::Rebind<uint16_t, DF>(), p);
}

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
