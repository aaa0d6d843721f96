// aclcpu: the vector kernels of float16 gradients, for every SIMD target (see
// kernels-inl.h; one translation unit per grad dtype), and the all-f16 kernel
// of the avx512_fp16 target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid_backward/simd/grad_f16.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/simd/kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {
ACLCPU_DEFINE_KERNELS_FOR_GRAD(F16)

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET
// The all-f16 kernel of the avx512_fp16 target (simd/targets.h), computing in
// float16 lanes, 32 a vector, with no conversion at all. The reference result
// inside the window is f16(f32(g * f32(1/6))), two roundings. Why the float16
// quotient g / 6, rounded once to nearest even, is the same value for every
// finite g:
// - Normal results: g = m * 2^e with an 11-bit integer m, so g / 6 = (m / 3) *
//   2^(e-1), which is either exact or a third of a unit away from an f16
//   rounding point, never within a sixth of an ulp of a midpoint. g * f32(1/6)
//   differs from g / 6 by about 2^-25 relative, far less, so both round to the
//   same float16, and its float32 rounding cannot land on a midpoint either.
// - Subnormal results (|g / 6| < 2^-14): g = k * 2^-24 (k < 6144) and g / 6 is
//   k / 6 units of 2^-24, a sixth of a unit or more from a midpoint, where
//   g * f32(1/6), under 2^-15 units away, rounds the same way; except for
//   k = 3 mod 6, exactly a midpoint: g * f32(1/6) is above it by less than half
//   a float32 ulp, so its float32 rounding is the midpoint itself and the
//   second rounding goes to even, as g / 6 does.
// The quotient is computed with a multiply and two FMAs, every step rounded to
// nearest even explicitly (independent of MXCSR): q0 = g * y with y = f16(1/6);
// the remainder r = 6 * q0 - g, exact; q = q0 - r * y. Away from midpoints this
// is the correctly rounded quotient. At the midpoints of subnormal results it
// may round the wrong way, so a vector with any subnormal result, and any NaN
// (also what an infinite g gives: 6 * inf - inf), is left to SameHalfTypeRun's
// exact conversions. -0 stays -0: r is +0 and q = -0 - (+0) * y = -0.
// All 65,536 grads are checked on this path alone (simd_kernel_test.cc).
// Kernel alone, one core, 64K elements (an Intel Xeon VM with AVX512_FP16,
// one bench run): 83 GB/s capped to avx512_bf16, 102 here; the roofline 108.
#define ACLCPU_AVX512_FP16_ATTR __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,avx512fp16")))

ACLCPU_AVX512_FP16_ATTR void SameF16RunWithFp16Instructions(const uint16_t* g, const uint16_t* s, uint16_t* o,
                                                             int64_t count) {
  constexpr int64_t kLanes16 = 32;
  constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  constexpr int kNanOrSubnormal = 0x01 | 0x80 | 0x20;  // VFPCLASSPH: quiet NaN, signalling NaN, denormal
  const __m512i magnitude_bits = _mm512_set1_epi16(0x7FFF);
  const __m512i window_bits = _mm512_set1_epi16(static_cast<int16_t>(WindowBits<F16>::kValue));
  const __m512h one_sixth = _mm512_set1_ph(static_cast<_Float16>(kOneSixth));
  const __m512h six = _mm512_set1_ph(static_cast<_Float16>(6.0f));
  int64_t i = 0;
  for (; i + kLanes16 <= count; i += kLanes16) {
    const __m512h grad = _mm512_castsi512_ph(_mm512_loadu_si512(g + i));
    const __m512i self_bits = _mm512_loadu_si512(s + i);
    const __mmask32 inside = _mm512_cmplt_epu16_mask(_mm512_and_si512(self_bits, magnitude_bits), window_bits);
    const __m512h q0 = _mm512_mul_round_ph(grad, one_sixth, kNearest);
    const __m512h remainder = _mm512_fmsub_round_ph(q0, six, grad, kNearest);
    const __m512h quotient = _mm512_maskz_fnmadd_round_ph(inside, remainder, one_sixth, q0, kNearest);
    if (HWY_UNLIKELY(_mm512_fpclass_ph_mask(quotient, kNanOrSubnormal) != 0)) {
      SameHalfTypeRun<F16>(g + i, s + i, o + i, kLanes16);
      continue;
    }
    _mm512_storeu_si512(o + i, _mm512_castph_si512(quotient));
  }
  ContiguousRun<F16, F16, F16, F16>(g + i, s + i, o + i, count - i);
}

void VectorRunWithFp16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                   void* out, int64_t out_stride, int64_t count) {
  if (grad_stride == 1 && self_stride == 1 && out_stride == 1) {
    SameF16RunWithFp16Instructions(static_cast<const uint16_t*>(grad), static_cast<const uint16_t*>(self),
                                   static_cast<uint16_t*>(out), count);
    return;
  }
  VectorRun<F16, F16, F16, F16>(grad, grad_stride, self, self_stride, out, out_stride, count);
}

// Streamed out through blocks in L1 (StreamingThroughBlockRun: the other
// targets stream from registers, a form this one has not been tested in).
void StreamingRunWithFp16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                      void* out, int64_t out_stride, int64_t count) {
  StreamingThroughBlockRun<F16, F16, F16, F16, &VectorRunWithFp16Instructions>(grad, grad_stride, self,
                                                                                self_stride, out, out_stride, count);
}
#endif  // HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid_backward
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();
