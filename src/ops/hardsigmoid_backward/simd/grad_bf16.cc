// aclcpu: the vector kernels of bfloat16 gradients, for every SIMD target (see
// kernels-inl.h; one translation unit per grad dtype), and the all-bf16 kernel
// of the avx512_bf16 target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid_backward/simd/grad_bf16.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/simd/kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {
ACLCPU_DEFINE_KERNELS_FOR_GRAD(Bf16)

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// The all-bf16 kernel of the avx512_bf16 target (simd/targets.h): the exact
// integer narrowing is most of SameHalfTypeRun's work for bf16, and
// VCVTNE2PS2BF16 does it in one instruction for two vectors, rounding to
// nearest even and quieting NaNs as our conversion does. But it treats
// subnormal inputs as zero (the pitfall of using it naively): a vector with any
// subnormal product (bf16 has float32's exponent range, so only a subnormal
// float32 can give a subnormal bf16) is left to SameHalfTypeRun.
// Lanes: a vector of 32 bf16 is read as 16 float32 lanes of its even elements
// (shifted up) and 16 of its odd ones (already the upper halves); the
// instruction packs them as [even | odd], and one word permute, zeroing the
// lanes outside the window, restores the element order.
// Kernel alone, one core, 64K-1M elements: 55-56 -> 91-92 GB/s (0.82-0.95x the
// ordinary-store roofline; PyTorch 25-27 GB/s) on Zen 4.
// On an Intel Xeon with AVX-512 (Sapphire Rapids class) it is bound by its own
// instructions at 64K: per 32 elements, 12 vector uops on the two ports that run
// 512-bit work (the window test 2, splitting the grads 2, the multiplies 2, the
// subnormal check 3, the narrowing 2, the permute 1) take ~6 cycles where the
// L2 moves the 192 bytes in ~4 (the roofline loop): ~0.7x the roofline, and the
// same on data in L1 (bench/README.md). The integer rounding, or a mantissa
// table, costs as many uops; no exact formulation with fewer is known to us.
#define ACLCPU_AVX512_BF16_ATTR __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,avx512bf16")))

ACLCPU_AVX512_BF16_ATTR void SameBf16RunWithBf16Instructions(const uint16_t* g, const uint16_t* s, uint16_t* o,
                                                              int64_t count) {
  constexpr int64_t kLanes16 = 32;
  // Result word k is element k: packed word k / 2 (even k) or 16 + k / 2 (odd).
  alignas(64) static constexpr uint16_t kInterleave[kLanes16] = {0,  16, 1,  17, 2,  18, 3,  19, 4,  20, 5,
                                                                 21, 6,  22, 7,  23, 8,  24, 9,  25, 10, 26,
                                                                 11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
  const __m512i interleave = _mm512_load_si512(kInterleave);
  const __m512i magnitude_bits = _mm512_set1_epi16(0x7FFF);
  const __m512i window_bits = _mm512_set1_epi16(static_cast<int16_t>(Bf16::kWindowBits));
  const __m512i upper_halves = _mm512_set1_epi32(static_cast<int32_t>(0xFFFF0000u));
  const __m512 one_sixth = _mm512_set1_ps(kOneSixth);
  constexpr int kDenormal = 0x20;  // VFPCLASSPS category bit
  int64_t i = 0;
  for (; i + kLanes16 <= count; i += kLanes16) {
    const __m512i grad_bits = _mm512_loadu_si512(g + i);
    const __m512i self_bits = _mm512_loadu_si512(s + i);
    const __mmask32 inside = _mm512_cmplt_epi16_mask(_mm512_and_si512(self_bits, magnitude_bits), window_bits);
    const __m512 even = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_slli_epi32(grad_bits, 16)), one_sixth);
    const __m512 odd = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_and_si512(grad_bits, upper_halves)), one_sixth);
    // KORTEST tests both masks in one instruction; OR-ing them as integers
    // took two mask-to-register moves on the two vector ports this loop is
    // bound by (a copy of this loop, 64K, one core, interleaved runs: 69 ->
    // 72 GB/s).
    if (HWY_UNLIKELY(!_kortestz_mask16_u8(_mm512_fpclass_ps_mask(even, kDenormal),
                                          _mm512_fpclass_ps_mask(odd, kDenormal)))) {
      SameHalfTypeRun<Bf16>(g + i, s + i, o + i, kLanes16);
      continue;
    }
    const __m512i packed = reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(odd, even));
    _mm512_storeu_si512(o + i, _mm512_maskz_permutexvar_epi16(inside, interleave, packed));
  }
  ContiguousRun<Bf16, Bf16, Bf16, Bf16>(g + i, s + i, o + i, count - i);
}

void VectorRunWithBf16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                   void* out, int64_t out_stride, int64_t count) {
  if (grad_stride == 1 && self_stride == 1 && out_stride == 1) {
    SameBf16RunWithBf16Instructions(static_cast<const uint16_t*>(grad), static_cast<const uint16_t*>(self),
                                    static_cast<uint16_t*>(out), count);
    return;
  }
  VectorRun<Bf16, Bf16, Bf16, Bf16>(grad, grad_stride, self, self_stride, out, out_stride, count);
}

// Streamed out through blocks in L1, like the other 16-bit outputs.
void StreamingRunWithBf16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                      void* out, int64_t out_stride, int64_t count) {
  StreamingThroughBlockRun<Bf16, Bf16, Bf16, &VectorRunWithBf16Instructions>(grad, grad_stride, self, self_stride,
                                                                             out, out_stride, count);
}
#endif  // HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid_backward
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();
