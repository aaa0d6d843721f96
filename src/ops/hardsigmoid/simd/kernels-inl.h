// aclcpu: the vector hardsigmoid kernels, templates compiled by Highway for
// every SIMD target and selected at run time (see simd/targets.h). Each kernel
// handles a contiguous run with full vectors and hands the tail (fewer than one
// vector of elements) to the scalar definition in scalar_kernel.h, which is also
// the reference these kernels are tested against. Strided runs go in blocks
// through contiguous scratch (ops/shared/simd/element_io-inl.h).
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_OPS_HARDSIGMOID_SIMD_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_HARDSIGMOID_SIMD_KERNELS_INL_H_
#undef ACLCPU_OPS_HARDSIGMOID_SIMD_KERNELS_INL_H_
#else
#define ACLCPU_OPS_HARDSIGMOID_SIMD_KERNELS_INL_H_
#endif

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "hwy/highway.h"
#include "ops/hardsigmoid/kernel.h"
#include "ops/hardsigmoid/scalar_kernel.h"
#include "ops/shared/simd/element_io-inl.h"
#include "ops/shared/simd/transposed_tiles-inl.h"
#include "simd/bf16_instruction-inl.h"
#include "simd/convert-inl.h"
#include "simd/targets.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace shared = aclcpu::HWY_NAMESPACE;  // ops/shared/simd/element_io-inl.h

// min(max(value, 0), high) on float32 lanes, a NaN value kept, as the scalar
// definition's comparisons keep it (PyTorch's std::max / std::min). Max and
// Min of a NaN lane differ between targets. On x86, MAXPS and MINPS return
// their second operand whenever either is NaN (an architectural rule, Intel's
// and AMD's manuals), and Highway passes its operands in order, so max(0, v)
// and min(high, that) with the NaN second carry it through: no compare and
// select. Elsewhere (Arm's FMAXNM/FMINNM, which Highway uses, return the
// number; the emulated targets are not specified) a NaN value is put back
// explicitly. Either way the NaN is the value itself.
template <class DF>
HWY_INLINE hn::Vec<DF> ClampKeepingNaN(DF df, hn::Vec<DF> value, float high) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  return hn::Min(hn::Set(df, high), hn::Max(hn::Zero(df), value));
#else
  const auto clamped = hn::Min(hn::Max(value, hn::Zero(df)), hn::Set(df, high));
  return hn::IfThenElse(hn::IsNaN(value), value, clamped);
#endif
}

// numerator / 6, correctly rounded, for a numerator of 0, NaN or [2^-22, 6]:
// self + 3 clamped to [0, 6], where a non-zero self + 3 is at least 2^-22 (the
// spacing of float32 values near -3; self's own tiny values are only added to
// 3). Where fused multiply-add is native: 1/6 split in two floats, high =
// float(1/6) and low = float(1/6 - high), then n * high + (n * low) in one
// rounding -- a multiplication and a multiply-add (Brisebarre and Muller's
// correctly rounded multiplication by a constant), where a division's cost
// varies many-fold between CPUs (Agner Fog's tables give AVX-512 VDIVPS a
// vector every 10 cycles or so on Skylake-X; multiply-adds issue one or two
// a cycle on every FMA CPU). The method is not exact for every constant, so
// it was checked for this one: for every float32 numerator in [1/2, 4)
// against IEEE division, and through the whole float32 definition (shift,
// clamp, quotient) for all 2^32 selfs against the scalar definition, bit for
// bit, NaNs as NaNs (throwaway programs; the multiplication alone differs in
// a third of the numerators). Why it holds for all of them: each step scales
// exactly with the numerator's power of two while nothing is subnormal (n *
// low is at least 2^-50 here), so one binade decides, and the kernel tests
// run a whole binade (every numerator in [2, 4)) through every target. 0
// gives 0 (+0 plus n * low's -0), 6 gives 1, and a NaN numerator passes
// through. It replaced Markstein's correction, q = n * high, then
// q + (n - 6q) * high, one multiply-add more. Without native FMA (SSE4,
// SSSE3, the emulated targets) neither is exact: IEEE division there.
template <class DF>
HWY_INLINE hn::Vec<DF> DivideClampedBySix(DF df, hn::Vec<DF> numerator) {
#if HWY_NATIVE_FMA
  return hn::MulAdd(numerator, hn::Set(df, kOneSixth), hn::Mul(numerator, hn::Set(df, kOneSixthRemainder)));
#else
  return hn::Div(numerator, hn::Set(df, kRange));
#endif
}

// The definition on float32 lanes (scalar_kernel.h), for results to be stored
// as Type.
//
// float32: (self + 3) clamped to [0, 6] and divided by 6, correctly rounded
// like the scalar division (DivideClampedBySix). The INT32 path does not come
// here.
//
// f16 and bf16, whose results are rounded once more, to 16 bits:
// self * float(1/6) + 0.5 clamped to [0, 1] gives the same 16-bit result as
// the definition for every one of the 65,536 inputs of each type, fused or
// not (the float32 values differ by an ulp or so and never on two sides of a
// 16-bit rounding boundary; a finite domain, so checked whole: the kernel
// tests' every-16-bit-pattern cases compare every target with the scalar
// division). One multiply-add where the definition takes an addition and a
// division. -0 gives 0.5, -3 gives a tiny negative value clamped to 0, +-inf
// give 1 and 0, and NaN passes through the multiply-add as through self + 3.
// Through the API, one core of an AMD Zen 5 VM, 1M elements in place (in
// cache), the former addition and multiplication against this, old and new
// libraries alternated: f16 54.6-55.5 -> 46.0-47.9 us, bf16 48.4-50.2 ->
// 39.7-41.4; out of place f16 57.0-60.1 -> 51.2-52.2. float32 in place, 8K
// elements in L1, the division against DivideClampedBySix: AVX-512
// 0.058-0.070 -> 0.051-0.068 ns an element, AVX2 0.103-0.114 -> 0.074-0.098.
// What is left in the 16-bit loop is six instructions a vector (AVX-512 f16:
// widen, multiply-add, max, min, narrow, store), and the vector pipes, not
// the memory, are the limit in cache. A throwaway probe, in place over 1M
// f16, one core, same VM, medians: a read-modify-write of the bytes 23 us,
// the two conversions alone 30.5-31, with the multiply-add 32-33, with the
// max 38.5-39, the whole loop 46.5-47. Two ways around the float32 Max and
// Min, each exact over all 65,536 patterns, were slower: the clamp on the
// result's bits as int32 (NaN lanes put back from self's bits after
// narrowing) 63 us, and no clamp but a select of 0 or 1 on self's 16-bit
// bits outside the window 60 us. Nor does AVX-512DQ's VRANGEPS help, which
// would clamp self to [-3, 3] in one instruction (then f16 needs no clamp
// after the multiply-add, with the float32 just below 1/6 as multiplier,
// exhaustively exact): it returns the other operand for a quiet NaN (probed
// on the Zen 5 VM, as Intel's table of NaN inputs has it), so a NaN would
// need its own repair. The bench's "conversions alone" row is the same
// ceiling through the bench's loop. On an AMD Zen 3 VM (AVX2), where F16C's
// conversions each take about a cycle a vector and compete with the
// multiply pipes, two exact ways around them were slower too (throwaway
// probe, in place over 1M f16, cycles a 16 elements, medians): F16C both
// ways 5.7; widening by F16C but rounding to 11 bits by Veltkamp's split in
// a domain scaled by 2^-112 (where a float32's bits shifted right by 13 are
// the f16's), then a pack, 8.6; no F16C at all (integer widening into that
// domain, NaNs put back in 16-bit lanes) 10.2. On an AMD Zen 4 VM (the
// avx512_bf16 target; family 25 model 17), a throwaway probe in place over
// 8K f16 in L1, TSC ticks a 32 elements, medians of 15 interleaved rounds,
// every variant exact over all 65,536 patterns: the two conversions alone
// 4.2, with the multiply-add 4.9-5.0, the whole loop 6.9-7.1, and none of
// these cheaper: the clamp on the narrowed 16-bit results (integer max and
// min, NaN lanes left out by a mask from self's bits) 6.6-7.1 with 256-bit
// integer instructions, 7.1-8.3 with 512-bit ones; half of it in float32
// and half on the bits 6.9-7.1; self's bits clamped to [-3, 3] before
// widening (the multiplier then the float32 just below 1/6, no clamp after)
// 6.9-7.3; VRANGEPS, a two-sided clamp in one instruction (t = self / 6
// clamped to +-0.5, then + 0.5 by a masked add that keeps NaN lanes) 7.7.
// Each 512-bit max, min or VRANGEPS adds about half a tick on top of the
// conversions, as if they shared the conversions' pipes.
//
// The float32 path's self + 3 by an addition, or by a multiply-add, self * 1
// + 3, which rounds once to the same sum: kShiftByMultiplyAdd. Why both: on
// AMD Zen 3 to 5, additions, max and min issue to two pipes and
// multiplications and multiply-adds to two others, so a vector (an addition,
// max, min, then the division's multiplication and multiply-add) keeps the
// first pair busy three cycles while the second does two. The contiguous runs
// take vectors in pairs, the second one shifted on the multiply pipes: five
// and five a pair. On Intel and Arm cores every one of these issues to the
// same pipes, and the form makes no difference (there the two-step division
// alone takes one instruction of six away; not measured on Intel yet). A
// throwaway probe, in place, AMD Zen 4 VM (avx512_bf16 target; family 25
// model 17), TSC ticks a 16 float32, medians of 15 interleaved rounds, over
// 8K elements in L1 / 1M (L3): Markstein's three-step division 2.21 / 2.41,
// the two-step one 2.21 / 2.46 (the addition pipes still bound it), both
// shifts by multiply-adds 2.16 / 2.33, paired 2.00 / 2.28. Through the API,
// same VM, the two libraries alternated in one process, median ns a 64-byte
// line: in place, one thread, 8K 1.12 -> 1.01, 64K 1.11 -> 1.04, 1M
// 0.92-0.93 -> 0.85-0.88; two threads 1M 0.47 -> 0.44; out of place 4K to 1M
// level (within 3 % either way: its stores bound it). Only the float32
// lanes: the 16-bit paths' multiply-add has no addition to move.
template <class Type, bool kShiftByMultiplyAdd = false, class DF>
HWY_INLINE hn::Vec<DF> HardsigmoidVector(DF df, hn::Vec<DF> self) {
  if constexpr (sizeof(typename Type::Storage) == 2) {
    const auto scaled = hn::MulAdd(self, hn::Set(df, kOneSixth), hn::Set(df, kShift / kRange));
    return ClampKeepingNaN(df, scaled, 1.0f);
  } else {
    const auto shifted = kShiftByMultiplyAdd ? hn::MulAdd(self, hn::Set(df, 1.0f), hn::Set(df, kShift))
                                             : hn::Add(self, hn::Set(df, kShift));
    return DivideClampedBySix(df, ClampKeepingNaN(df, shifted, kRange));
  }
}

#if ACLCPU_SIMD_HAS_BF16_PAIRS
// Results rounded to kBits significant bits (8 for bf16, 11 for f16) by
// Veltkamp's splitting, in three floating-point instructions where the exact
// integer rounding of simd/convert-inl.h takes seven: with
// p = r * (2^(24 - kBits) + 1), p - (p - r) is r rounded to kBits bits, to
// nearest, and its lower 24 - kBits bits are zero. That it also breaks ties
// to even, as the exact conversions do, was checked for every float32 in
// [2^-13, 1] against the integer rounding, for both widths (and holds alike
// for any binade scaled by a power of two, as long as nothing is subnormal);
// the kernel tests run all 65,536 patterns of each type through every
// target. It holds for this operator's results only, which are NaN, 0 or
// within the checked range up to a power-of-two scale (below): the product
// must neither overflow nor leave the normal range. A NaN result is self's
// NaN quieted, as every step returns its first NaN operand (x86's rule),
// payload and sign kept: its lower 16 bits are zero too, since self's are.
//
// The product must be rounded on its own: GCC fuses a product and a
// following subtraction into one FMA, across statements too
// (-ffp-contract=fast, its default for C++), which would compute p - r
// exactly and break the splitting. The empty asm makes the rounded product
// a value the compiler cannot see through; it emits nothing. It names x86
// vector registers, hence x86 targets only.
template <int kBits, class DF>
HWY_INLINE hn::Vec<DF> RoundResultToSignificantBits(DF df, hn::Vec<DF> result) {
  auto product = hn::Mul(result, hn::Set(df, static_cast<float>((1 << (24 - kBits)) + 1)));
#if HWY_TARGET <= HWY_AVX3
  asm("" : "+v"(product.raw));  // AVX-512 may allocate xmm16-31 ("v")
#else
  asm("" : "+x"(product.raw));
#endif
  return hn::Sub(product, hn::Sub(product, result));
}

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// The avx512_bf16 target's bf16 vectors (simd/targets.h): the same float32
// arithmetic, narrowed by VCVTNE2PS2BF16 (simd/bf16_instruction-inl.h), which
// rounds two float32 vectors to bf16 in one instruction (to nearest even; a
// NaN quieted with its sign and top payload bits, as our conversion does)
// where the exact integer narrowing of simd/convert-inl.h is about half of a
// vector's instructions.
// Where the instruction differs from our conversion: it takes subnormal
// float32 inputs for zero. No result here is one: each is 0, NaN, or within
// an ulp or so of (self + 3) / 6 with self + 3 at least 2^-6 (the spacing of
// bf16 values near -3), so about 2^-6 / 6 or more, far above float32's
// subnormal range (at self = -3 exactly the multiply-add is a tiny negative
// value, clamped to 0 first; self's own subnormals only move the result off
// 0.5). The kernel tests run every one of the 65,536 bf16 patterns through
// these kernels and compare with the scalar division.
//
// The results come in Bf16PairToF32's lane order (each 128-bit block's lower
// four elements in `lo`, its upper four in `hi`): the widening is one
// interleave with zeros a float32 vector. The instruction packs lo's 16 words
// before hi's, so each group of four words (a 64-bit lane) is in place up to
// one permute of 64-bit lanes. Through the API, one core, AMD Zen 5 VM,
// alternated libraries: in place, 128K-1M bf16, 0.80-0.83 ns a 64-byte line,
// against 0.92-0.95 when each half was widened in order (a zero-extension and
// a shift a float32 vector, then the instruction alone) and 0.85-0.87 with an
// even/odd split and a 16-bit permute (as the backward op's grad_bf16.cc
// does); the same from L2 to L3 sizes, so the loop is bound by its vector
// instructions, not the memory. Transposed to contiguous, out of place
// (HardsigmoidOnHalves<Bf16, true>, below), 256^2 8.1-8.5 -> 7.2 us, 1024^2
// 139-147 -> 129-132 us; 4096^2 level (bound by the block walk's memory
// pattern).
HWY_INLINE hn::Vec512<uint16_t> NarrowResultPairWithBf16Instruction(hn::Vec512<float> lo, hn::Vec512<float> hi) {
  const hn::Full512<uint16_t> d16;
  const hn::Full512<uint64_t> d64;
  // Output 64-bit lane m holds elements 4m .. 4m + 3: packed lane m / 2 (lo's
  // block m / 2) for even m, 4 + m / 2 (hi's) for odd m.
  alignas(64) static constexpr int64_t kBlockOrder[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  const auto packed = hn::BitCast(d64, shared::NarrowPairToBf16WithInstruction(lo, hi));
  return hn::BitCast(d16, hn::TableLookupLanes(packed, hn::SetTableIndices(d64, kBlockOrder)));
}
#endif

// A full vector of self's bf16 bits -> its results' bf16 bits, computed in
// two float32 vectors: the contiguous runs and the transposed blocks alike.
// The even and odd 16-bit lanes are widened in place (a bf16 value is the
// upper half of its float32: a shift up for the even lanes, the lower half
// cleared for the odd ones) and rounded by RoundResultToSignificantBits, whose
// zero lower halves let the odd lanes' results go back with one Or; or, with
// kWithInstruction (the avx512_bf16 target's kernels only), in
// Bf16PairToF32's order, narrowed by VCVTNE2PS2BF16. This is 16 vector
// instructions a 256-bit vector of bf16 where an interleave with zeros, the
// rounding c = 2^16 x r's power of two, (r + c) - c, and a shift-and-pack
// narrowing took 21. Through the API, one core, AMD EPYC Zen 3 VM (AVX2 the
// default target; family 25 model 1), the two libraries alternated, ns a
// 64-byte line: in place 16K 6.28 -> 5.44, 128K 5.52 -> 4.77, 1M 5.48 ->
// 4.64, 16M 6.97 -> 6.58; out of place 1M 5.30 -> 4.47; SSE4 in place 1M
// 14.6 -> 13.9. The loop stays bound by its vector instructions in cache
// (a read-modify-write of the same bytes takes about 1.8 ns a line at 1M).
// Tried and not kept on an AMD Zen 4 VM (avx512_bf16; family 25 model 17),
// a throwaway probe in place, TSC ticks a 32 bf16, medians over 8K (L1) /
// 1M: self's magnitude clamped to 3 on its 16-bit bits (an AND, a compare
// that leaves NaN lanes out, a masked unsigned min, a ternary-logic OR of
// the sign), leaving one max after each multiply-add and no min, exact over
// all 65,536 patterns: 6.7 / 6.8 against 5.2 / 5.4 for the avx512_bf16
// loop. The integer work on 32 lanes cost more than the float max and min
// on two vectors of 16 that it replaced.
template <bool kWithInstruction = false, class DU16>
HWY_INLINE hn::Vec<DU16> HardsigmoidBf16Pair(DU16 du16, hn::Vec<DU16> bits) {
  const hn::Repartition<float, DU16> df;
#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
  if constexpr (kWithInstruction) {
    hn::Vec<decltype(df)> lo, hi;
    shared::Bf16PairToF32(du16, bits, lo, hi);
    return NarrowResultPairWithBf16Instruction(HardsigmoidVector<Bf16>(df, lo), HardsigmoidVector<Bf16>(df, hi));
  }
#else
  static_assert(!kWithInstruction, "VCVTNE2PS2BF16 only on the avx512_bf16 target");
#endif
  const hn::RebindToUnsigned<decltype(df)> du32;
  const auto words = hn::BitCast(du32, bits);
  const auto even = HardsigmoidVector<Bf16>(df, hn::BitCast(df, hn::ShiftLeft<16>(words)));
  const auto odd = HardsigmoidVector<Bf16>(df, hn::BitCast(df, hn::And(words, hn::Set(du32, 0xFFFF0000u))));
  const auto even_bits = hn::ShiftRight<16>(hn::BitCast(du32, RoundResultToSignificantBits<8>(df, even)));
  return hn::BitCast(du16, hn::Or(even_bits, hn::BitCast(du32, RoundResultToSignificantBits<8>(df, odd))));
}
#endif

// f16 on the x86 targets without F16C (SSE4, SSSE3), where the exact
// conversions of simd/convert-inl.h take about twenty instructions each way
// a float32 vector: a full vector of self's f16 bits -> its results' bits,
// computed in float32 scaled by 2^-112, where an f16's bits are a float32's
// shifted by 13 (the exponent biases differ by 112), so neither way needs a
// conversion. Widening: each f16 at the top of its 32-bit lane (the even ones
// shifted up), shifted right by 3 with the sign kept, and the sign's three
// copies cleared, is its value times 2^-112 exactly, subnormals included
// (they become float32 subnormals); infinities become +-2^-96 (65536
// scaled), which give the same 0 and 1; NaNs become finite and are put back
// at the end. The multiply-add and clamp are the other targets', scaled:
// self' / 6 + 2^-113 clamped to [0, 2^-112]. Scaling by a power of two
// commutes with each rounding while the values stay normal, and the results
// do: 2^-12 x 2^-112 and up (f16 self is at least 2^-9 above -3 inside the
// window), or a tiny negative value at -3 that the clamp turns into 0. Only
// the product of a self below about 2^-11 may be subnormal (when not fused),
// and its result is 0.5 either way, f16's spacing there being 2^-11. Rounded
// to 11 bits (RoundResultToSignificantBits), a result's float32 bits shifted
// right by 13 are its f16 bits, with zeros above: one shift for the even
// lanes, a shift left by 3 for the odd ones. A NaN self (magnitude above
// 0x7C00) gives itself quieted, its sign and payload kept, as on every other
// target, selected in 16-bit lanes. The kernel tests compare all 65,536
// patterns with the scalar definition on each target, unfused multiply-add
// included (no FMA on these targets). Through the API, 1M f16,
// one core, AMD EPYC Zen 3 VM, against the exact conversions both ways,
// alternated, median ns a 64-byte line: SSE4 in place 44.7 -> 12.8, out of
// place 43.3 -> 18.8; SSSE3 in place 60.3 -> 19.0 (the machine's speed was
// bimodal that hour: 12-13 or 18-20 ns a line).
#undef ACLCPU_HARDSIGMOID_F16_SCALED
#if ACLCPU_SIMD_HAS_BF16_PAIRS && !ACLCPU_SIMD_HAS_EXACT_F16
#define ACLCPU_HARDSIGMOID_F16_SCALED 1
constexpr float kF16Scale = 0x1p-112f;

template <class DF>
HWY_INLINE hn::Vec<DF> ScaledF16Result(DF df, hn::Vec<DF> scaled_self) {
  const auto shifted = hn::MulAdd(scaled_self, hn::Set(df, kOneSixth), hn::Set(df, kShift / kRange * kF16Scale));
  return RoundResultToSignificantBits<11>(df, hn::Min(hn::Set(df, kF16Scale), hn::Max(hn::Zero(df), shifted)));
}

template <class DU16>
HWY_INLINE hn::Vec<DU16> HardsigmoidF16Scaled(DU16 du16, hn::Vec<DU16> bits) {
  const hn::Repartition<float, DU16> df;
  const hn::RebindToSigned<decltype(df)> di32;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const hn::RebindToSigned<DU16> di16;
  const auto words = hn::BitCast(di32, bits);
  const auto value_bits = hn::Set(di32, static_cast<int32_t>(0x8FFFE000u));
  const auto even = hn::BitCast(df, hn::And(hn::ShiftRight<3>(hn::ShiftLeft<16>(words)), value_bits));
  const auto odd = hn::BitCast(df, hn::And(hn::ShiftRight<3>(words), value_bits));
  const auto even_bits = hn::ShiftRight<13>(hn::BitCast(du32, ScaledF16Result(df, even)));
  const auto odd_bits = hn::ShiftLeft<3>(hn::BitCast(du32, ScaledF16Result(df, odd)));
  const auto results = hn::BitCast(di16, hn::Or(even_bits, odd_bits));
  const auto self16 = hn::BitCast(di16, bits);
  const auto is_nan = hn::Gt(hn::And(self16, hn::Set(di16, 0x7FFF)), hn::Set(di16, 0x7C00));
  return hn::BitCast(du16, hn::IfThenElse(is_nan, hn::Or(self16, hn::Set(di16, 0x0200)), results));
}
#else
#define ACLCPU_HARDSIGMOID_F16_SCALED 0
#endif

// Whether this target has a kernel above for a full vector of Type's 16-bit
// bits, and that kernel: what the contiguous runs and the transposed blocks
// both use.
template <class Type>
constexpr bool kHasFullVectorOfHalves = (std::is_same_v<Type, Bf16> && ACLCPU_SIMD_HAS_BF16_PAIRS) ||
                                        (std::is_same_v<Type, F16> && ACLCPU_HARDSIGMOID_F16_SCALED);

template <class Type, bool kWithBf16Instruction = false, class DU16>
HWY_INLINE hn::Vec<DU16> HardsigmoidFullVectorOfHalves(DU16 du16, hn::Vec<DU16> bits) {
  static_assert(kHasFullVectorOfHalves<Type>, "no full-vector kernel for this type on this target");
#if ACLCPU_SIMD_HAS_BF16_PAIRS
  if constexpr (std::is_same_v<Type, Bf16>) return HardsigmoidBf16Pair<kWithBf16Instruction>(du16, bits);
#endif
#if ACLCPU_HARDSIGMOID_F16_SCALED
  if constexpr (std::is_same_v<Type, F16>) return HardsigmoidF16Scaled(du16, bits);
#endif
  return bits;  // unreachable: the static_assert above
}

// The vector of results the contiguous loops store and the streaming loop
// streams: the results of self's elements at s .. s + Lanes(D) - 1, by the
// definition's arithmetic, in D's lanes (float, int32_t, or the 16-bit bits).
// 32-bit types: a full vector. bf16 on x86: a full vector of bits, its even and
// odd lanes computed in place (HardsigmoidBf16Pair): no lane-crossing
// zero-extension or pack-and-permute per half vector; f16 on x86 without
// F16C, the same (HardsigmoidF16Scaled). f16 with F16C, and bf16 elsewhere:
// the bits of one float32 vector, half a vector (a whole one would cost an
// extract and an insert with F16C; the even/odd kernels above are x86-only,
// see RoundResultToSignificantBits; non-temporal stores of half vectors still
// fill whole lines, in order).
template <class Type>
struct DefinitionVectors {
  using D = std::conditional_t<sizeof(typename Type::Storage) == 4 || kHasFullVectorOfHalves<Type>,
                               hn::ScalableTag<typename Type::Storage>, hn::Rebind<uint16_t, hn::ScalableTag<float>>>;
  static HWY_INLINE hn::Vec<D> At(const typename Type::Storage* s) {
    const D d;
    if constexpr (std::is_same_v<Type, I32>) {
      // 1 where self >= 3 (scalar_kernel.h), else 0: one compare and a select.
      return hn::IfThenElseZero(hn::Gt(hn::LoadU(d, s), hn::Set(d, kFirstIntegerAtOne - 1)), hn::Set(d, 1));
    } else if constexpr (std::is_same_v<Type, F32>) {
      return HardsigmoidVector<Type>(d, hn::LoadU(d, s));
    } else if constexpr (kHasFullVectorOfHalves<Type>) {
      return HardsigmoidFullVectorOfHalves<Type>(d, hn::LoadU(d, s));
    } else {
      const hn::ScalableTag<float> df;
      return shared::VectorIo<Type>::Narrow(df, HardsigmoidVector<Type>(df, shared::VectorIo<Type>::Load(df, s)));
    }
  }
};

// A contiguous run: full vectors, then the scalar tail.
template <class Type>
void ContiguousRun(const typename Type::Storage* s, typename Type::Storage* o, int64_t count) {
  using Vectors = DefinitionVectors<Type>;
  using D = typename Vectors::D;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(D()));
  int64_t i = 0;
  if constexpr (std::is_same_v<Type, F32>) {
    // Pairs of vectors, the second shifted on the multiply pipes
    // (HardsigmoidVector).
    const D d;
    i = shared::ForEachFullVector(i, count, 2 * lanes, [&](int64_t at) {
      hn::StoreU(Vectors::At(s + at), d, o + at);
      hn::StoreU(HardsigmoidVector<Type, /*kShiftByMultiplyAdd=*/true>(d, hn::LoadU(d, s + at + lanes)), d,
                 o + at + lanes);
    });
  }
  i = shared::ForEachFullVector(i, count, lanes, [&](int64_t at) { hn::StoreU(Vectors::At(s + at), D(), o + at); });
  if constexpr (kHasFullVectorOfHalves<Type>) {
    // What is left, by float32 vectors.
    const hn::ScalableTag<float> df;
    i = shared::ForEachFullVector(i, count, static_cast<int64_t>(hn::Lanes(df)), [&](int64_t at) {
      shared::VectorIo<Type>::Store(df, HardsigmoidVector<Type>(df, shared::VectorIo<Type>::Load(df, s + at)),
                                    o + at);
    });
  }
  ScalarRun<Type>(s + i, 1, o + i, 1, count - i);
}

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// The avx512_bf16 target's bf16 runs: HardsigmoidBf16Pair narrowed by
// VCVTNE2PS2BF16 (above).
HWY_INLINE hn::Vec512<uint16_t> Bf16InstructionVector(const uint16_t* s) {
  const hn::Full512<uint16_t> d16;
  return HardsigmoidBf16Pair</*kWithInstruction=*/true>(d16, hn::LoadU(d16, s));
}

inline void ContiguousBf16RunWithBf16Instructions(const uint16_t* s, uint16_t* o, int64_t count) {
  const hn::ScalableTag<uint16_t> d16;
  const int64_t i =
      shared::ForEachFullVector(int64_t{0}, count, static_cast<int64_t>(hn::Lanes(d16)),
                                [&](int64_t at) { hn::StoreU(Bf16InstructionVector(s + at), d16, o + at); });
  ContiguousRun<Bf16>(s + i, o + i, count - i);
}

// Streamed from registers (shared::StreamVectors).
inline void StreamingBf16RunWithBf16Instructions(const uint16_t* s, uint16_t* o, int64_t count) {
  shared::StreamVectors(
      hn::ScalableTag<uint16_t>(), o, count, [s](int64_t i) { return Bf16InstructionVector(s + i); },
      [s, o](int64_t start, int64_t length) { ContiguousBf16RunWithBf16Instructions(s + start, o + start, length); });
}
#endif

// The contiguous runs a kernel uses: ContiguousRun and ContiguousStreamingRun
// (below), or a target's own pair for one dtype (above).
template <class Type>
using ContiguousRunFn = void (*)(const typename Type::Storage*, typename Type::Storage*, int64_t);

template <class Type, ContiguousRunFn<Type> kContiguousRun = &ContiguousRun<Type>>
void VectorRun(const void* self, int64_t self_stride, void* out, int64_t out_stride, int64_t count) {
  using T = typename Type::Storage;
  if (self_stride == 1 && out_stride == 1) {
    kContiguousRun(static_cast<const T*>(self), static_cast<T*>(out), count);
    return;
  }
  // In place through a strided view (self is out): each block is gathered into
  // scratch before any of its elements is written, so the answer is the same.
  shared::StridedInput<Type> s(static_cast<const T*>(self), self_stride);
  shared::ForEachStridedBlock<Type>(static_cast<T*>(out), out_stride, count,
                            [&](int64_t start, int64_t length, bool more_follow, T* o) {
                              kContiguousRun(s.Block(start, length, more_follow), o, length);
                            });
}

// The definition's vectors streamed from registers (shared::StreamVectors).
template <class Type>
void ContiguousStreamingRun(const typename Type::Storage* s, typename Type::Storage* o, int64_t count) {
  shared::StreamVectors(
      typename DefinitionVectors<Type>::D(), o, count, [s](int64_t i) { return DefinitionVectors<Type>::At(s + i); },
      [s, o](int64_t start, int64_t length) { ContiguousRun<Type>(s + start, o + start, length); });
}

// Non-temporal stores for contiguous runs of outputs far beyond the last-level
// cache (one dense run, or rows: ElementwiseGeometry::WorthStreamingRuns);
// other runs take VectorRun.
template <class Type, ContiguousRunFn<Type> kContiguousRun = &ContiguousRun<Type>,
          ContiguousRunFn<Type> kStreamingRun = &ContiguousStreamingRun<Type>>
void StreamingRun(const void* self, int64_t self_stride, void* out, int64_t out_stride, int64_t count) {
  using T = typename Type::Storage;
  if (self_stride != 1 || out_stride != 1) {
    VectorRun<Type, kContiguousRun>(self, self_stride, out, out_stride, count);
    return;
  }
  kStreamingRun(static_cast<const T*>(self), static_cast<T*>(out), count);
}

// The forward op on a transposed plane's 16-bit values, for the shared block
// that computes on self's own bits as its rows are loaded and transposes the
// results (shared::SharedTileBlockOfInputHalves): the same float32 arithmetic
// and rounding as every other path, lane by lane. f16 and bf16 4096^2
// forward, AMD Zen 5 VM: see that function.
template <class Type, bool kWithBf16Instruction = false>
struct HardsigmoidOnHalves {
  template <class DU16>
  hn::Vec<DU16> Vector(DU16 du16, hn::Vec<DU16> bits) const {
    if constexpr (kHasFullVectorOfHalves<Type>) {
      return HardsigmoidFullVectorOfHalves<Type, kWithBf16Instruction>(du16, bits);
    } else {
      const hn::Repartition<float, DU16> df;
      return shared::VectorIo<Type>::MapFullVector(
          du16, bits, [df](hn::Vec<decltype(df)> self) { return HardsigmoidVector<Type>(df, self); });
    }
  }
};

// Two-dimensional blocks, for transposed views (self contiguous along dim 1,
// out along dim 0), called once per plane by the executor: the shared block
// walk (ops/shared/simd/transposed_tiles-inl.h) with this operator's rows. A
// block row holds the float32 results; for INT32, the int32 results' bits (0
// or 1), which the block moves unchanged. f16 and bf16 vector blocks compute
// on self's loaded rows instead (HardsigmoidOnHalves), rounding once to
// self's type (as ContiguousRun does), so compute_row serves FLOAT and INT32
// only.
template <class Type, class OnHalves = HardsigmoidOnHalves<Type>>
void TileRun(const void* self, int64_t self_stride0, int64_t self_stride1, void* out, int64_t out_stride0,
             int64_t out_stride1, int64_t size0, int64_t size1, bool stream) {
  using T = typename Type::Storage;
  const shared::SharedTileInput inputs[1] = {{self, self_stride0, self_stride1, int64_t{sizeof(T)}}};
  auto compute_row = [](auto rows, float* b_row, int64_t cols) {
    const T* s_row = reinterpret_cast<const T*>(rows[0]);
    if constexpr (std::is_same_v<Type, I32>) {
      int64_t j = 0;
      const hn::ScalableTag<int32_t> di;
      const hn::RebindToFloat<decltype(di)> df;
      const int64_t lanes = static_cast<int64_t>(hn::Lanes(di));
      const auto below_one = hn::Set(di, kFirstIntegerAtOne - 1);
      const auto one = hn::Set(di, 1);
      for (; j + lanes <= cols; j += lanes) {
        hn::Store(hn::BitCast(df, hn::IfThenElseZero(hn::Gt(hn::LoadU(di, s_row + j), below_one), one)), df,
                  b_row + j);
      }
      for (; j < cols; ++j) {
        const int32_t result = HardsigmoidI32(s_row[j]);
        std::memcpy(b_row + j, &result, sizeof(result));
      }
    } else if constexpr (std::is_same_v<Type, F32>) {
      ContiguousRun<Type>(s_row, b_row, cols);  // the float32 scratch is out's own type
    } else {
      static_assert(sizeof(decltype(rows)) == 0, "16-bit blocks compute on their halves (HardsigmoidOnHalves)");
    }
  };
  auto run_row = [&](auto starts, T* dst, int64_t cols) { VectorRun<Type>(starts[0], self_stride1, dst, 1, cols); };
  if constexpr (sizeof(T) == sizeof(uint16_t)) {
    shared::RunSharedTransposedPlane<Type>(inputs, static_cast<T*>(out), out_stride0, out_stride1, size0, size1,
                                           stream, compute_row, run_row, OnHalves());
  } else {
    shared::RunSharedTransposedPlane<Type>(inputs, static_cast<T*>(out), out_stride0, out_stride1, size0, size1,
                                           stream, compute_row, run_row);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
