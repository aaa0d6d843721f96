// aclcpu: the avx512_bf16 target's float32 -> bf16 narrowing instruction,
// VCVTNE2PS2BF16, for code compiled for Highway's AVX-512 target.
//
// Why inline assembly and not the intrinsic: _mm512_cvtne2ps_pbh compiles only
// in a function whose target attribute includes AVX512_BF16, and a function
// without it cannot inline one with it. The shared loops (ForEachFullVector,
// StreamVectors in ops/shared/simd/element_io-inl.h) call the vector function
// from lambdas of their own, compiled for Highway's AVX-512 target, so an
// attributed vector function stayed a call per vector there, and each operator
// had written out its own loops instead. The assembler takes the instruction
// whatever the compiler's target; only CPUs with the avx512_bf16 target
// (simd/targets.h: AVX512_BF16 checked at run time) ever run it.
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_SIMD_BF16_INSTRUCTION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_SIMD_BF16_INSTRUCTION_INL_H_
#undef ACLCPU_SIMD_BF16_INSTRUCTION_INL_H_
#else
#define ACLCPU_SIMD_BF16_INSTRUCTION_INL_H_
#endif

#include "hwy/highway.h"
#include "simd/targets.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// 32 bf16 of two vectors of 16 float32: `lower` becomes the first 16 words,
// `upper` the last 16, each rounded to nearest even, a NaN quieted with its
// sign and top payload bits kept. Subnormal inputs are taken for zero (the
// instruction's rule; callers say why none of theirs is one, or test for it).
HWY_INLINE hn::Vec512<uint16_t> NarrowPairToBf16WithInstruction(hn::Vec512<float> lower, hn::Vec512<float> upper) {
  __m512i packed;
  // AT&T operand order: the second source, the first, then the destination.
  // Intel's `VCVTNE2PS2BF16 dst, first, second` puts `second` in dst's lower half.
  __asm__("vcvtne2ps2bf16 %[lower], %[upper], %[packed]"
          : [packed] "=v"(packed)
          : [upper] "v"(upper.raw), [lower] "v"(lower.raw));
  return hn::Vec512<uint16_t>{packed};
}
#endif

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
