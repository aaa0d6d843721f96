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
// The step-2 forms: `pairs` holds 2 x count elements, the inputs at even indices.
void HalfEvenToFloatArray(const uint16_t* pairs, float* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) {
    hn::StoreU(aclcpu::HWY_NAMESPACE::LoadEvenF16AsF32(df, pairs + 2 * i), df, out + i);
  }
}
void Bf16EvenToFloatArray(const uint16_t* pairs, float* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) {
    hn::StoreU(aclcpu::HWY_NAMESPACE::LoadEvenBf16AsF32(df, pairs + 2 * i), df, out + i);
  }
}
void FloatToHalfArray(const float* in, uint16_t* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) aclcpu::HWY_NAMESPACE::StoreF32AsF16(df, hn::LoadU(df, in + i), out + i);
}
void FloatToBf16Array(const float* in, uint16_t* out, size_t count) {
  const hn::ScalableTag<float> df;
  for (size_t i = 0; i < count; i += hn::Lanes(df)) aclcpu::HWY_NAMESPACE::StoreF32AsBf16(df, hn::LoadU(df, in + i), out + i);
}

// The all-bf16 pair path (x86 targets; the single-vector functions elsewhere).
// Widening permutes lanes, so both directions are checked through the
// permutation the widening itself reports (bf16 bits 0, 1, 2, ... widened).
void Bf16PairRoundTripArray(const uint16_t* in, uint16_t* out, size_t count) {
#if ACLCPU_SIMD_HAS_BF16_PAIRS
  const hn::ScalableTag<uint16_t> du16;
  hn::Vec<hn::Repartition<float, decltype(du16)>> lo, hi;
  for (size_t i = 0; i < count; i += hn::Lanes(du16)) {
    aclcpu::HWY_NAMESPACE::LoadBf16PairAsF32(du16, in + i, lo, hi);
    aclcpu::HWY_NAMESPACE::StoreBf16PairFromF32(du16, lo, hi, out + i);
  }
#else
  std::vector<float> wide(count);
  Bf16ToFloatArray(in, wide.data(), count);
  FloatToBf16Array(wide.data(), out, count);
#endif
}
void Bf16PairToFloatArray(const uint16_t* in, float* out, size_t count) {
#if ACLCPU_SIMD_HAS_BF16_PAIRS
  const hn::ScalableTag<uint16_t> du16;
  const hn::Repartition<float, decltype(du16)> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const size_t lanes = hn::Lanes(du16);
  std::vector<uint16_t> index(lanes);
  for (size_t k = 0; k < lanes; ++k) index[k] = static_cast<uint16_t>(k);
  hn::Vec<decltype(df)> lo, hi;
  aclcpu::HWY_NAMESPACE::LoadBf16PairAsF32(du16, index.data(), lo, hi);
  std::vector<uint32_t> source(lanes);  // lane k of (lo, hi) holds element source[k]
  hn::StoreU(hn::ShiftRight<16>(hn::BitCast(du32, lo)), du32, source.data());
  hn::StoreU(hn::ShiftRight<16>(hn::BitCast(du32, hi)), du32, source.data() + lanes / 2);
  std::vector<float> wide(lanes);
  for (size_t i = 0; i < count; i += lanes) {
    aclcpu::HWY_NAMESPACE::LoadBf16PairAsF32(du16, in + i, lo, hi);
    hn::StoreU(lo, df, wide.data());
    hn::StoreU(hi, df, wide.data() + lanes / 2);
    for (size_t k = 0; k < lanes; ++k) out[i + source[k]] = wide[k];
  }
#else
  Bf16ToFloatArray(in, out, count);
#endif
}
void FloatToBf16PairArray(const float* in, uint16_t* out, size_t count) {
#if ACLCPU_SIMD_HAS_BF16_PAIRS
  const hn::ScalableTag<uint16_t> du16;
  const hn::Repartition<float, decltype(du16)> df;
  const hn::RebindToUnsigned<decltype(df)> du32;
  const size_t lanes = hn::Lanes(du16);
  std::vector<uint16_t> index(lanes);
  for (size_t k = 0; k < lanes; ++k) index[k] = static_cast<uint16_t>(k);
  hn::Vec<decltype(df)> lo, hi;
  aclcpu::HWY_NAMESPACE::LoadBf16PairAsF32(du16, index.data(), lo, hi);
  std::vector<uint32_t> source(lanes);
  hn::StoreU(hn::ShiftRight<16>(hn::BitCast(du32, lo)), du32, source.data());
  hn::StoreU(hn::ShiftRight<16>(hn::BitCast(du32, hi)), du32, source.data() + lanes / 2);
  std::vector<float> permuted(lanes);
  for (size_t i = 0; i < count; i += lanes) {
    for (size_t k = 0; k < lanes; ++k) permuted[k] = in[i + source[k]];
    aclcpu::HWY_NAMESPACE::StoreBf16PairFromF32(du16, hn::LoadU(df, permuted.data()),
                                                hn::LoadU(df, permuted.data() + lanes / 2), out + i);
  }
#else
  FloatToBf16Array(in, out, count);
#endif
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
const TargetTable<WidenFn> kHalfEvenToFloat = {ACLCPU_FOR_EACH_COMPILED_TARGET(HalfEvenToFloatArray)};
const TargetTable<WidenFn> kBf16EvenToFloat = {ACLCPU_FOR_EACH_COMPILED_TARGET(Bf16EvenToFloatArray)};
const TargetTable<NarrowFn> kFloatToHalf = {ACLCPU_FOR_EACH_COMPILED_TARGET(FloatToHalfArray)};
const TargetTable<NarrowFn> kFloatToBf16 = {ACLCPU_FOR_EACH_COMPILED_TARGET(FloatToBf16Array)};
using RoundTripFn = void (*)(const uint16_t*, uint16_t*, size_t);
const TargetTable<RoundTripFn> kBf16PairRoundTrip = {ACLCPU_FOR_EACH_COMPILED_TARGET(Bf16PairRoundTripArray)};
const TargetTable<WidenFn> kBf16PairToFloat = {ACLCPU_FOR_EACH_COMPILED_TARGET(Bf16PairToFloatArray)};
const TargetTable<NarrowFn> kFloatToBf16Pair = {ACLCPU_FOR_EACH_COMPILED_TARGET(FloatToBf16PairArray)};

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

// `widen` on this target against the scalar `reference`, bit for bit, for all
// 65,536 16-bit inputs.
void ExpectWidenMatchesForAllInputs(const TargetTable<WidenFn>& widen, int64_t target,
                                    float (*reference)(uint16_t)) {
  const std::vector<uint16_t> in = All16BitPatterns();
  std::vector<float> out(in.size());
  ForTarget(widen, target)(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(FloatBits(out[i]), FloatBits(reference(in[i]))) << std::hex << in[i];
  }
}

// The step-2 form of `widen` (every input at an even index) against `reference`
// for all 65,536 inputs, each odd index holding the complement of the input
// before it, so a bit of the odd element leaking into the result shows.
void ExpectEvenWidenMatchesForAllInputs(const TargetTable<WidenFn>& widen, int64_t target,
                                        float (*reference)(uint16_t)) {
  const std::vector<uint16_t> in = All16BitPatterns();
  std::vector<uint16_t> pairs(2 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    pairs[2 * i] = in[i];
    pairs[2 * i + 1] = static_cast<uint16_t>(~in[i]);
  }
  std::vector<float> out(in.size());
  ForTarget(widen, target)(pairs.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(FloatBits(out[i]), FloatBits(reference(in[i]))) << std::hex << in[i];
  }
}

// `narrow` on this target against the scalar `reference` on DenseFloats().
void ExpectNarrowMatchesOnDenseSweep(const TargetTable<NarrowFn>& narrow, int64_t target,
                                     uint16_t (*reference)(float)) {
  const std::vector<float> in = DenseFloats();
  std::vector<uint16_t> out(in.size());
  ForTarget(narrow, target)(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], reference(in[i])) << std::hex << FloatBits(in[i]);
}

TEST_P(SimdConvert, HalfToFloatMatchesScalarForAll65536Inputs) {
  ExpectWidenMatchesForAllInputs(kHalfToFloat, GetParam(), HalfToFloat);
}

TEST_P(SimdConvert, Bf16ToFloatMatchesScalarForAll65536Inputs) {
  ExpectWidenMatchesForAllInputs(kBf16ToFloat, GetParam(), Bf16ToFloat);
}

TEST_P(SimdConvert, HalfAtEvenIndicesToFloatMatchesScalarForAll65536Inputs) {
  ExpectEvenWidenMatchesForAllInputs(kHalfEvenToFloat, GetParam(), HalfToFloat);
}

TEST_P(SimdConvert, Bf16AtEvenIndicesToFloatMatchesScalarForAll65536Inputs) {
  ExpectEvenWidenMatchesForAllInputs(kBf16EvenToFloat, GetParam(), Bf16ToFloat);
}

TEST_P(SimdConvert, FloatToHalfMatchesScalarOnDenseSweep) {
  ExpectNarrowMatchesOnDenseSweep(kFloatToHalf, GetParam(), FloatToHalf);
}

TEST_P(SimdConvert, FloatToBf16MatchesScalarOnDenseSweep) {
  ExpectNarrowMatchesOnDenseSweep(kFloatToBf16, GetParam(), FloatToBf16);
}

TEST_P(SimdConvert, Bf16PairsWidenExactlyForAll65536Inputs) {
  ExpectWidenMatchesForAllInputs(kBf16PairToFloat, GetParam(), Bf16ToFloat);
}

TEST_P(SimdConvert, Bf16PairsNarrowMatchScalarOnDenseSweep) {
  ExpectNarrowMatchesOnDenseSweep(kFloatToBf16Pair, GetParam(), FloatToBf16);
}

// Widening then narrowing restores every bf16 in place (NaNs come back quiet).
TEST_P(SimdConvert, Bf16PairsRoundTripInOrderForAll65536Inputs) {
  const std::vector<uint16_t> in = All16BitPatterns();
  std::vector<uint16_t> out(in.size());
  ForTarget(kBf16PairRoundTrip, GetParam())(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], FloatToBf16(Bf16ToFloat(in[i]))) << std::hex << in[i];
}

INSTANTIATE_TEST_SUITE_P(EveryTarget, SimdConvert, ::testing::ValuesIn(AvailableTargets()),
                         [](const ::testing::TestParamInfo<int64_t>& info) { return TargetName(info.param); });

}  // namespace
}  // namespace convert_test
}  // namespace aclcpu
#endif  // HWY_ONCE
