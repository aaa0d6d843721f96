// Every compiled SIMD target's hardsigmoid kernels against the one scalar
// reference, bit for bit: every dtype, counts around each lane boundary,
// unaligned pointers, strided and broadcast runs, in place (out = self,
// contiguous and strided), the non-temporal-store variant, every 16-bit
// pattern, and the two-dimensional block kernel of transposed views.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/dtype.h"
#include "common/float16.h"
#include "../support/kernel_test_values.h"
#include "../support/tile_test_planes.h"
#include "ops/hardsigmoid/kernel.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid {
namespace {

struct KernelCase {
  int64_t target;
  aclDataType dtype;
  bool streaming;
};

std::string CaseName(const ::testing::TestParamInfo<KernelCase>& info) {
  return std::string(TargetName(info.param.target)) + "_" + (DtypeName(info.param.dtype) + 3) +
         (info.param.streaming ? "_streaming" : "");
}

std::vector<KernelCase> AllCases() {
  std::vector<KernelCase> cases;
  for (int64_t target : AvailableTargets()) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
      for (bool streaming : {false, true}) cases.push_back({target, dtype, streaming});
    }
  }
  return cases;
}

class HardsigmoidKernel : public ::testing::TestWithParam<KernelCase> {
 protected:
  void SetUp() override {
    const KernelCase& c = GetParam();
    vector_ = c.streaming ? SelectStreamingKernel(c.dtype, c.target) : SelectKernel(c.dtype, c.target);
    scalar_ = SelectScalarKernel(c.dtype);
    ASSERT_NE(vector_, nullptr);
    ASSERT_NE(scalar_, nullptr);
  }

  // Runs both kernels on `count` elements, self starting `misalign` elements
  // into its buffer, with the given strides, and compares every output byte
  // (outside the run too: the buffers start equal). With `in_place` out is self.
  void ExpectSameAsScalar(int64_t count, int64_t misalign, int64_t self_stride, int64_t out_stride,
                          bool in_place) {
    const aclDataType dtype = GetParam().dtype;
    const size_t size = DtypeSize(dtype);
    auto extent = [&](int64_t stride) { return static_cast<size_t>(misalign + (count > 0 ? (count - 1) * stride + 1 : 0)); };
    const std::vector<uint8_t>& self =
        SharedKernelTestValues(dtype, extent(self_stride), 7 + static_cast<uint32_t>(count));
    std::vector<uint8_t> vector_self = self, scalar_self = self;
    std::vector<uint8_t> vector_out(extent(out_stride) * size, 0xA5), scalar_out(vector_out);
    const size_t at = size * static_cast<size_t>(misalign);
    if (in_place) {
      vector_(vector_self.data() + at, self_stride, vector_self.data() + at, self_stride, count);
      scalar_(scalar_self.data() + at, self_stride, scalar_self.data() + at, self_stride, count);
      ASSERT_EQ(vector_self, scalar_self) << "in place, count " << count << " stride " << self_stride;
      return;
    }
    vector_(self.data() + at, self_stride, vector_out.data() + at, out_stride, count);
    scalar_(self.data() + at, self_stride, scalar_out.data() + at, out_stride, count);
    ASSERT_EQ(vector_out, scalar_out) << "count " << count << " misalign " << misalign << " strides " << self_stride
                                      << " " << out_stride;
  }

  RunFn vector_ = nullptr;
  RunFn scalar_ = nullptr;
};

TEST_P(HardsigmoidKernel, ContiguousRunsOfEveryLengthAroundLaneBoundariesMatchScalar) {
  for (int64_t count = 0; count <= 70; ++count) ExpectSameAsScalar(count, 0, 1, 1, false);
  for (int64_t count : {127, 128, 129, 255, 256, 257, 1000, 4099, 9000}) ExpectSameAsScalar(count, 0, 1, 1, false);
}

TEST_P(HardsigmoidKernel, UnalignedPointersMatchScalar) {
  for (int64_t misalign : {1, 3, 7}) {
    for (int64_t count : {15, 16, 17, 33, 1001, 5000}) ExpectSameAsScalar(count, misalign, 1, 1, false);
  }
}

// Step-2 self is de-interleaved with vector loads, stride 0 is a broadcast,
// other strides are copied element by element; counts around the
// 2048-element scratch block.
TEST_P(HardsigmoidKernel, StridedAndBroadcastRunsMatchScalar) {
  const int64_t strides[][2] = {{2, 1}, {0, 1}, {3, 1}, {1, 2}, {2, 2}, {17, 5}};
  for (const auto& stride : strides) {
    for (int64_t count : {1, 7, 8, 9, 16, 17, 33, 255, 256, 257, 2047, 2048, 2049, 4097}) {
      ExpectSameAsScalar(count, 1, stride[0], stride[1], false);
    }
  }
}

TEST_P(HardsigmoidKernel, InPlaceRunsMatchScalar) {
  for (int64_t stride : {1, 2, 3}) {
    for (int64_t count : {1, 15, 16, 17, 257, 4099, 9000}) ExpectSameAsScalar(count, 1, stride, stride, true);
  }
}

// Every 16-bit pattern (f16, bf16), a million float32 bit patterns, or int32
// values around -3 and 3 and at the extremes, as one contiguous run.
TEST_P(HardsigmoidKernel, EveryHalfPatternManyFloatPatternsAndIntegerEdgesMatchScalar) {
  const aclDataType dtype = GetParam().dtype;
  std::vector<uint8_t> self;
  if (dtype == ACL_FLOAT16 || dtype == ACL_BF16) {
    for (uint32_t bits = 0; bits < 65536; ++bits) {
      self.push_back(static_cast<uint8_t>(bits));
      self.push_back(static_cast<uint8_t>(bits >> 8));
    }
  } else if (dtype == ACL_INT32) {
    for (int64_t value : {int64_t{INT32_MIN}, int64_t{INT32_MIN} + 1, int64_t{-4}, int64_t{-3}, int64_t{-2},
                          int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}, int64_t{4},
                          int64_t{INT32_MAX} - 1, int64_t{INT32_MAX}}) {
      const int32_t v = static_cast<int32_t>(value);
      for (int repeat = 0; repeat < 5; ++repeat) self.insert(self.end(), reinterpret_cast<const uint8_t*>(&v),
                                                             reinterpret_cast<const uint8_t*>(&v) + 4);
    }
  } else {
    std::mt19937 random(2021);  // float32: a million random bit patterns
    for (int i = 0; i < (1 << 20); ++i) {
      const uint32_t bits = static_cast<uint32_t>(random());
      self.insert(self.end(), reinterpret_cast<const uint8_t*>(&bits), reinterpret_cast<const uint8_t*>(&bits) + 4);
    }
  }
  const int64_t count = static_cast<int64_t>(self.size() / DtypeSize(dtype));
  std::vector<uint8_t> vector_out(self.size()), scalar_out(self.size());
  vector_(self.data(), 1, vector_out.data(), 1, count);
  scalar_(self.data(), 1, scalar_out.data(), 1, count);
  ASSERT_EQ(vector_out, scalar_out);
}

uint32_t Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

INSTANTIATE_TEST_SUITE_P(EveryTargetAndDtype, HardsigmoidKernel, ::testing::ValuesIn(AllCases()), CaseName);

// The float32 division by 6 (a multiplication and a multiply-add where FMA is
// native, simd/kernels-inl.h DivideClampedBySix; the contiguous runs take
// self + 3 by an addition and by a multiply-add in alternate vectors) for
// every numerator self + 3 of one binade, [2, 4): self = numerator - 3 is
// exact there and self + 3 gives the numerator back, so 2^23 selfs in [-1, 1)
// reach every mantissa. Each step scales exactly with the numerator's power of
// two, so one binade decides.
TEST(HardsigmoidKernelAllTargets, Float32QuotientOfEveryMantissaMatchesScalarDivision) {
  std::vector<float> self;
  self.reserve(size_t{1} << 23);
  for (uint32_t bits = 0x40000000u; bits < 0x40800000u; ++bits) {
    float numerator;
    std::memcpy(&numerator, &bits, sizeof numerator);
    self.push_back(numerator - 3.0f);
  }
  const int64_t count = static_cast<int64_t>(self.size());
  std::vector<float> scalar_out(self.size());
  SelectScalarKernel(ACL_FLOAT)(self.data(), 1, scalar_out.data(), 1, count);
  for (int64_t target : AvailableTargets()) {
    std::vector<float> vector_out(self.size());
    SelectKernel(ACL_FLOAT, target)(self.data(), 1, vector_out.data(), 1, count);
    ASSERT_EQ(std::memcmp(vector_out.data(), scalar_out.data(), self.size() * sizeof(float)), 0)
        << TargetName(target);
  }
}

// The block kernel of `dtype` on `target` on `plane`
// (tests/support/tile_test_planes.h) against the scalar reference run column
// by column, every byte of out's buffer compared, in each of the plane's
// store modes (TileTestStoreModes: out's aligned vectors stored
// non-temporally or not).
void ExpectTileSameAsScalar(aclDataType dtype, int64_t target, const TileTestPlane& p) {
  const TileFn tile = SelectTileKernel(dtype, target);
  const RunFn scalar = SelectScalarKernel(dtype);
  ASSERT_NE(tile, nullptr);
  ASSERT_NE(scalar, nullptr);
  const size_t size = DtypeSize(dtype);
  const std::vector<uint8_t>& self =
      SharedKernelTestValues(dtype, p.in_extent, 41 + static_cast<uint32_t>(p.size0 * p.size1));
  const uint8_t* s = self.data() + size * p.misalign;
  const std::vector<uint8_t> scalar_out = ScalarPlaneOut(p, size, [&](int64_t j, uint8_t* column) {
    scalar(s + size * j * p.in_step, p.in_pitch, column, p.out_step, p.size0);
  });
  for (bool stream : TileTestStoreModes(p)) {
    const std::vector<uint8_t> tile_out = PlaneOut(p, size, [&](uint8_t* out) {
      tile(s, p.in_pitch, p.in_step, out, p.out_step, p.out_pitch, p.size0, p.size1, stream);
    });
    ASSERT_EQ(tile_out, scalar_out) << p.size0 << " x " << p.size1 << " layout " << p.layout << " "
                                    << TargetName(target) << " " << DtypeName(dtype) << (stream ? " streamed" : "");
  }
}

// The two-dimensional block kernel (transposed views) on every target and dtype.
class HardsigmoidTileKernel : public ::testing::TestWithParam<KernelCase> {
 protected:
  void SetUp() override {
    tile_ = SelectTileKernel(GetParam().dtype, GetParam().target);
    ASSERT_NE(tile_, nullptr);
  }

  TileFn tile_ = nullptr;
};

// Ragged sizes around the lane counts and every edge of the block, in
// the transposed, padded-and-misaligned and all-strided layouts; in the first
// two with non-temporal stores too (the strided layout's element walk has
// none), out's rows starting at many alignments.
TEST_P(HardsigmoidTileKernel, BlocksAtLaneAndBlockEdgesMatchScalar) {
  for (const TileTestPlane& plane : AllTileTestPlanes()) {
    ASSERT_NO_FATAL_FAILURE(ExpectTileSameAsScalar(GetParam().dtype, GetParam().target, plane));
  }
}

// In place: out is self's buffer with self's layout (the element-by-element
// path, each block read before it is written).
TEST_P(HardsigmoidTileKernel, InPlaceMatchesOutOfPlace) {
  const int64_t size0 = 70, size1 = 131;
  std::vector<uint8_t> self = KernelTestValues(GetParam().dtype, size0 * size1, 61);
  std::vector<uint8_t> expected(self.size());
  tile_(self.data(), size1, 1, expected.data(), size1, 1, size0, size1, false);
  tile_(self.data(), size1, 1, self.data(), size1, 1, size0, size1, false);
  ASSERT_EQ(self, expected);
}

std::vector<KernelCase> TileCases() {
  std::vector<KernelCase> cases;
  for (const KernelCase& c : AllCases()) {
    if (!c.streaming) cases.push_back(c);  // the block kernel has no streaming variant to select
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryTargetAndDtype, HardsigmoidTileKernel, ::testing::ValuesIn(TileCases()), CaseName);

// Every 16-bit pattern through the vector block on every target: a 256 x 256
// transposed plane holding each once (the block rows compute in float32, the
// transposed stores round).
TEST(HardsigmoidTileKernelAllTargets, EveryHalfPatternThroughTheBlockMatchesScalar) {
  std::vector<uint16_t> self(65536), expected(65536);
  for (uint32_t bits = 0; bits < 65536; ++bits) self[bits] = static_cast<uint16_t>(bits);
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const RunFn scalar = SelectScalarKernel(dtype);
    for (int64_t j = 0; j < 256; ++j) scalar(self.data() + j, 256, expected.data() + j * 256, 1, 256);
    for (int64_t target : AvailableTargets()) {
      const TileFn tile = SelectTileKernel(dtype, target);
      ASSERT_NE(tile, nullptr);
      for (bool stream : {false, true}) {
        std::vector<uint16_t> actual(65536);
        tile(self.data(), 256, 1, actual.data(), 1, 256, 256, 256, stream);
        ASSERT_EQ(actual, expected) << TargetName(target) << " " << DtypeName(dtype) << (stream ? " streamed" : "");
      }
    }
  }
}

// The scalar reference itself on the contract's special values (the golden
// data checks it against PyTorch at large): NaN propagates, ±inf give 1 and 0,
// -0 gives 0.5, the clamps hold at ±3, and INT32 truncates toward zero.
TEST(HardsigmoidScalarReference, SpecialValuesFollowTheContract) {
  const RunFn f32 = SelectScalarKernel(ACL_FLOAT);
  const float in[] = {NAN, INFINITY, -INFINITY, -0.0f, -3.0f, 3.0f, -4.0f, 4.0f, 0.0f};
  float out[9];
  f32(in, 1, out, 1, 9);
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[1], 1.0f);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_EQ(out[3], 0.5f);
  EXPECT_EQ(Bits(out[4]), 0u);  // +0
  EXPECT_EQ(out[5], 1.0f);
  EXPECT_EQ(Bits(out[6]), 0u);
  EXPECT_EQ(out[7], 1.0f);
  EXPECT_EQ(out[8], 0.5f);
  const RunFn i32 = SelectScalarKernel(ACL_INT32);
  const int32_t in_int[] = {INT32_MIN, -3, -2, 0, 2, 3, 4, INT32_MAX};
  int32_t out_int[8];
  i32(in_int, 1, out_int, 1, 8);
  const int32_t expected[] = {0, 0, 0, 0, 0, 1, 1, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out_int[i], expected[i]) << in_int[i];
}

}  // namespace
}  // namespace hardsigmoid
}  // namespace aclcpu
