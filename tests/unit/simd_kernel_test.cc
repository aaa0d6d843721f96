// Every compiled SIMD target's hardsigmoid-backward kernels against the one
// scalar reference, bit for bit: every dtype path, counts around each lane
// boundary, unaligned pointers, strided runs, and out aliasing gradOutput.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/dtype.h"
#include "common/float16.h"
#include "../support/kernel_test_values.h"
#include "../support/tile_test_planes.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "simd/targets.h"

namespace aclcpu {
namespace {

const aclDataType kInputTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const aclDataType kOutTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

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
    const std::vector<uint8_t>& grad = SharedKernelTestValues(c.grad, extent, 1 + static_cast<uint32_t>(count));
    const std::vector<uint8_t>& self = SharedKernelTestValues(c.self, extent, 1000 + static_cast<uint32_t>(count));
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

// Each operand with its own stride (step-2 views are de-interleaved with vector
// loads, stride-1 operands used in place, stride 0 broadcast): counts around the
// lane counts and the 2048-element scratch block, with buffers that end exactly
// at the last element a run touches (so a sanitizer build catches an over-read).
// All-f16 step-2 runs also at a count past 2^17, from which they de-interleave
// in registers on AVX-512 instead of through the scratch block.
TEST_P(SimdKernel, RunsWithMixedStridesMatchScalar) {
  const PathCase& c = GetParam();
  const int64_t strides[][3] = {{2, 2, 1}, {1, 2, 1}, {2, 1, 1}, {2, 0, 1}, {0, 2, 1}, {2, 2, 2}, {3, 2, 1}, {4, 4, 1}};
  const bool all_f16 = c.grad == ACL_FLOAT16 && c.self == ACL_FLOAT16 && c.out == ACL_FLOAT16;
  for (const auto& stride : strides) {
    const bool step2 = all_f16 && stride[0] == 2 && stride[1] == 2 && stride[2] == 1;
    for (int64_t count : std::initializer_list<int64_t>{1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256,
                                                        257, 2047, 2048, 2049, 4097, (int64_t{1} << 17) + 33}) {
      if (count > 4097 && !step2) continue;
      auto extent = [&](int64_t st) { return static_cast<size_t>(1 + (count - 1) * st); };
      const std::vector<uint8_t>& grad =
          SharedKernelTestValues(c.grad, extent(stride[0]), 31 + static_cast<uint32_t>(count));
      const std::vector<uint8_t>& self =
          SharedKernelTestValues(c.self, extent(stride[1]), 32 + static_cast<uint32_t>(count));
      const size_t out_size = DtypeSize(c.out);
      std::vector<uint8_t> vector_out(extent(stride[2]) * out_size, 0xA5), scalar_out(vector_out);
      vector_(grad.data(), stride[0], self.data(), stride[1], vector_out.data(), stride[2], count);
      scalar_(grad.data(), stride[0], self.data(), stride[1], scalar_out.data(), stride[2], count);
      ASSERT_EQ(vector_out, scalar_out) << "count " << count << " strides " << stride[0] << " " << stride[1] << " "
                                        << stride[2];
    }
  }
}

// The two-dimensional block kernel (transposed views) against the scalar
// reference run column by column, on one of the shared test planes
// (tests/support/tile_test_planes.h), in each of the plane's store modes
// (TileTestStoreModes: out's aligned vectors stored non-temporally or not).
void ExpectTileSameAsScalar(const PathCase& c, HardsigmoidBackwardRunFn scalar, const TileTestPlane& p) {
  const aclDataType promoted = PromoteFloatingTypes(c.grad, c.self);
  const HardsigmoidBackwardTileFn tile = SelectTileKernel(c.grad, c.self, promoted, c.out, c.target);
  ASSERT_NE(tile, nullptr);
  const std::vector<uint8_t>& grad = SharedKernelTestValues(c.grad, p.in_extent, 21 + static_cast<uint32_t>(p.size0));
  const std::vector<uint8_t>& self = SharedKernelTestValues(c.self, p.in_extent, 22 + static_cast<uint32_t>(p.size1));
  const uint8_t* g = grad.data() + DtypeSize(c.grad) * p.misalign;
  const uint8_t* s = self.data() + DtypeSize(c.self) * p.misalign;
  const size_t out_size = DtypeSize(c.out);
  const std::vector<uint8_t> scalar_out = ScalarPlaneOut(p, out_size, [&](int64_t j, uint8_t* column) {
    scalar(g + DtypeSize(c.grad) * j * p.in_step, p.in_pitch, s + DtypeSize(c.self) * j * p.in_step, p.in_pitch,
           column, p.out_step, p.size0);
  });
  for (bool stream : TileTestStoreModes(p)) {
    const std::vector<uint8_t> tile_out = PlaneOut(p, out_size, [&](uint8_t* out) {
      tile(g, p.in_pitch, p.in_step, s, p.in_pitch, p.in_step, out, p.out_step, p.out_pitch, p.size0, p.size1,
           stream);
    });
    ASSERT_EQ(tile_out, scalar_out) << p.size0 << " x " << p.size1 << " layout " << p.layout
                                    << (stream ? " streamed" : "");
  }
}

// Sizes around the lane counts and at every edge of the block, in every
// layout; in the vector layouts with non-temporal stores too (the element walk
// of the strided layout has none), out's rows starting at many alignments.
TEST_P(SimdKernel, TileBlocksAtLaneAndBlockEdgesMatchScalar) {
  for (const TileTestPlane& plane : AllTileTestPlanes()) {
    ASSERT_NO_FATAL_FAILURE(ExpectTileSameAsScalar(GetParam(), scalar_, plane));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryTargetAndDtypePath, SimdKernel, ::testing::ValuesIn(AllPaths()), CaseName);

// All-f16 and all-bf16 runs test the window on self's bits and convert only
// grad (simd/kernels-inl.h): every 16-bit pattern as self, then as grad, against
// the scalar reference, on every target, through the ordinary kernel and the
// streaming one (whose loop computes each vector in a function of its own).
TEST(SimdKernelSameHalfType, EverySelfAndGradBitPatternMatchesScalar) {
  const size_t count = size_t{1} << 16;
  std::vector<uint16_t> every_pattern(count), mixed(count);
  for (size_t i = 0; i < count; ++i) every_pattern[i] = static_cast<uint16_t>(i);
  for (int64_t target : AvailableTargets()) {
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
      const std::vector<uint8_t> values = KernelTestValues(dtype, count, 71);
      std::memcpy(mixed.data(), values.data(), count * sizeof(uint16_t));
      const HardsigmoidBackwardRunFn scalar = SelectScalarKernel(dtype, dtype, dtype, dtype);
      for (bool streaming : {false, true}) {
        const HardsigmoidBackwardRunFn vector = streaming ? SelectStreamingKernel(dtype, dtype, dtype, dtype, target)
                                                          : SelectKernel(dtype, dtype, dtype, dtype, target);
        ASSERT_NE(vector, nullptr);
        for (bool patterns_as_self : {true, false}) {
          const uint16_t* grad = patterns_as_self ? mixed.data() : every_pattern.data();
          const uint16_t* self = patterns_as_self ? every_pattern.data() : mixed.data();
          std::vector<uint16_t> expected(count), actual(count, 0xA5A5);
          scalar(grad, 1, self, 1, expected.data(), 1, static_cast<int64_t>(count));
          vector(grad, 1, self, 1, actual.data(), 1, static_cast<int64_t>(count));
          ASSERT_EQ(actual, expected) << TargetName(target) << " " << DtypeName(dtype)
                                      << (patterns_as_self ? " every self" : " every grad")
                                      << (streaming ? " streaming" : "");
        }
      }
    }
  }
}

// Kernels that take a whole vector of grads at a time and leave any vector
// with a special value to a slower exact path (the avx512_fp16 target's all-f16
// kernel: subnormal or NaN results; its all-bf16 kernel: grads off its table;
// the avx512_bf16 target's: subnormal results) must still be exact on the fast
// path for every grad: each 16-bit pattern fills 64 consecutive lanes (a whole
// vector on every target with vectors up to 1024 bits, so it meets only copies
// of itself), with a self that is inside the window in some lanes and outside
// in others. The ordinary kernels and the streaming ones alike.
TEST(SimdKernelSameHalfType, EveryGradBitPatternFillingWholeVectorsMatchesScalar) {
  constexpr size_t kCopies = 64;
  const size_t count = (size_t{1} << 16) * kCopies;
  std::vector<uint16_t> grad(count);
  for (size_t i = 0; i < count; ++i) grad[i] = static_cast<uint16_t>(i / kCopies);
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    std::vector<uint16_t> self(count), expected(count);
    const std::vector<uint8_t> values = KernelTestValues(dtype, count, 91);
    std::memcpy(self.data(), values.data(), count * sizeof(uint16_t));
    SelectScalarKernel(dtype, dtype, dtype, dtype)(grad.data(), 1, self.data(), 1, expected.data(), 1,
                                                   static_cast<int64_t>(count));
    for (int64_t target : AvailableTargets()) {
      for (bool streaming : {false, true}) {
        const HardsigmoidBackwardRunFn vector = streaming ? SelectStreamingKernel(dtype, dtype, dtype, dtype, target)
                                                          : SelectKernel(dtype, dtype, dtype, dtype, target);
        ASSERT_NE(vector, nullptr);
        std::vector<uint16_t> actual(count, 0xA5A5);
        vector(grad.data(), 1, self.data(), 1, actual.data(), 1, static_cast<int64_t>(count));
        const size_t i = static_cast<size_t>(std::mismatch(actual.begin(), actual.end(), expected.begin()).first -
                                             actual.begin());
        if (i < count) {
          FAIL() << TargetName(target) << " " << DtypeName(dtype) << (streaming ? " streaming" : "")
                 << " grad bits 0x" << std::hex << grad[i] << " self bits 0x" << self[i] << ": 0x" << actual[i]
                 << ", expected 0x" << expected[i];
        }
      }
    }
  }
}

// The window is tested on float32 self's bits (|self| < 3 as an integer
// compare, simd/kernels-inl.h): self takes every upper half (sign, exponent,
// top of the mantissa: every class, every NaN kind, both sides of +-3) with lower
// halves 0, 1, 0x7FFF, 0x8000 and 0xFFFF, on every target, against the scalar
// reference.
TEST(SimdKernelFloatWindow, EveryFloat32SelfUpperHalfMatchesScalar) {
  const uint32_t lower_halves[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0xFFFF};
  std::vector<float> self;
  for (uint32_t upper = 0; upper < 0x10000; ++upper) {
    for (uint32_t lower : lower_halves) self.push_back(BitsToFloat(upper << 16 | lower));
  }
  const std::vector<uint8_t> grad_bytes = KernelTestValues(ACL_FLOAT, self.size(), 81);
  const int64_t count = static_cast<int64_t>(self.size());
  for (int64_t target : AvailableTargets()) {
    for (aclDataType out : kOutTypes) {
      const aclDataType promoted = ACL_FLOAT;
      const HardsigmoidBackwardRunFn vector = SelectKernel(ACL_FLOAT, ACL_FLOAT, promoted, out, target);
      const HardsigmoidBackwardRunFn scalar = SelectScalarKernel(ACL_FLOAT, ACL_FLOAT, promoted, out);
      std::vector<uint8_t> expected(self.size() * DtypeSize(out)), actual(expected.size(), 0xA5);
      scalar(grad_bytes.data(), 1, self.data(), 1, expected.data(), 1, count);
      vector(grad_bytes.data(), 1, self.data(), 1, actual.data(), 1, count);
      ASSERT_EQ(actual, expected) << TargetName(target) << " out " << DtypeName(out);
    }
  }
}

// The block kernel in place: out is gradOutput's buffer with gradOutput's layout.
TEST(SimdTileKernel, OutAliasingGradOutputMatchesOutOfPlace) {
  const int64_t size0 = 70, size1 = 131;
  for (int64_t target : AvailableTargets()) {
    for (aclDataType grad_and_out : kInputTypes) {
      const aclDataType self = ACL_FLOAT;
      const aclDataType promoted = PromoteFloatingTypes(grad_and_out, self);
      const HardsigmoidBackwardTileFn tile = SelectTileKernel(grad_and_out, self, promoted, grad_and_out, target);
      const size_t count = static_cast<size_t>(size0 * size1);
      std::vector<uint8_t> grad = KernelTestValues(grad_and_out, count, 61);
      const std::vector<uint8_t> self_values = KernelTestValues(self, count, 62);
      std::vector<uint8_t> expected(grad.size());
      tile(grad.data(), size1, 1, self_values.data(), size1, 1, expected.data(), size1, 1, size0, size1, false);
      tile(grad.data(), size1, 1, self_values.data(), size1, 1, grad.data(), size1, 1, size0, size1, false);
      ASSERT_EQ(grad, expected) << TargetName(target) << " " << DtypeName(grad_and_out);
    }
  }
}

// The non-temporal-store variants (float32 outputs stored directly; f16 and
// bf16 outputs computed in blocks of 4 KiB and copied out) against the scalar
// reference: lengths around lane and block boundaries and every misalignment of
// out relative to the vector size, so the aligning head, the body and the tail
// run. Misalignments that are not a multiple of the element size cannot be
// aligned at all and run without streaming. Inputs of `input_types` step by
// `input_stride` elements (out is dense: the plan streams only dense outs).
void ExpectStreamingKernelsMatchScalar(int64_t input_stride, const std::vector<aclDataType>& input_types) {
  for (int64_t target : AvailableTargets()) {
    for (aclDataType out : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      const size_t out_size = DtypeSize(out);
      const int64_t block = 4096 / static_cast<int64_t>(out_size);
      for (aclDataType grad : input_types) {
        for (aclDataType self : input_types) {
          const aclDataType promoted = PromoteFloatingTypes(grad, self);
          const HardsigmoidBackwardRunFn streaming = SelectStreamingKernel(grad, self, promoted, out, target);
          ASSERT_NE(streaming, nullptr) << TargetName(target) << " " << DtypeName(out);
          const HardsigmoidBackwardRunFn scalar = SelectScalarKernel(grad, self, promoted, out);
          for (int64_t misalign = 0; misalign < 17; ++misalign) {
            for (int64_t count : {int64_t{0}, int64_t{1}, int64_t{15}, int64_t{16}, int64_t{17}, int64_t{65},
                                  int64_t{1000}, block - 1, block + 40, 2 * block + 33}) {
              const size_t extent = static_cast<size_t>(misalign + count * input_stride);
              const std::vector<uint8_t>& g = SharedKernelTestValues(grad, extent, 11);
              const std::vector<uint8_t>& s = SharedKernelTestValues(self, extent, 12);
              const size_t out_extent = static_cast<size_t>(misalign + count);
              std::vector<uint8_t> expected((out_extent + 1) * out_size, 0xA5), actual(expected);
              const size_t g_off = DtypeSize(grad) * misalign, s_off = DtypeSize(self) * misalign;
              const size_t o_off = out_size * misalign;
              scalar(g.data() + g_off, input_stride, s.data() + s_off, input_stride, expected.data() + o_off, 1,
                     count);
              streaming(g.data() + g_off, input_stride, s.data() + s_off, input_stride, actual.data() + o_off, 1,
                        count);
              ASSERT_EQ(actual, expected) << TargetName(target) << " " << DtypeName(grad) << " "
                                          << DtypeName(self) << " -> " << DtypeName(out) << " count " << count
                                          << " misalign " << misalign << " input stride " << input_stride;
            }
          }
        }
      }
    }
    EXPECT_EQ(SelectStreamingKernel(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_DOUBLE, target), nullptr);
  }
}

TEST(SimdStreamingKernel, MatchesScalarForEveryTargetInputPathLengthAndMisalignment) {
  ExpectStreamingKernelsMatchScalar(1, {std::begin(kInputTypes), std::end(kInputTypes)});
}

// [::2] input views: float32 ones have their own streaming path (de-interleaved
// in registers); the others fall back to the strided kernels SimdKernel tests,
// so f16 stands for the 16-bit types here (the suite runs four times under qemu
// in CI).
TEST(SimdStreamingKernel, Step2InputsMatchScalarForEveryTargetOutLengthAndMisalignment) {
  ExpectStreamingKernelsMatchScalar(2, {ACL_FLOAT, ACL_FLOAT16});
}

// Runs `select`'s kernel in place (out is gradOutput's own buffer, same dtype,
// same layout, as a framework's in-place backward does) for every target and
// input path, against the scalar reference run out of place.
template <typename Selector>
void ExpectInPlaceMatchesOutOfPlace(Selector select, int64_t count) {
  for (int64_t target : AvailableTargets()) {
    for (aclDataType grad_and_out : kInputTypes) {
      for (aclDataType self : kInputTypes) {
        const aclDataType promoted = PromoteFloatingTypes(grad_and_out, self);
        std::vector<uint8_t> grad = KernelTestValues(grad_and_out, count, 5);
        const std::vector<uint8_t> self_values = KernelTestValues(self, count, 6);
        std::vector<uint8_t> expected(grad.size());
        SelectScalarKernel(grad_and_out, self, promoted, grad_and_out)(grad.data(), 1, self_values.data(), 1,
                                                                       expected.data(), 1, count);
        select(grad_and_out, self, promoted, grad_and_out, target)(grad.data(), 1, self_values.data(), 1,
                                                                   grad.data(), 1, count);
        EXPECT_EQ(grad, expected) << TargetName(target) << " " << DtypeName(grad_and_out) << " "
                                  << DtypeName(self);
      }
    }
  }
}

// Streaming in place, long enough for several blocks of a 16-bit output.
TEST(SimdStreamingKernel, OutAliasingGradOutputMatchesOutOfPlace) {
  ExpectInPlaceMatchesOutOfPlace(&SelectStreamingKernel, 5003);
}

TEST(SimdKernelInPlace, OutAliasingGradOutputMatchesOutOfPlace) {
  ExpectInPlaceMatchesOutOfPlace(&SelectKernel, 1003);
}

// Kernels exist for the dtype gradOutput and self compute in
// (PromoteFloatingTypes) only, the one phase 1 derives and passes: any other
// promoted dtype selects none, in the scalar reference and on every target, so
// a caller that got it wrong gets no kernel, not a different rounding.
TEST(SimdKernelSelection, OnlyThePromotedDtypeOfGradAndSelfHasKernels) {
  const aclDataType floats[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (aclDataType grad : floats) {
    for (aclDataType self : floats) {
      for (aclDataType promoted : floats) {
        const bool derived = promoted == PromoteFloatingTypes(grad, self);
        for (aclDataType out : kOutTypes) {
          const std::string path = std::string(DtypeName(grad)) + " " + DtypeName(self) + " " +
                                   DtypeName(promoted) + " " + DtypeName(out);
          EXPECT_EQ(SelectScalarKernel(grad, self, promoted, out) != nullptr, derived) << path;
          for (int64_t target : AvailableTargets()) {
            EXPECT_EQ(SelectKernel(grad, self, promoted, out, target) != nullptr, derived)
                << TargetName(target) << " " << path;
            EXPECT_EQ(SelectTileKernel(grad, self, promoted, out, target) != nullptr, derived)
                << TargetName(target) << " " << path;
            if (out != ACL_DOUBLE) {  // no streaming kernel writes double
              EXPECT_EQ(SelectStreamingKernel(grad, self, promoted, out, target) != nullptr, derived)
                  << TargetName(target) << " " << path;
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace aclcpu
