// aclnnHardsigmoid and aclnnInplaceHardsigmoid against PyTorch through the
// public API: the golden data of tests/golden/make_hardsigmoid_golden.py
// (torch.nn.functional.hardsigmoid for FLOAT and BFLOAT16, its float32 formula
// rounded once for FLOAT16, exact rationals then truncation for INT32), bit for
// bit (any NaN where the oracle gives NaN), contiguous and in every layout the
// contract names: strided, offset, transposed, broadcast self, 0-d, empty,
// rank 8, in place through non-contiguous views, split across threads, huge
// (non-temporal stores); nothing outside out's view is written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <unordered_map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "device_tensor.h"

#ifndef ACLCPU_HARDSIGMOID_GOLDEN_DIR
#error "ACLCPU_HARDSIGMOID_GOLDEN_DIR must name the directory of the golden files"
#endif

namespace {

using aclcpu_test::DeviceTensor;

constexpr uint8_t kSentinel = 0x7B;

// One golden file: self values and PyTorch's results, in raw bytes.
struct Golden {
  aclDataType dtype = ACL_DT_UNDEFINED;
  size_t element_size = 0;
  size_t count = 0;
  std::vector<uint8_t> self;
  std::vector<uint8_t> expected;
  std::unordered_map<uint32_t, uint32_t> by_input;  // input bits -> expected bits

  static Golden Load(aclDataType dtype) {
    const char* name = dtype == ACL_FLOAT ? "f32" : dtype == ACL_FLOAT16 ? "f16" : dtype == ACL_BF16 ? "bf16" : "i32";
    std::ifstream file(std::string(ACLCPU_HARDSIGMOID_GOLDEN_DIR) + "/" + name + ".bin", std::ios::binary);
    if (!file) throw std::runtime_error(std::string("cannot open golden file ") + name);
    std::string header;
    std::getline(file, header);
    Golden golden;
    golden.dtype = dtype;
    golden.element_size = aclDataTypeSize(dtype);
    const std::string expected_header = std::string("aclcpu-golden-hardsigmoid v1 dtype=") + name + " count=";
    if (header.compare(0, expected_header.size(), expected_header) != 0) throw std::runtime_error("bad header");
    golden.count = std::stoul(header.substr(expected_header.size()));
    golden.self.resize(golden.count * golden.element_size);
    golden.expected.resize(golden.count * golden.element_size);
    file.read(reinterpret_cast<char*>(golden.self.data()), static_cast<std::streamsize>(golden.self.size()));
    file.read(reinterpret_cast<char*>(golden.expected.data()), static_cast<std::streamsize>(golden.expected.size()));
    if (!file) throw std::runtime_error("golden file too short");
    for (size_t i = 0; i < golden.count; ++i) golden.by_input[golden.Bits(golden.self, i)] = golden.Bits(golden.expected, i);
    return golden;
  }

  uint32_t Bits(const std::vector<uint8_t>& bytes, size_t i) const { return BitsAt(bytes.data() + i * element_size); }
  uint32_t BitsAt(const uint8_t* p) const {
    uint32_t bits = 0;
    std::memcpy(&bits, p, element_size);
    return bits;
  }
  bool IsNan(uint32_t bits) const {
    switch (dtype) {
      case ACL_FLOAT: return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
      case ACL_FLOAT16: return (bits & 0x7C00u) == 0x7C00u && (bits & 0x03FFu) != 0;
      case ACL_BF16: return (bits & 0x7F80u) == 0x7F80u && (bits & 0x007Fu) != 0;
      default: return false;
    }
  }
  // The oracle's verdict on one element: bit for bit, any NaN for a NaN.
  bool Matches(uint32_t input, uint32_t actual) const {
    const uint32_t expected_bits = by_input.at(input);
    return actual == expected_bits || (IsNan(expected_bits) && IsNan(actual));
  }
};

const aclDataType kDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};

std::string DtypeLabel(const ::testing::TestParamInfo<aclDataType>& info) {
  return info.param == ACL_FLOAT ? "FLOAT" : info.param == ACL_FLOAT16 ? "FLOAT16" : info.param == ACL_BF16 ? "BF16" : "INT32";
}

class HardsigmoidGolden : public ::testing::TestWithParam<aclDataType> {
 protected:
  static void SetUpTestSuite() {
    stream_ = aclcpu_test::RuntimeFixture::Stream();
    for (aclDataType dtype : kDtypes) goldens_[dtype] = Golden::Load(dtype);
  }
  const Golden& golden() const { return goldens_.at(GetParam()); }

  // Fills the storage of `tensor` with golden inputs, element i of the storage
  // taking input (i * 7 + seed) mod count, and returns the storage bytes.
  std::vector<uint8_t> FillWithGoldenInputs(DeviceTensor& tensor, size_t seed) const {
    const Golden& g = golden();
    const size_t elements = tensor.storage_bytes() / g.element_size;
    std::vector<uint8_t> bytes(tensor.storage_bytes());
    for (size_t i = 0; i < elements; ++i) {
      std::memcpy(&bytes[i * g.element_size], &g.self[((i * 7 + seed) % g.count) * g.element_size], g.element_size);
    }
    tensor.Upload(bytes.data(), bytes.size());
    return bytes;
  }

  // Checks out's storage after a run: every element of out's view holds the
  // oracle's result for the self element at the same view index (`self_storage`,
  // read before the run, laid out as self's view says); every other byte is
  // the sentinel (`untouched` storage otherwise).
  void ExpectViewResults(const DeviceTensor& self, const std::vector<uint8_t>& self_storage, const DeviceTensor& out,
                         const std::vector<uint8_t>& out_storage_before) const {
    const Golden& g = golden();
    const std::vector<uint8_t> after = out.DownloadStorage();
    std::vector<uint8_t> expected_untouched = out_storage_before;
    const auto& shape = out.layout().shape;
    const int64_t count = aclcpu_test::NumElements(shape);
    size_t mismatches = 0;
    std::string first;
    std::vector<int64_t> index(shape.size(), 0);
    for (int64_t n = 0; n < count; ++n) {
      int64_t s_at = self.layout().offset, o_at = out.layout().offset;
      for (size_t d = 0; d < shape.size(); ++d) {
        s_at += index[d] * self.layout().strides[d];
        o_at += index[d] * out.layout().strides[d];
      }
      const uint32_t input = g.BitsAt(&self_storage[static_cast<size_t>(s_at) * g.element_size]);
      const uint32_t actual = g.BitsAt(&after[static_cast<size_t>(o_at) * g.element_size]);
      if (!g.Matches(input, actual) && mismatches++ == 0) {
        std::ostringstream text;
        text << "element " << n << ": self bits 0x" << std::hex << input << " gave 0x" << actual << ", expected 0x"
             << g.by_input.at(input);
        first = text.str();
      }
      std::memcpy(&expected_untouched[static_cast<size_t>(o_at) * g.element_size],
                  &after[static_cast<size_t>(o_at) * g.element_size], g.element_size);
      for (size_t d = shape.size(); d-- > 0;) {
        if (++index[d] < shape[d]) break;
        index[d] = 0;
      }
    }
    EXPECT_EQ(mismatches, 0u) << first;
    EXPECT_TRUE(after == expected_untouched) << "bytes outside out's view were written";
  }

  // Out of place: self and out with the given layouts (out starts as the sentinel).
  void RunOutOfPlace(DeviceTensor::Layout self_layout, DeviceTensor::Layout out_layout) {
    DeviceTensor self(GetParam(), std::move(self_layout));
    DeviceTensor out(GetParam(), std::move(out_layout), kSentinel);
    const std::vector<uint8_t> self_storage = FillWithGoldenInputs(self, 3);
    const std::vector<uint8_t> out_before = out.DownloadStorage();
    uint64_t workspace_size = 1;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnHardsigmoidGetWorkspaceSize(self.get(), out.get(), &workspace_size, &executor), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(workspace_size, 0u);
    ASSERT_EQ(aclnnHardsigmoid(nullptr, 0, executor, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectViewResults(self, self_storage, out, out_before);
  }

  // In place through self's own view; the storage outside the view keeps the
  // inputs it had.
  void RunInPlace(DeviceTensor::Layout layout) {
    DeviceTensor self(GetParam(), std::move(layout));
    const std::vector<uint8_t> self_storage = FillWithGoldenInputs(self, 5);
    uint64_t workspace_size = 1;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnInplaceHardsigmoidGetWorkspaceSize(self.get(), &workspace_size, &executor), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(workspace_size, 0u);
    ASSERT_EQ(aclnnInplaceHardsigmoid(nullptr, 0, executor, stream_), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    ExpectViewResults(self, self_storage, self, self_storage);
  }

  static DeviceTensor::Layout Dense(std::vector<int64_t> shape) {
    DeviceTensor::Layout layout;
    layout.shape = std::move(shape);
    return layout;
  }
  static DeviceTensor::Layout View(std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset,
                                   int64_t storage_elements = -1) {
    DeviceTensor::Layout layout;
    layout.shape = std::move(shape);
    layout.strides = std::move(strides);
    layout.offset = offset;
    layout.storage_elements = storage_elements;
    return layout;
  }

  static aclrtStream stream_;
  static std::map<aclDataType, Golden> goldens_;
};

aclrtStream HardsigmoidGolden::stream_ = nullptr;
std::map<aclDataType, Golden> HardsigmoidGolden::goldens_;

// The whole golden file as one contiguous tensor: every value the oracle has
// (all 65,536 patterns for the 16-bit types).
TEST_P(HardsigmoidGolden, EveryGoldenValueMatchesTheOracleBitForBit) {
  const Golden& g = golden();
  DeviceTensor self(GetParam(), {static_cast<int64_t>(g.count)});
  DeviceTensor out(GetParam(), Dense({static_cast<int64_t>(g.count)}), kSentinel);
  self.Upload(g.self.data(), g.self.size());
  uint64_t workspace_size = 1;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnHardsigmoidGetWorkspaceSize(self.get(), out.get(), &workspace_size, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoid(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<uint8_t> actual = out.DownloadStorage();
  size_t mismatches = 0;
  for (size_t i = 0; i < g.count; ++i) mismatches += !g.Matches(g.Bits(g.self, i), g.Bits(actual, i));
  EXPECT_EQ(mismatches, 0u);
}

TEST_P(HardsigmoidGolden, InPlaceGivesTheOutOfPlaceResult) { RunInPlace(Dense({static_cast<int64_t>(golden().count)})); }

TEST_P(HardsigmoidGolden, ContiguousViewsOfSeveralShapes) {
  RunOutOfPlace(Dense({2, 3, 4}), Dense({2, 3, 4}));
  RunOutOfPlace(Dense({1}), Dense({1}));
  RunOutOfPlace(Dense({1000, 3}), Dense({1000, 3}));
}

TEST_P(HardsigmoidGolden, ZeroDimTensor) { RunOutOfPlace(Dense({}), Dense({})); }

TEST_P(HardsigmoidGolden, EmptyTensorWritesNothing) {
  RunOutOfPlace(View({0, 3}, {3, 1}, 0, 4), View({0, 3}, {3, 1}, 0, 4));
}

TEST_P(HardsigmoidGolden, OffsetAndStridedViews) {
  RunOutOfPlace(View({37, 5}, {10, 2}, 3), View({37, 5}, {7, 1}, 2));  // [::2] self, padded rows
  RunOutOfPlace(View({300}, {3}, 1), View({300}, {2}, 5));
}

// Self read along its rows and out written along its own: the block kernel
// (ops/shared/simd/transposed_tiles-inl.h), with sizes that are not multiples
// of its 64 x 128 blocks, a padded and offset pitch, a batch of planes, and a
// self stepping by 2 along its rows (the block kernel's element-by-element
// path).
TEST_P(HardsigmoidGolden, TransposedViews) {
  RunOutOfPlace(View({70, 90}, {1, 70}, 0), Dense({70, 90}));
  RunOutOfPlace(Dense({70, 90}), View({70, 90}, {1, 70}, 0));
  RunOutOfPlace(View({133, 37}, {1, 140}, 5), Dense({133, 37}));
  RunOutOfPlace(View({3, 45, 130}, {6000, 1, 46}, 2), Dense({3, 45, 130}));
  RunOutOfPlace(View({40, 50}, {2, 100}, 1), Dense({40, 50}));
}

TEST_P(HardsigmoidGolden, BroadcastSelf) {
  RunOutOfPlace(View({40, 33}, {0, 1}, 2, 40), Dense({40, 33}));
  RunOutOfPlace(View({257}, {0}, 0, 1), Dense({257}));
}

TEST_P(HardsigmoidGolden, RankEightNonContiguous) {
  RunOutOfPlace(View({2, 1, 3, 2, 2, 1, 3, 2}, {400, 200, 60, 30, 12, 6, 4, 2}, 1),
                Dense({2, 1, 3, 2, 2, 1, 3, 2}));
}

TEST_P(HardsigmoidGolden, InPlaceThroughNonContiguousViews) {
  RunInPlace(View({37, 5}, {10, 2}, 3));
  RunInPlace(View({70, 90}, {1, 70}, 0));
  RunInPlace(View({2, 3, 4, 5, 1, 2, 1, 3}, {400, 130, 30, 6, 5, 3, 2, 1}, 7));
}

// Large enough to be split across threads (when ACLCPU_NUM_THREADS allows).
TEST_P(HardsigmoidGolden, LaunchesSplitAcrossThreads) {
  RunOutOfPlace(Dense({300000}), Dense({300000}));
  RunOutOfPlace(View({600, 500}, {1000, 2}, 1), Dense({600, 500}));
  RunOutOfPlace(View({600, 500}, {1, 600}, 0), Dense({600, 500}));  // transposed: the block kernel
  RunInPlace(Dense({300000}));
}

// Beyond 48 MiB moved: non-temporal stores out of place; in place, where out's
// lines are read anyway, ordinary stores (ops/shared/elementwise_plan.cc).
TEST_P(HardsigmoidGolden, HugeLaunchesWithNonTemporalStores) {
  const int64_t count = (int64_t{56} << 20) / (2 * static_cast<int64_t>(aclDataTypeSize(GetParam()))) + 13;
  RunOutOfPlace(View({count}, {1}, 1, count + 1), View({count}, {1}, 3, count + 5));
  RunInPlace(View({count}, {1}, 5, count + 5));
}

// The same through rows of out with gaps between them, streamed row by row
// (rows of 2 KiB and more; ops/shared/elementwise_plan.cc), every row's ends by
// ordinary stores: out of place, and in place through such a view (ordinary
// stores throughout).
TEST_P(HardsigmoidGolden, HugeLaunchesWithRowsOfOutWithNonTemporalStores) {
  const int64_t cols = 4200 / static_cast<int64_t>(aclDataTypeSize(GetParam()));  // 4200 bytes a row
  const int64_t rows = (int64_t{56} << 20) / (2 * cols * static_cast<int64_t>(aclDataTypeSize(GetParam()))) + 3;
  RunOutOfPlace(View({rows, cols}, {cols + 7, 1}, 1), View({rows, cols}, {cols + 3, 1}, 3, (cols + 3) * rows + 5));
  RunInPlace(View({rows, cols}, {cols + 5, 1}, 2, (cols + 5) * rows + 5));
}

INSTANTIATE_TEST_SUITE_P(EveryDtype, HardsigmoidGolden, ::testing::ValuesIn(kDtypes), DtypeLabel);

// The contract's special values, by name: NaN propagates, +inf gives 1, -inf
// gives 0, -0 gives 0.5 — through the API, out of place and in place, for each
// floating dtype (each input is also in the golden data, whose oracle must agree).
class HardsigmoidSpecialValues : public HardsigmoidGolden {};

TEST_P(HardsigmoidSpecialValues, NanPropagatesInfinitiesGiveOneAndZeroNegativeZeroGivesHalf) {
  const aclDataType dtype = GetParam();
  const float inputs[] = {NAN, INFINITY, -INFINITY, -0.0f};
  const float expected[] = {NAN, 1.0f, 0.0f, 0.5f};
  std::vector<uint8_t> bytes;
  for (float value : inputs) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    if (dtype == ACL_FLOAT16) bits = aclFloatToFloat16(value);
    if (dtype == ACL_BF16) bits >>= 16;  // exact for these values
    bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(&bits), reinterpret_cast<uint8_t*>(&bits) + golden().element_size);
  }
  for (bool in_place : {false, true}) {
    DeviceTensor self(dtype, {4});
    DeviceTensor out(dtype, Dense({4}), kSentinel);
    self.Upload(bytes.data(), bytes.size());
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    if (in_place) {
      ASSERT_EQ(aclnnInplaceHardsigmoidGetWorkspaceSize(self.get(), &workspace_size, &executor), ACLNN_SUCCESS);
      ASSERT_EQ(aclnnInplaceHardsigmoid(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
    } else {
      ASSERT_EQ(aclnnHardsigmoidGetWorkspaceSize(self.get(), out.get(), &workspace_size, &executor), ACLNN_SUCCESS);
      ASSERT_EQ(aclnnHardsigmoid(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
    }
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    const std::vector<uint8_t> result = (in_place ? self : out).DownloadStorage();
    for (size_t i = 0; i < 4; ++i) {
      const uint32_t input = golden().BitsAt(&bytes[i * golden().element_size]);
      const uint32_t actual = golden().BitsAt(&result[i * golden().element_size]);
      EXPECT_TRUE(golden().Matches(input, actual)) << "input " << inputs[i] << (in_place ? " in place" : "");
      const float widened = dtype == ACL_FLOAT16 ? aclFloat16ToFloat(static_cast<aclFloat16>(actual))
                            : dtype == ACL_BF16  ? [&] {
                                const uint32_t wide = actual << 16;
                                float f;
                                std::memcpy(&f, &wide, 4);
                                return f;
                              }()
                                                 : [&] {
                                float f;
                                std::memcpy(&f, &actual, 4);
                                return f;
                              }();
      if (std::isnan(expected[i])) {
        EXPECT_TRUE(std::isnan(widened)) << "input " << inputs[i];
      } else {
        EXPECT_EQ(widened, expected[i]) << "input " << inputs[i];
        EXPECT_FALSE(std::signbit(widened)) << "input " << inputs[i];
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FloatingDtypes, HardsigmoidSpecialValues, ::testing::Values(ACL_FLOAT, ACL_FLOAT16, ACL_BF16),
                         DtypeLabel);



}  // namespace
