// aclcpu: exact scalar conversions between float32 and the two 16-bit float
// formats (IEEE binary16 "f16" and bfloat16 "bf16").
//
// Why our own: Highway 1.0.3 truncates in f32->bf16 demotion and mishandles f16
// infinities, NaN and -0 on targets without F16C, and the golden reference
// (PyTorch) rounds to nearest, ties to even. These functions are the single scalar
// definition every vector path is tested against, bit for bit.
//
// NaN policy (the same for both formats): a NaN stays a NaN of the same sign; it
// is made quiet and keeps the top bits of its payload, which is what x86 F16C and
// the Arm FCVT instructions do. Subnormals are produced and consumed exactly
// (no flush-to-zero). Integer arithmetic only, so the result does not depend on
// the floating-point environment (rounding mode, FTZ/DAZ).
#ifndef ACLCPU_COMMON_FLOAT16_H_
#define ACLCPU_COMMON_FLOAT16_H_

#include <cstdint>
#include <cstring>

namespace aclcpu {

inline uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float BitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// binary16 -> binary32: exact for every input.
inline float HalfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1Fu;
  const uint32_t mantissa = half & 0x3FFu;
  if (exponent == 0x1Fu) {
    // Infinity keeps its bits; a NaN is quieted and keeps its payload.
    const uint32_t quiet = mantissa != 0 ? 0x00400000u : 0u;
    return BitsToFloat(sign | 0x7F800000u | quiet | (mantissa << 13));
  }
  if (exponent == 0) {
    if (mantissa == 0) return BitsToFloat(sign);
    // Subnormal: mantissa * 2^-24. Normalise by shifting the leading one up to
    // bit 10; each shift lowers the exponent by one.
    uint32_t m = mantissa;
    uint32_t e = 113;  // 127 - 14: the f32 exponent of 2^-14
    while ((m & 0x400u) == 0) {
      m <<= 1;
      --e;
    }
    return BitsToFloat(sign | (e << 23) | ((m & 0x3FFu) << 13));
  }
  return BitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

// binary32 -> binary16, round to nearest, ties to even; overflow gives infinity.
inline uint16_t FloatToHalf(float value) {
  const uint32_t bits = FloatBits(value);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) {  // NaN
    return static_cast<uint16_t>(sign | 0x7E00u | ((magnitude >> 13) & 0x3FFu));
  }
  if (magnitude >= 0x477FF000u) {  // >= 65520 (max half + half an ulp) and inf
    return static_cast<uint16_t>(sign | 0x7C00u);
  }
  if (magnitude >= 0x38800000u) {  // >= 2^-14: a normal half
    const uint32_t odd = (magnitude >> 13) & 1u;
    // Re-bias the exponent (127 -> 15) and round: add just under half an ulp,
    // plus one when the kept part is odd, so that exact ties go to even.
    const uint32_t rounded = magnitude - 0x38000000u + 0xFFFu + odd;
    return static_cast<uint16_t>(sign | (rounded >> 13));
  }
  if (magnitude <= 0x33000000u) {  // <= 2^-25: rounds to zero (2^-25 is a tie to even 0)
    return static_cast<uint16_t>(sign);
  }
  // A subnormal half: the value in units of 2^-24, rounded to nearest even.
  const uint32_t exponent = magnitude >> 23;  // 102..112
  const uint32_t mantissa = (magnitude & 0x7FFFFFu) | 0x800000u;
  const uint32_t shift = 126u - exponent;  // 14..24
  uint32_t result = mantissa >> shift;
  const uint32_t remainder = mantissa & ((1u << shift) - 1u);
  const uint32_t halfway = 1u << (shift - 1u);
  if (remainder > halfway || (remainder == halfway && (result & 1u))) ++result;
  return static_cast<uint16_t>(sign | result);
}

// bfloat16 -> binary32: exact (bfloat16 is the top half of a binary32).
inline float Bf16ToFloat(uint16_t bf16) { return BitsToFloat(static_cast<uint32_t>(bf16) << 16); }

// The bits of a binary32 that is not a NaN, rounded to bfloat16: to nearest, ties
// to even; overflow gives infinity. constexpr, for tables built at compile time.
constexpr uint16_t NonNanFloatBitsToBf16(uint32_t bits) {
  const uint32_t odd = (bits >> 16) & 1u;
  return static_cast<uint16_t>((bits + 0x7FFFu + odd) >> 16);
}

// binary32 -> bfloat16, round to nearest, ties to even; overflow gives infinity.
inline uint16_t FloatToBf16(float value) {
  const uint32_t bits = FloatBits(value);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {  // NaN: quiet it, keep sign and payload top
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  }
  return NonNanFloatBitsToBf16(bits);
}

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_FLOAT16_H_
