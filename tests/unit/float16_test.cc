// The scalar f16/bf16 conversions against an independent definition: the value
// the format can represent nearest to the input, computed in double (exact for
// these formats), ties to the even encoding. On x86 with F16C the f16 direction is
// also compared with the hardware instructions.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "common/float16.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace aclcpu {
namespace {

// Decodes a 16-bit float with `exponent_bits` and `mantissa_bits` into double,
// straight from the IEEE definition. NaN decodes to a quiet NaN.
double DecodeIeee(uint16_t bits, int exponent_bits, int mantissa_bits) {
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const bool negative = (bits >> 15) & 1;
  const int exponent = (bits >> mantissa_bits) & ((1 << exponent_bits) - 1);
  const int mantissa = bits & ((1 << mantissa_bits) - 1);
  double magnitude;
  if (exponent == (1 << exponent_bits) - 1) {
    magnitude = mantissa == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (exponent == 0) {
    magnitude = std::ldexp(mantissa, 1 - bias - mantissa_bits);
  } else {
    magnitude = std::ldexp(mantissa + (1 << mantissa_bits), exponent - bias - mantissa_bits);
  }
  return negative ? -magnitude : magnitude;
}

double DecodeHalf(uint16_t bits) { return DecodeIeee(bits, 5, 10); }
double DecodeBf16(uint16_t bits) { return DecodeIeee(bits, 8, 7); }

// The correctly rounded 16-bit encoding of a finite or infinite float: scan the
// two neighbours of the truncated candidate. `decode` maps encodings to values.
template <typename Decode>
uint16_t NearestEncoding(float value, Decode decode, uint16_t infinity_bits) {
  const double x = value;
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isinf(x)) return sign | infinity_bits;
  // Largest magnitude encoding not above |x| (binary search over the ordered
  // positive encodings 0 .. infinity).
  uint32_t lo = 0, hi = infinity_bits;
  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) / 2;
    if (decode(static_cast<uint16_t>(mid)) <= std::fabs(x)) lo = mid; else hi = mid - 1;
  }
  const double below = decode(static_cast<uint16_t>(lo));
  if (below == std::fabs(x) || lo == infinity_bits) return sign | lo;
  // The value above the largest finite one is "one more ulp" at the same spacing,
  // which decides rounding to infinity exactly as IEEE does.
  const double above = lo + 1 == infinity_bits ? below + (below - decode(static_cast<uint16_t>(lo - 1)))
                                               : decode(static_cast<uint16_t>(lo + 1));
  const double to_below = std::fabs(x) - below, to_above = above - std::fabs(x);
  const uint32_t chosen = to_below < to_above ? lo : to_above < to_below ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
  return sign | chosen;
}

// Inputs that stress rounding: every float whose low 16 bits sit at or around
// the rounding points of both formats, over all upper bit patterns, plus random ones.
std::vector<float> DenseFloatSweep() {
  std::vector<float> values;
  const uint32_t low_patterns[] = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000,
                                   0x7FFF, 0x8000, 0x8001, 0xFFFF, 0xE000, 0x3000, 0x5000};
  for (uint32_t high = 0; high < (1u << 16); ++high) {
    for (uint32_t low : low_patterns) values.push_back(BitsToFloat((high << 16) | low));
  }
  std::mt19937 random(12345);
  for (int i = 0; i < 1000000; ++i) values.push_back(BitsToFloat(static_cast<uint32_t>(random())));
  return values;
}

TEST(Float16, HalfToFloatIsExactForAll65536Inputs) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float widened = HalfToFloat(static_cast<uint16_t>(bits));
    const double expected = DecodeHalf(static_cast<uint16_t>(bits));
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(widened)) << std::hex << bits;
      // Quiet, same sign, payload kept in the top mantissa bits.
      EXPECT_EQ(FloatBits(widened), ((bits & 0x8000u) << 16) | 0x7FC00000u | ((bits & 0x3FFu) << 13)) << std::hex << bits;
    } else {
      ASSERT_EQ(static_cast<double>(widened), expected) << std::hex << bits;
      ASSERT_EQ(std::signbit(widened), (bits & 0x8000u) != 0) << std::hex << bits;
    }
  }
}

TEST(Float16, Bf16ToFloatIsExactForAll65536Inputs) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const float widened = Bf16ToFloat(static_cast<uint16_t>(bits));
    const double expected = DecodeBf16(static_cast<uint16_t>(bits));
    if (std::isnan(expected)) {
      ASSERT_TRUE(std::isnan(widened)) << std::hex << bits;
    } else {
      ASSERT_EQ(static_cast<double>(widened), expected) << std::hex << bits;
      ASSERT_EQ(std::signbit(widened), (bits & 0x8000u) != 0) << std::hex << bits;
    }
  }
}

TEST(Float16, FloatToHalfRoundsToNearestEvenOnDenseSweep) {
  for (float value : DenseFloatSweep()) {
    const uint16_t rounded = FloatToHalf(value);
    if (std::isnan(value)) {
      const uint32_t bits = FloatBits(value);
      ASSERT_EQ(rounded, ((bits >> 16) & 0x8000u) | 0x7E00u | ((bits >> 13) & 0x3FFu)) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(rounded, NearestEncoding(value, DecodeHalf, 0x7C00)) << std::hex << FloatBits(value);
  }
}

TEST(Float16, FloatToBf16RoundsToNearestEvenOnDenseSweep) {
  for (float value : DenseFloatSweep()) {
    const uint16_t rounded = FloatToBf16(value);
    if (std::isnan(value)) {
      const uint32_t bits = FloatBits(value);
      ASSERT_EQ(rounded, (bits >> 16) | 0x0040u) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(rounded, NearestEncoding(value, DecodeBf16, 0x7F80)) << std::hex << FloatBits(value);
  }
}

TEST(Float16, FloatToHalfKeepsSignOfZeroAndSaturatesToInfinity) {
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7C00);     // max half + half an ulp: tie goes to even (infinity)
  EXPECT_EQ(FloatToHalf(65519.996f), 0x7BFF);   // just below the tie
  EXPECT_EQ(FloatToHalf(-std::numeric_limits<float>::infinity()), 0xFC00);
}

#if defined(__x86_64__)
// F16C implements IEEE conversions in hardware: an oracle independent of our code.
__attribute__((target("f16c"))) uint16_t HardwareFloatToHalf(float value) {
  return static_cast<uint16_t>(_cvtss_sh(value, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) float HardwareHalfToFloat(uint16_t value) { return _cvtsh_ss(value); }

// CPUID leaf 1, ECX bit 29 (clang 14's __builtin_cpu_supports has no "f16c").
bool CpuHasF16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 29)) != 0;
}

TEST(Float16, MatchesF16cHardwareBitForBit) {
  if (!CpuHasF16c()) GTEST_SKIP() << "this CPU has no F16C";
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    ASSERT_EQ(FloatBits(HalfToFloat(static_cast<uint16_t>(bits))),
              FloatBits(HardwareHalfToFloat(static_cast<uint16_t>(bits))))
        << std::hex << bits;
  }
  for (float value : DenseFloatSweep()) {
    ASSERT_EQ(FloatToHalf(value), HardwareFloatToHalf(value)) << std::hex << FloatBits(value);
  }
}
#endif

}  // namespace
}  // namespace aclcpu
