// Every compiled SIMD target's hardsigmoid-backward kernels against the one
// scalar reference, bit for bit: every dtype path, counts around each lane
// boundary, unaligned pointers, strided runs, and out aliasing gradOutput.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/dtype.h"
#include "common/float16.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "simd/targets.h"

namespace aclcpu {
namespace {

const aclDataType kInputTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const aclDataType kOutTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

// Bytes of `count` elements of `dtype`: values that exercise the kernel — both
// sides of ±3, specials (NaN, ±inf, ±0, subnormals) and ordinary values.
std::vector<uint8_t> TestValues(aclDataType dtype, size_t count, uint32_t seed) {
  std::mt19937 random(seed);
  const float specials[] = {3.0f, -3.0f, std::nextafter(3.0f, 0.0f), std::nextafter(-3.0f, 0.0f),
                            2.9990234f, -2.9990234f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN,
                            1e-40f, -1e-45f, 6e-8f, 1e-5f, 65504.0f, 70000.0f, 3.4e38f, 1.0f};
  std::uniform_real_distribution<float> ordinary(-5.0f, 5.0f);
  const size_t size = DtypeSize(dtype);
  std::vector<uint8_t> bytes(count * size);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t pick = random() % 4;
    float value = pick == 0 ? specials[random() % (sizeof specials / sizeof specials[0])] : ordinary(random);
    if (dtype == ACL_FLOAT) {
      if (pick == 1) value = BitsToFloat(static_cast<uint32_t>(random()));  // any bit pattern
      std::memcpy(&bytes[i * size], &value, size);
    } else {
      uint16_t bits = dtype == ACL_FLOAT16 ? FloatToHalf(value) : FloatToBf16(value);
      if (pick == 1) bits = static_cast<uint16_t>(random());
      std::memcpy(&bytes[i * size], &bits, size);
    }
  }
  return bytes;
}

struct PathCase {
  int64_t target;
  aclDataType grad, self, out;
};

std::string CaseName(const ::testing::TestParamInfo<PathCase>& info) {
  auto short_name = [](aclDataType t) -> std::string { return DtypeName(t) + 3; };  // drop "DT_"
  return std::string(TargetName(info.param.target)) + "_" + short_name(info.param.grad) + "_" +
         short_name(info.param.self) + "_" + short_name(info.param.out);
}

std::vector<PathCase> AllPaths() {
  std::vector<PathCase> cases;
  for (int64_t target : AvailableTargets()) {
    for (aclDataType grad : kInputTypes) {
      for (aclDataType self : kInputTypes) {
        for (aclDataType out : kOutTypes) cases.push_back({target, grad, self, out});
      }
    }
  }
  return cases;
}

class SimdKernel : public ::testing::TestWithParam<PathCase> {
 protected:
  void SetUp() override {
    const PathCase& c = GetParam();
    const aclDataType promoted = PromoteFloatingTypes(c.grad, c.self);
    vector_ = SelectKernel(c.grad, c.self, promoted, c.out, c.target);
    scalar_ = SelectScalarKernel(c.grad, c.self, promoted, c.out);
    ASSERT_NE(vector_, nullptr);
    ASSERT_NE(scalar_, nullptr);
  }

  // Runs both kernels on `count` elements starting `misalign` elements into
  // the buffers, with the given strides, and compares every output byte.
  void ExpectSameAsScalar(int64_t count, int64_t misalign, int64_t stride) {
    const PathCase& c = GetParam();
    const size_t extent = static_cast<size_t>(misalign + (count > 0 ? (count - 1) * stride + 1 : 0));
    const std::vector<uint8_t> grad = TestValues(c.grad, extent, 1 + static_cast<uint32_t>(count));
    const std::vector<uint8_t> self = TestValues(c.self, extent, 1000 + static_cast<uint32_t>(count));
    const size_t out_size = DtypeSize(c.out);
    std::vector<uint8_t> vector_out(extent * out_size, 0xA5), scalar_out(extent * out_size, 0xA5);
    const size_t g = DtypeSize(c.grad) * misalign, s = DtypeSize(c.self) * misalign, o = out_size * misalign;
    vector_(grad.data() + g, stride, self.data() + s, stride, vector_out.data() + o, stride, count);
    scalar_(grad.data() + g, stride, self.data() + s, stride, scalar_out.data() + o, stride, count);
    ASSERT_EQ(vector_out, scalar_out) << "count " << count << " misalign " << misalign << " stride " << stride;
  }

  HardsigmoidBackwardRunFn vector_ = nullptr;
  HardsigmoidBackwardRunFn scalar_ = nullptr;
};

TEST_P(SimdKernel, ContiguousRunsOfEveryLengthAroundLaneBoundariesMatchScalar) {
  for (int64_t count = 0; count <= 70; ++count) ExpectSameAsScalar(count, 0, 1);
  for (int64_t count : {127, 128, 129, 255, 256, 257, 1000, 4099}) ExpectSameAsScalar(count, 0, 1);
}

TEST_P(SimdKernel, UnalignedPointersMatchScalar) {
  for (int64_t misalign : {1, 3, 7}) {
    for (int64_t count : {15, 16, 17, 33, 1001}) ExpectSameAsScalar(count, misalign, 1);
  }
}

TEST_P(SimdKernel, StridedRunsMatchScalar) {
  for (int64_t stride : {2, 3, 17}) ExpectSameAsScalar(100, 1, stride);
}

INSTANTIATE_TEST_SUITE_P(EveryTargetAndDtypePath, SimdKernel, ::testing::ValuesIn(AllPaths()), CaseName);

// The non-temporal-store variants (float32 outputs) against the scalar
// reference: lengths around lane boundaries and every misalignment of out
// relative to the vector size, so the aligning head, the body and the tail run.
TEST(SimdStreamingKernel, MatchesScalarForEveryTargetInputPathLengthAndMisalignment) {
  for (int64_t target : AvailableTargets()) {
    for (aclDataType grad : kInputTypes) {
      for (aclDataType self : kInputTypes) {
        const aclDataType promoted = PromoteFloatingTypes(grad, self);
        const HardsigmoidBackwardRunFn streaming = SelectStreamingKernel(grad, self, promoted, ACL_FLOAT, target);
        ASSERT_NE(streaming, nullptr) << TargetName(target);
        EXPECT_EQ(SelectStreamingKernel(grad, self, promoted, ACL_FLOAT16, target), nullptr);
        const HardsigmoidBackwardRunFn scalar = SelectScalarKernel(grad, self, promoted, ACL_FLOAT);
        for (int64_t misalign = 0; misalign < 17; ++misalign) {
          for (int64_t count : {0, 1, 15, 16, 17, 63, 64, 65, 1000}) {
            const size_t extent = static_cast<size_t>(misalign + count);
            const std::vector<uint8_t> g = TestValues(grad, extent, 11), s = TestValues(self, extent, 12);
            std::vector<float> expected(extent + 1, -1.0f), actual(extent + 1, -1.0f);
            const size_t g_off = DtypeSize(grad) * misalign, s_off = DtypeSize(self) * misalign;
            scalar(g.data() + g_off, 1, s.data() + s_off, 1, expected.data() + misalign, 1, count);
            streaming(g.data() + g_off, 1, s.data() + s_off, 1, actual.data() + misalign, 1, count);
            ASSERT_EQ(std::memcmp(actual.data(), expected.data(), actual.size() * sizeof(float)), 0)
                << TargetName(target) << " " << DtypeName(grad) << " " << DtypeName(self) << " count " << count
                << " misalign " << misalign;
          }
        }
      }
    }
  }
}

// In place: out is gradOutput's own buffer (same dtype, same layout), as a
// framework's in-place backward does. Every target, every path where that is possible.
TEST(SimdKernelInPlace, OutAliasingGradOutputMatchesOutOfPlace) {
  const int64_t count = 1003;
  for (int64_t target : AvailableTargets()) {
    for (aclDataType grad_and_out : kInputTypes) {
      for (aclDataType self : kInputTypes) {
        const aclDataType promoted = PromoteFloatingTypes(grad_and_out, self);
        std::vector<uint8_t> grad = TestValues(grad_and_out, count, 5);
        const std::vector<uint8_t> self_values = TestValues(self, count, 6);
        std::vector<uint8_t> expected(grad.size());
        SelectScalarKernel(grad_and_out, self, promoted, grad_and_out)(grad.data(), 1, self_values.data(), 1,
                                                                       expected.data(), 1, count);
        SelectKernel(grad_and_out, self, promoted, grad_and_out, target)(grad.data(), 1, self_values.data(), 1,
                                                                         grad.data(), 1, count);
        EXPECT_EQ(grad, expected) << TargetName(target) << " " << DtypeName(grad_and_out) << " "
                                  << DtypeName(self);
      }
    }
  }
}

}  // namespace
}  // namespace aclcpu
