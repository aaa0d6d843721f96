// The vector f16/bf16 conversions of every compiled SIMD target the CPU runs,
// bit for bit against the scalar definitions in common/float16.h (themselves
// tested against the IEEE definition in float16_test.cc): all 65,536 inputs of
// each 16-bit format, and a dense float32 sweep around every rounding point.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd_convert_test.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cstdint>
#include <vector>

#include "hwy/highway.h"
#include "simd/convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace convert_test {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Each converts `count` elements, a multiple of every target's lane count.
void HalfToFloatArray(const uint16_t* in, float* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) hn::StoreU(aclcpu::HWY_NAMESPACE::LoadF16AsF32(df, in + i), df, out + i);
}
void Bf16ToFloatArray(const uint16_t* in, float* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) hn::StoreU(aclcpu::HWY_NAMESPACE::LoadBf16AsF32(df, in + i), df, out + i);
}
void FloatToHalfArray(const float* in, uint16_t* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) aclcpu::HWY_NAMESPACE::StoreF32AsF16(df, hn::LoadU(df, in + i), out + i);
}
void FloatToBf16Array(const float* in, uint16_t* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) aclcpu::HWY_NAMESPACE::StoreF32AsBf16(df, hn::LoadU(df, in + i), out + i);
}

}  // namespace HWY_NAMESPACE
}  // namespace convert_test
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <random>

#include <gtest/gtest.h>

#include "common/float16.h"
#include "simd/targets.h"

namespace aclcpu {
namespace convert_test {
namespace {

using WidenFn = void (*)(const uint16_t*, float*, size_t);
using NarrowFn = void (*)(const float*, uint16_t*, size_t);
const TargetTable<WidenFn> kHalfToFloat = {ACLCPU_FOR_EACH_COMPILED_TARGET(HalfToFloatArray)};
const TargetTable<WidenFn> kBf16ToFloat = {ACLCPU_FOR_EACH_COMPILED_TARGET(Bf16ToFloatArray)};
const TargetTable<NarrowFn> kFloatToHalf = {ACLCPU_FOR_EACH_COMPILED_TARGET(FloatToHalfArray)};
const TargetTable<NarrowFn> kFloatToBf16 = {ACLCPU_FOR_EACH_COMPILED_TARGET(FloatToBf16Array)};

std::vector<uint16_t> All16BitPatterns() {
  std::vector<uint16_t> patterns(1 << 16);
  for (uint32_t i = 0; i < patterns.size(); ++i) patterns[i] = static_cast<uint16_t>(i);
  return patterns;
}

// Around every rounding point of both formats, for every upper bit pattern, plus
// random floats; the size is a multiple of 256 (any target's lane count).
std::vector<float> DenseFloats() {
  std::vector<float> values;
  for (uint32_t high = 0; high < (1u << 16); ++high) {
    for (uint32_t low : {0x0000u, 0x0FFFu, 0x1000u, 0x1001u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu}) {
      values.push_back(BitsToFloat((high << 16) | low));
    }
  }
  std::mt19937 random(99);
  for (int i = 0; i < (1 << 18); ++i) values.push_back(BitsToFloat(static_cast<uint32_t>(random())));
  return values;
}

class SimdConvert : public ::testing::TestWithParam<int64_t> {};

TEST_P(SimdConvert, HalfToFloatMatchesScalarForAll65536Inputs) {
  const std::vector<uint16_t> in = All16BitPatterns();
  std::vector<float> out(in.size());
  ForTarget(kHalfToFloat, GetParam())(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(FloatBits(out[i]), FloatBits(HalfToFloat(in[i]))) << std::hex << in[i];
  }
}

TEST_P(SimdConvert, Bf16ToFloatMatchesScalarForAll65536Inputs) {
  const std::vector<uint16_t> in = All16BitPatterns();
  std::vector<float> out(in.size());
  ForTarget(kBf16ToFloat, GetParam())(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(FloatBits(out[i]), FloatBits(Bf16ToFloat(in[i]))) << std::hex << in[i];
  }
}

TEST_P(SimdConvert, FloatToHalfMatchesScalarOnDenseSweep) {
  const std::vector<float> in = DenseFloats();
  std::vector<uint16_t> out(in.size());
  ForTarget(kFloatToHalf, GetParam())(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(out[i], FloatToHalf(in[i])) << std::hex << FloatBits(in[i]);
  }
}

TEST_P(SimdConvert, FloatToBf16MatchesScalarOnDenseSweep) {
  const std::vector<float> in = DenseFloats();
  std::vector<uint16_t> out(in.size());
  ForTarget(kFloatToBf16, GetParam())(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(out[i], FloatToBf16(in[i])) << std::hex << FloatBits(in[i]);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTarget, SimdConvert, ::testing::ValuesIn(AvailableTargets()),
                         [](const ::testing::TestParamInfo<int64_t>& info) { return TargetName(info.param); });

}  // namespace
}  // namespace convert_test
}  // namespace aclcpu
#endif  // HWY_ONCE
