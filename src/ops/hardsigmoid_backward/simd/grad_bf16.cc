// aclcpu: the vector kernels of bfloat16 gradients, for every SIMD target (see
// kernels-inl.h; one translation unit per grad dtype), and the all-bf16 kernels
// of the avx512_bf16 and avx512_fp16 targets.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid_backward/simd/grad_bf16.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/simd/kernels-inl.h"
#include "simd/bf16_instruction-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {
ACLCPU_DEFINE_KERNELS_FOR_GRAD(Bf16)

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// The all-bf16 kernel of the avx512_bf16 target (simd/targets.h): the exact
// integer narrowing is most of SameHalfTypeRun's work for bf16, and
// VCVTNE2PS2BF16 (simd/bf16_instruction-inl.h) does it in one instruction for
// two vectors, rounding to nearest even and quieting NaNs as our conversion
// does. But it treats subnormal inputs as zero (the pitfall of using it
// naively): a vector with any subnormal product (bf16 has float32's exponent
// range, so only a subnormal float32 can give a subnormal bf16) takes
// SameHalfTypeVector's arithmetic.
// Lanes: a vector of 32 bf16 is read as 16 float32 lanes of its even elements
// (shifted up) and 16 of its odd ones (already the upper halves); the
// instruction packs them as [even | odd], and one word permute, zeroing the
// lanes outside the window, restores the element order.
// Kernel alone, one core, 64K-1M elements: 55-56 -> 91-92 GB/s (0.82-0.95x the
// ordinary-store roofline; PyTorch 25-27 GB/s) on Zen 4.
// On a Sapphire Rapids class Xeon it is bound by its own instructions, ~0.7x the
// roofline at 64K and the same on data in L1: there VCVTNE2PS2BF16 costs ~4
// vector uops and the word permute 2 (measured), ~15 per 32 elements on the two
// ports that run 512-bit work. Those CPUs have the avx512_fp16 target, whose
// all-bf16 kernel (below) uses neither.
using aclcpu::HWY_NAMESPACE::NarrowPairToBf16WithInstruction;

HWY_INLINE hn::Vec512<uint16_t> SameBf16VectorWithBf16Instructions(const uint16_t* g, const uint16_t* s) {
  // Result word k is element k: packed word k / 2 (even k) or 16 + k / 2 (odd).
  alignas(64) static constexpr uint16_t kInterleave[32] = {0,  16, 1,  17, 2,  18, 3,  19, 4,  20, 5,
                                                           21, 6,  22, 7,  23, 8,  24, 9,  25, 10, 26,
                                                           11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
  const __m512 one_sixth = _mm512_set1_ps(kOneSixth);
  constexpr int kDenormal = 0x20;  // VFPCLASSPS category bit
  const __m512i grad_bits = _mm512_loadu_si512(g);
  const __m512i self_bits = _mm512_loadu_si512(s);
  const __mmask32 inside = _mm512_cmplt_epi16_mask(_mm512_and_si512(self_bits, _mm512_set1_epi16(0x7FFF)),
                                                   _mm512_set1_epi16(static_cast<int16_t>(WindowBits<Bf16>::kValue)));
  const __m512 even = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_slli_epi32(grad_bits, 16)), one_sixth);
  const __m512 odd = _mm512_mul_ps(
      _mm512_castsi512_ps(_mm512_and_si512(grad_bits, _mm512_set1_epi32(static_cast<int32_t>(0xFFFF0000u)))),
      one_sixth);
  // KORTEST tests both masks in one instruction; OR-ing them as integers
  // took two mask-to-register moves on the two vector ports this loop is
  // bound by (a copy of this loop, 64K, one core, interleaved runs: 69 ->
  // 72 GB/s).
  if (HWY_UNLIKELY(!_kortestz_mask16_u8(_mm512_fpclass_ps_mask(even, kDenormal),
                                        _mm512_fpclass_ps_mask(odd, kDenormal)))) {
    return SameHalfTypeVector<Bf16>(g, s);
  }
  const __m512i packed = NarrowPairToBf16WithInstruction(hn::Vec512<float>{even}, hn::Vec512<float>{odd}).raw;
  return hn::Vec512<uint16_t>{_mm512_maskz_permutexvar_epi16(inside, _mm512_load_si512(kInterleave), packed)};
}

// One vector a step. Unrolled four vectors a step (ForEachFullVector), with
// four subnormal tests and their branches, this loop took longer through the
// API (one core, AMD Zen 5 VM, alternated libraries: 1K 123-211 against
// 101-111 ns, 1M 81-118 against 72-76 us). The streaming loop is unrolled
// (StreamVectors) and level with this one's old streaming copy at 16M.
void SameBf16RunWithBf16Instructions(const uint16_t* g, const uint16_t* s, uint16_t* o, int64_t count) {
  const hn::ScalableTag<uint16_t> d16;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d16));
  int64_t i = 0;
  for (; i + lanes <= count; i += lanes) hn::StoreU(SameBf16VectorWithBf16Instructions(g + i, s + i), d16, o + i);
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

// Streamed from registers (StreamVectors); other layouts as StreamingRun takes them.
void SameBf16StreamingRunWithBf16Instructions(const uint16_t* g, const uint16_t* s, uint16_t* o, int64_t count) {
  StreamVectors(
      hn::ScalableTag<uint16_t>(), o, count,
      [g, s](int64_t i) { return SameBf16VectorWithBf16Instructions(g + i, s + i); },
      [g, s, o](int64_t start, int64_t length) {
        SameBf16RunWithBf16Instructions(g + start, s + start, o + start, length);
      });
}

void StreamingRunWithBf16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                      void* out, int64_t out_stride, int64_t count) {
  if (grad_stride == 1 && self_stride == 1 && out_stride == 1) {
    SameBf16StreamingRunWithBf16Instructions(static_cast<const uint16_t*>(grad), static_cast<const uint16_t*>(self),
                                             static_cast<uint16_t*>(out), count);
    return;
  }
  StreamingRun<Bf16, Bf16, Bf16, Bf16>(grad, grad_stride, self, self_stride, out, out_stride, count);
}
#endif  // HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET
// The all-bf16 kernel of the avx512_fp16 target: no float32 at all, the result
// is the grad's own bits minus a number read from a table.
// Why that is exact: write a grad as 1.m * 2^E (m its 7 mantissa bits). Its
// reference result, bf16(f32(grad * f32(1/6))), is the one of 1.m times 2^E
// whenever that is a normal number: scaling by a power of two scales the exact
// product, and both roundings (to float32, then to bf16) are relative to the
// value's own exponent. Adding E to a normal number's exponent adds E * 128 to
// its bf16 bits, for the grad and the result alike, so grad bits - result bits
// depends on m alone: 256 (two exponent steps) plus kBelowGrad[m], from 64 to 85,
// computed at compile time from the scalar definition at grad 1.m. Two unsigned
// saturating subtractions apply it; a carry between mantissa and exponent is
// ordinary borrowing, and the sign bit is untouched.
// Where it holds: every finite grad with an exponent field of 4 or more (the
// result is normal, and smaller than the grad, so never overflows) except -0,
// which would borrow from its sign. One VFPCLASSPH on the bf16 bits read as
// float16 finds the rest, and a few more: its "denormal" category is bits
// 0x0001-0x03FF (bf16 exponent fields below 8), its "quiet NaN" magnitudes
// 0x7E00 and up (bf16 2^125 and up: huge, infinite, NaN), and "-0" is 0x8000 in
// both formats. A vector with any of them in a lane inside the window is left to
// SameHalfTypeRun. +0 stays: both subtractions saturate at 0, the reference's
// +0 * (1/6). VFPCLASS ignores MXCSR.DAZ (checked), and the table does not
// depend on the rounding mode at run time.
// The lookup is a two-register byte permute (VPERMT2B) indexed by each word's
// low byte, of which it reads 7 bits: m exactly, without the exponent's lowest
// bit; the high bytes are zeroed.
// Why: on a Sapphire Rapids class Xeon VCVTNE2PS2BF16 costs ~4 vector uops
// (measured: one per ~2.1 cycles), so the avx512_bf16 kernel issues ~15 per 32
// elements; this one 8 (the window 2, the category test 1 and its KORTEST 1,
// the lookup 2, the subtractions 2). A copy of both loops, interleaved in one
// process, one core: 4K elements (in L1) 76 -> 119 GB/s, 64K 70 -> 93 GB/s
// (the roofline 96).
// All 65,536 grads are checked on this path alone (simd_kernel_test.cc).
constexpr int kMantissaValues = 128;

// grad 1.m's bits - 256 - its result's bits (a normal float32 product, so the
// scalar definition's rounding is NonNanFloatBitsToBf16).
constexpr int BelowGrad(int mantissa) {
  const uint32_t grad_bits = 0x3F80u | static_cast<uint32_t>(mantissa);
  const float product = __builtin_bit_cast(float, grad_bits << 16) * kOneSixth;
  return static_cast<int>(grad_bits) - 256 - NonNanFloatBitsToBf16(__builtin_bit_cast(uint32_t, product));
}

struct BelowGradTable {
  alignas(64) uint8_t bytes[kMantissaValues];
};

constexpr BelowGradTable MakeBelowGradTable() {
  BelowGradTable table{};
  for (int m = 0; m < kMantissaValues; ++m) table.bytes[m] = static_cast<uint8_t>(BelowGrad(m));
  return table;
}

constexpr bool EveryBelowGradFitsAByte() {
  for (int m = 0; m < kMantissaValues; ++m) {
    if (BelowGrad(m) < 0 || BelowGrad(m) > 255) return false;
  }
  return true;
}
static_assert(EveryBelowGradFitsAByte(), "the table is bytes");

constexpr BelowGradTable kBelowGrad = MakeBelowGradTable();

#define ACLCPU_AVX512_FP16_VBMI_ATTR \
  __attribute__((target("avx512f,avx512vl,avx512dq,avx512bw,avx512vbmi,avx512fp16")))

// Runs whole vectors from element `begin` up to the first with a grad off the
// table, or the end; returns where it stopped. A loop of its own, so that the
// call to the exact path is outside it (around a call the compiler rebuilt the
// constants in every iteration: two more uops on the busiest port).
ACLCPU_AVX512_FP16_VBMI_ATTR int64_t RunUntilOffTable(const uint16_t* g, const uint16_t* s, uint16_t* o,
                                                      int64_t begin, int64_t count) {
  constexpr int64_t kLanes16 = 32;
  // VFPCLASSPH categories: quiet NaN, -0, denormal.
  constexpr int kGradsOffTheTable = 0x01 | 0x04 | 0x20;
  constexpr __mmask64 kLowBytes = 0x5555555555555555ull;
  const __m512i below_low = _mm512_load_si512(kBelowGrad.bytes);
  const __m512i below_high = _mm512_load_si512(kBelowGrad.bytes + 64);
  const __m512i two_exponent_steps = _mm512_set1_epi16(256);
  const __m512i magnitude_bits = _mm512_set1_epi16(0x7FFF);
  const __m512i window_bits = _mm512_set1_epi16(static_cast<int16_t>(WindowBits<Bf16>::kValue));
  int64_t i = begin;
  for (; i + kLanes16 <= count; i += kLanes16) {
    const __m512i grad_bits = _mm512_loadu_si512(g + i);
    const __m512i self_bits = _mm512_loadu_si512(s + i);
    const __mmask32 inside = _mm512_cmplt_epu16_mask(_mm512_and_si512(self_bits, magnitude_bits), window_bits);
    const __mmask32 off_table =
        _mm512_mask_fpclass_ph_mask(inside, _mm512_castsi512_ph(grad_bits), kGradsOffTheTable);
    if (HWY_UNLIKELY(!_kortestz_mask32_u8(off_table, off_table))) break;
    const __m512i below = _mm512_maskz_permutex2var_epi8(kLowBytes, below_low, grad_bits, below_high);
    const __m512i result =
        _mm512_maskz_subs_epu16(inside, _mm512_subs_epu16(grad_bits, two_exponent_steps), below);
    _mm512_storeu_si512(o + i, result);
  }
  return i;
}

void SameBf16RunWithMantissaTable(const uint16_t* g, const uint16_t* s, uint16_t* o, int64_t count) {
  constexpr int64_t kLanes16 = 32;
  int64_t i = 0;
  while ((i = RunUntilOffTable(g, s, o, i, count)) + kLanes16 <= count) {
    SameHalfTypeRun<Bf16>(g + i, s + i, o + i, kLanes16);
    i += kLanes16;
  }
  ContiguousRun<Bf16, Bf16, Bf16, Bf16>(g + i, s + i, o + i, count - i);
}

void VectorRunWithMantissaTable(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                void* out, int64_t out_stride, int64_t count) {
  if (grad_stride == 1 && self_stride == 1 && out_stride == 1) {
    SameBf16RunWithMantissaTable(static_cast<const uint16_t*>(grad), static_cast<const uint16_t*>(self),
                                 static_cast<uint16_t*>(out), count);
    return;
  }
  VectorRun<Bf16, Bf16, Bf16, Bf16>(grad, grad_stride, self, self_stride, out, out_stride, count);
}

// Streamed out through blocks in L1 (StreamingThroughBlockRun: the other
// targets stream from registers, a form this one has not been tested in).
void StreamingRunWithMantissaTable(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                   void* out, int64_t out_stride, int64_t count) {
  StreamingThroughBlockRun<Bf16, Bf16, Bf16, Bf16, &VectorRunWithMantissaTable>(grad, grad_stride, self,
                                                                                self_stride, out, out_stride, count);
}
#endif  // HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid_backward
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();
