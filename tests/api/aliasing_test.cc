// Aliasing between out and the inputs of aclnnHardsigmoidBackward (README
// "Aliasing"): one test per rule.
//   - An out view whose elements may share memory is refused in phase 1 (161002).
//   - out in place over gradOutput or self (same memory, same view) gives the
//     out-of-place result on every path and for every dtype mix.
//   - Any other overlap gives what reading every input before writing gives (the
//     overlapping input is staged through the workspace phase 1 reports); strict
//     mode refuses it (161002).
//   - Addresses rebound after phase 1 that create an overlap phase 1 did not plan
//     for are refused in phase 2; a workspace smaller than phase 1 asked for is
//     refused in every mode.
//
// The oracle of every result is the same call on private copies of the buffers
// (no operand shares memory with another), whose numerics the op suite checks
// against PyTorch. The whole suite also runs under strict mode
// (scripts/ci/05-strict.sh) and, for the overlap cases, under 1 and 3 threads
// (tests/api/CMakeLists.txt): the answer must not depend on the thread split.
#include <gtest/gtest.h>

#include <strings.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "api_test_util.h"

namespace aclcpu_api_test {
namespace {

// Device memory of `bytes`, filled with values that straddle the (-3, 3) window
// encoded as `fill_dtype` (whatever role each part of it plays later).
class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, aclDataType fill_dtype) : bytes_(bytes) {
    if (aclrtMalloc(&device_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) throw std::runtime_error("malloc");
    const size_t element = aclDataTypeSize(fill_dtype);
    std::vector<float> values(bytes_ / element);
    for (size_t i = 0; i < values.size(); ++i) values[i] = -4.5f + 0.375f * static_cast<float>((i * 7) % 25);
    std::vector<uint8_t> host = EncodeAs(fill_dtype, values);
    host.resize(bytes_, 0);
    Upload(host);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { aclrtFree(device_); }

  void Upload(const std::vector<uint8_t>& host) {
    if (aclrtMemcpy(device_, bytes_, host.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
      throw std::runtime_error("memcpy");
    }
  }
  std::vector<uint8_t> Download() const {
    std::vector<uint8_t> host(bytes_);
    if (aclrtMemcpy(host.data(), bytes_, device_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
      throw std::runtime_error("memcpy");
    }
    return host;
  }
  char* device() const { return static_cast<char*>(device_); }
  size_t bytes() const { return bytes_; }

 private:
  size_t bytes_;
  void* device_ = nullptr;
};

// A view (dtype, shape, strides, offset in elements) of one of a case's buffers.
struct ViewSpec {
  int buffer = 0;
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // empty: row-major
  int64_t offset = 0;
};

// An aclTensor over memory it does not own (its storage is the whole buffer).
class ViewTensor {
 public:
  ViewTensor(const ViewSpec& spec, const DeviceBuffer& buffer) {
    std::vector<int64_t> strides = spec.strides.empty() ? aclcpu_test::RowMajorStrides(spec.shape) : spec.strides;
    const int64_t storage[1] = {static_cast<int64_t>(buffer.bytes() / aclDataTypeSize(spec.dtype))};
    tensor_ = aclCreateTensor(spec.shape.data(), spec.shape.size(), spec.dtype, strides.data(), spec.offset,
                              ACL_FORMAT_ND, storage, 1, buffer.device());
    if (tensor_ == nullptr) throw std::runtime_error("aclCreateTensor");
  }
  ViewTensor(const ViewTensor&) = delete;
  ViewTensor& operator=(const ViewTensor&) = delete;
  ~ViewTensor() { aclDestroyTensor(tensor_); }
  aclTensor* get() const { return tensor_; }

 private:
  aclTensor* tensor_ = nullptr;
};

struct AliasCase {
  std::string name;
  std::vector<size_t> buffer_bytes;  // the case's buffers
  ViewSpec grad, self, out;
};

// Buffers for `c`, each filled as the dtype of the first view that uses it.
std::vector<std::unique_ptr<DeviceBuffer>> MakeBuffers(const AliasCase& c) {
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  for (size_t b = 0; b < c.buffer_bytes.size(); ++b) {
    aclDataType fill = c.out.dtype;
    for (const ViewSpec* spec : {&c.out, &c.self, &c.grad}) {
      if (spec->buffer == static_cast<int>(b)) fill = spec->dtype;
    }
    buffers.push_back(std::make_unique<DeviceBuffer>(c.buffer_bytes[b], fill));
  }
  return buffers;
}

// The oracle: the call on private copies of each operand's buffer. Returns
// what out's buffer holds afterwards.
std::vector<uint8_t> OutOfPlaceResult(const AliasCase& c, aclrtStream stream) {
  const std::vector<std::unique_ptr<DeviceBuffer>> original = MakeBuffers(c);
  const auto private_copy = [&](const ViewSpec& spec) {
    auto copy = std::make_unique<DeviceBuffer>(c.buffer_bytes[spec.buffer], spec.dtype);
    copy->Upload(original[spec.buffer]->Download());
    return copy;
  };
  const auto grad_buffer = private_copy(c.grad), self_buffer = private_copy(c.self), out_buffer = private_copy(c.out);
  const ViewTensor grad(c.grad, *grad_buffer), self(c.self, *self_buffer), out(c.out, *out_buffer);
  EXPECT_EQ(aclcpu_test::RunHardsigmoidBackward(grad.get(), self.get(), out.get(), stream), ACLNN_SUCCESS)
      << TakeRecentErrMsg();
  return out_buffer->Download();
}

class Aliasing : public ApiTest {
 protected:
  // Runs `c` with its views sharing memory as described and checks the result
  // against OutOfPlaceResult: out's buffer equals the oracle's, every other
  // buffer is unchanged. `expect_workspace` says whether phase 1 must ask for
  // staging workspace (an overlap other than in place).
  void ExpectSameAsOutOfPlace(const AliasCase& c, bool expect_workspace) {
    SCOPED_TRACE(c.name);
    const std::vector<uint8_t> expected_out = OutOfPlaceResult(c, stream_);
    const std::vector<std::unique_ptr<DeviceBuffer>> buffers = MakeBuffers(c);
    std::vector<std::vector<uint8_t>> before;
    for (const auto& buffer : buffers) before.push_back(buffer->Download());
    const ViewTensor grad(c.grad, *buffers[c.grad.buffer]), self(c.self, *buffers[c.self.buffer]),
        out(c.out, *buffers[c.out.buffer]);
    const Phase1Result phase1 = CallPhase1(grad.get(), self.get(), out.get());
    if (expect_workspace && StrictModeRequested()) {
      // Strict mode: a partial overlap is refused, naming out and an input.
      EXPECT_EQ(phase1.status, ACLNN_ERR_PARAM_INVALID);
      EXPECT_TRUE(NamesIdentifier(phase1.message, "out")) << phase1.message;
      EXPECT_TRUE(Contains(phase1.message, "overlaps")) << phase1.message;
      for (size_t b = 0; b < buffers.size(); ++b) EXPECT_EQ(buffers[b]->Download(), before[b]) << "buffer " << b;
      return;
    }
    ASSERT_EQ(phase1.status, ACLNN_SUCCESS) << phase1.message;
    if (expect_workspace) {
      EXPECT_GT(phase1.workspace_size, 0u) << "an overlapping input needs staging workspace";
    } else {
      EXPECT_EQ(phase1.workspace_size, 0u);
    }
    ASSERT_EQ(LaunchAndWait(phase1.executor, phase1.workspace_size, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
    for (size_t b = 0; b < buffers.size(); ++b) {
      const std::vector<uint8_t> actual = buffers[b]->Download();
      if (static_cast<int>(b) == c.out.buffer) {
        size_t first_difference = 0;
        while (first_difference < actual.size() && actual[first_difference] == expected_out[first_difference]) {
          ++first_difference;
        }
        EXPECT_EQ(first_difference, actual.size()) << "out's buffer differs from the out-of-place result at byte "
                                                    << first_difference;
      } else {
        EXPECT_EQ(actual, before[b]) << "buffer " << b << " (read only) changed";
      }
    }
  }
};

size_t Bytes(int64_t elements, aclDataType dtype) { return static_cast<size_t>(elements) * aclDataTypeSize(dtype); }

// ---- out's own elements ---------------------------------------------------------------

TEST_F(Aliasing, OutViewWithElementsSharingMemoryIsRefusedWith161002) {
  struct Shared {
    const char* what;
    std::vector<int64_t> shape, strides;
  };
  const Shared cases[] = {
      {"zero stride", {4}, {0}},
      {"zero stride in an outer dim", {3, 5}, {0, 1}},
      {"strides that meet", {3, 3}, {1, 1}},
      {"2^50 elements of stride 0 over 64 bytes", {int64_t{1} << 50}, {0}},
      {"inner dim reaching past the outer stride", {2, 4}, {3, 1}},
  };
  for (const Shared& shared : cases) {
    SCOPED_TRACE(shared.what);
    DeviceTensor::Layout layout;
    layout.shape = shared.shape;
    layout.strides = shared.strides;
    layout.storage_elements = 16;
    DeviceTensor grad(ACL_FLOAT, layout), self(ACL_FLOAT, layout), out(ACL_FLOAT, layout, kSentinelByte);
    const Phase1Result result = CallPhase1(grad.get(), self.get(), out.get());
    ExpectRejected(result, ACLNN_ERR_PARAM_INVALID, {"out"}, &out);
    EXPECT_TRUE(Contains(result.message, "stride")) << "the message should state the rule: " << result.message;
  }
}

TEST_F(Aliasing, OutViewWithAZeroStrideOnlyInSizeOneDimsIsAccepted) {
  DeviceTensor::Layout layout;
  layout.shape = {1, 6, 1};
  layout.strides = {0, 1, 0};
  Operands operands(ACL_FLOAT, layout, ACL_FLOAT, layout, ACL_FLOAT, layout);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  ASSERT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
}

// ---- in place --------------------------------------------------------------------------

struct InPlaceLayout {
  const char* name;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // of the shared view; empty: row-major
  int64_t storage_elements;      // of the shared buffer
  std::vector<int64_t> other_strides;  // of the other input's own buffer; empty: row-major
};

const InPlaceLayout kInPlaceLayouts[] = {
    // Inline (<= 4096 elements), vector body and scalar tail.
    {"contiguous_1003", {1003}, {}, 1003, {}},
    // Split across threads (> 128 KiB a part).
    {"contiguous_threaded_1M", {1 << 20}, {}, 1 << 20, {}},
    // [::2] views: the strided path.
    {"step2_5001", {5001}, {2}, 10002, {2}},
    // Transposed views of a 67 x 131 buffer, the other input dense: the tiled path.
    {"transposed_67x131", {67, 131}, {1, 67}, 67 * 131, {}},
    // Transposed and split across threads.
    {"transposed_threaded_700x700", {700, 700}, {1, 700}, 700 * 700, {}},
};

struct InPlaceParam {
  aclDataType grad, self;
  bool over_grad;  // out is gradOutput's view (else self's), with its dtype
  int layout;
};

std::string InPlaceName(const ::testing::TestParamInfo<InPlaceParam>& info) {
  const auto name = [](aclDataType dtype) {
    return dtype == ACL_FLOAT ? "f32" : dtype == ACL_FLOAT16 ? "f16" : "bf16";
  };
  return std::string(kInPlaceLayouts[info.param.layout].name) + "_grad_" + name(info.param.grad) + "_self_" +
         name(info.param.self) + (info.param.over_grad ? "_out_is_grad" : "_out_is_self");
}

std::vector<InPlaceParam> AllInPlaceParams() {
  std::vector<InPlaceParam> params;
  for (int layout = 0; layout < static_cast<int>(std::size(kInPlaceLayouts)); ++layout) {
    for (aclDataType grad : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      for (aclDataType self : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
        for (bool over_grad : {true, false}) params.push_back({grad, self, over_grad, layout});
      }
    }
  }
  return params;
}

class InPlace : public Aliasing, public ::testing::WithParamInterface<InPlaceParam> {};

TEST_P(InPlace, OutInPlaceOverAnInputMatchesOutOfPlace) {
  const InPlaceParam& p = GetParam();
  const InPlaceLayout& layout = kInPlaceLayouts[p.layout];
  const aclDataType shared_dtype = p.over_grad ? p.grad : p.self;
  const aclDataType other_dtype = p.over_grad ? p.self : p.grad;
  AliasCase c;
  c.name = InPlaceName({p, 0});
  int64_t other_extent = aclcpu_test::StorageExtent(
      layout.shape, layout.other_strides.empty() ? aclcpu_test::RowMajorStrides(layout.shape) : layout.other_strides,
      0);
  c.buffer_bytes = {Bytes(layout.storage_elements, shared_dtype), Bytes(other_extent, other_dtype)};
  const ViewSpec shared{0, shared_dtype, layout.shape, layout.strides, 0};
  const ViewSpec other{1, other_dtype, layout.shape, layout.other_strides, 0};
  c.grad = p.over_grad ? shared : other;
  c.self = p.over_grad ? other : shared;
  c.out = shared;
  ExpectSameAsOutOfPlace(c, /*expect_workspace=*/false);
}

INSTANTIATE_TEST_SUITE_P(EveryPathAndDtypeMix, InPlace, ::testing::ValuesIn(AllInPlaceParams()), InPlaceName);

// Huge contiguous in-place calls (ordinary stores in place: phase 1 keeps the
// non-temporal-store kernels for out-of-place launches, ops/shared/
// elementwise_plan.cc).
TEST_F(Aliasing, HugeOutInPlaceOverGradOutputMatchesOutOfPlace) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    // Above the 48 MiB footprint of the three views from which launches out of
    // place stream.
    const int64_t n = (int64_t{50} << 20) / (3 * static_cast<int64_t>(aclDataTypeSize(dtype))) + 3;
    AliasCase c;
    c.name = std::string("streaming ") + std::to_string(dtype);
    c.buffer_bytes = {Bytes(n, dtype), Bytes(n, dtype)};
    c.grad = {0, dtype, {n}, {}, 0};
    c.self = {1, dtype, {n}, {}, 0};
    c.out = c.grad;
    ExpectSameAsOutOfPlace(c, /*expect_workspace=*/false);
  }
}

// ---- other overlaps ----------------------------------------------------------------------

AliasCase TransposedOutOverGrad(aclDataType dtype, int64_t n) {
  AliasCase c;
  c.name = "out transposed over gradOutput's buffer, n=" + std::to_string(n) + " dtype " + std::to_string(dtype);
  c.buffer_bytes = {Bytes(n * n, dtype), Bytes(n * n, dtype)};
  c.grad = {0, dtype, {n, n}, {}, 0};
  c.self = {1, dtype, {n, n}, {}, 0};
  c.out = {0, dtype, {n, n}, {1, n}, 0};
  return c;
}

AliasCase ShiftedOutOverGrad(aclDataType grad_dtype, aclDataType self_dtype, int64_t n, int64_t shift) {
  AliasCase c;
  c.name = "out shifted by " + std::to_string(shift) + " elements from gradOutput, n=" + std::to_string(n);
  const int64_t lead = shift < 0 ? -shift : shift;
  c.buffer_bytes = {Bytes(n + lead, grad_dtype), Bytes(n, self_dtype)};
  c.grad = {0, grad_dtype, {n}, {}, shift < 0 ? lead : 0};
  c.self = {1, self_dtype, {n}, {}, 0};
  c.out = {0, grad_dtype, {n}, {}, shift < 0 ? 0 : lead};
  return c;
}

TEST_F(Aliasing, OutTransposedOverGradOutputsBufferEqualsReadingInputsFirst) {
  for (int64_t n : {64, 1000}) ExpectSameAsOutOfPlace(TransposedOutOverGrad(ACL_FLOAT, n), true);
  ExpectSameAsOutOfPlace(TransposedOutOverGrad(ACL_FLOAT16, 64), true);
  ExpectSameAsOutOfPlace(TransposedOutOverGrad(ACL_BF16, 257), true);
}

TEST_F(Aliasing, OutContiguousOverTransposedGradOutputEqualsReadingInputsFirst) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    AliasCase c = TransposedOutOverGrad(dtype, 300);
    c.name = "out contiguous over transposed gradOutput, dtype " + std::to_string(dtype);
    c.grad.strides = {1, 300};
    c.out.strides = {};
    ExpectSameAsOutOfPlace(c, true);
  }
}

TEST_F(Aliasing, OutTransposedOverSelfsBufferEqualsReadingInputsFirst) {
  AliasCase c = TransposedOutOverGrad(ACL_FLOAT, 129);
  c.name = "out transposed over self's buffer";
  std::swap(c.grad.buffer, c.self.buffer);
  ExpectSameAsOutOfPlace(c, true);
}

TEST_F(Aliasing, OutShiftedAfterGradOutputEqualsReadingInputsFirst) {
  ExpectSameAsOutOfPlace(ShiftedOutOverGrad(ACL_FLOAT, ACL_FLOAT, 1000000, 17), true);
  ExpectSameAsOutOfPlace(ShiftedOutOverGrad(ACL_FLOAT16, ACL_FLOAT16, 1000000, 17), true);
  ExpectSameAsOutOfPlace(ShiftedOutOverGrad(ACL_BF16, ACL_BF16, 3001, 1), true);
  ExpectSameAsOutOfPlace(ShiftedOutOverGrad(ACL_FLOAT, ACL_FLOAT16, 70001, 5), true);
}

TEST_F(Aliasing, OutShiftedBeforeGradOutputEqualsReadingInputsFirst) {
  // Right on one thread even without staging; the split across threads is
  // what used to go wrong near its boundary.
  ExpectSameAsOutOfPlace(ShiftedOutOverGrad(ACL_FLOAT, ACL_FLOAT, 1000000, -17), true);
  ExpectSameAsOutOfPlace(ShiftedOutOverGrad(ACL_BF16, ACL_FLOAT, 1000000, -3), true);
}

TEST_F(Aliasing, BroadcastInputInsideOutEqualsReadingInputsFirst) {
  // self is row 0 of out's buffer broadcast over every row.
  const int64_t rows = 40, cols = 333;
  AliasCase c;
  c.name = "self broadcast from out's first row";
  c.buffer_bytes = {Bytes(rows * cols, ACL_FLOAT), Bytes(rows * cols, ACL_FLOAT)};
  c.grad = {1, ACL_FLOAT, {rows, cols}, {}, 0};
  c.self = {0, ACL_FLOAT, {rows, cols}, {0, 1}, 0};
  c.out = {0, ACL_FLOAT, {rows, cols}, {}, 0};
  ExpectSameAsOutOfPlace(c, true);
}

TEST_F(Aliasing, BothInputsOverlappingOutEqualsReadingInputsFirst) {
  const int64_t n = 5000;
  AliasCase c;
  c.name = "gradOutput and self both shifted against out in one buffer";
  c.buffer_bytes = {Bytes(n + 20, ACL_FLOAT)};
  c.grad = {0, ACL_FLOAT, {n}, {}, 0};
  c.self = {0, ACL_FLOAT, {n}, {}, 20};
  c.out = {0, ACL_FLOAT, {n}, {}, 9};
  ExpectSameAsOutOfPlace(c, true);
}

TEST_F(Aliasing, DisjointViewsOfOneBufferNeedNoWorkspace) {
  const int64_t n = 4000;
  AliasCase c;
  c.name = "three disjoint thirds of one buffer";
  c.buffer_bytes = {Bytes(3 * n, ACL_FLOAT)};
  c.grad = {0, ACL_FLOAT, {n}, {}, 0};
  c.self = {0, ACL_FLOAT, {n}, {}, n};
  c.out = {0, ACL_FLOAT, {n}, {}, 2 * n};
  ExpectSameAsOutOfPlace(c, false);
}

// Interleaved views of one buffer whose byte ranges meet but whose bytes do not
// ([0::2] and [1::2]; even and odd rows) are read in place: no workspace, and
// strict mode accepts them (ExpectSameAsOutOfPlace expects no refusal without
// workspace).
TEST_F(Aliasing, InterleavedViewsOfOneBufferShareNoByteAndNeedNoWorkspace) {
  const int64_t n = 5000;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    AliasCase c;
    c.name = "out [1::2] and gradOutput [0::2] of one buffer, dtype " + std::to_string(dtype);
    c.buffer_bytes = {Bytes(2 * n, dtype), Bytes(n, dtype)};
    c.grad = {0, dtype, {n}, {2}, 0};
    c.self = {1, dtype, {n}, {}, 0};
    c.out = {0, dtype, {n}, {2}, 1};
    ExpectSameAsOutOfPlace(c, false);
  }
  const int64_t rows = 64, cols = 301;
  AliasCase c;
  c.name = "out the odd rows, self the even rows of one buffer";
  c.buffer_bytes = {Bytes(2 * rows * cols, ACL_FLOAT), Bytes(rows * cols, ACL_FLOAT)};
  c.grad = {1, ACL_FLOAT, {rows, cols}, {}, 0};
  c.self = {0, ACL_FLOAT, {rows, cols}, {2 * cols, 1}, 0};
  c.out = {0, ACL_FLOAT, {rows, cols}, {2 * cols, 1}, cols};
  ExpectSameAsOutOfPlace(c, false);
}

TEST_F(Aliasing, StridedViewsOfOneLayoutThatShareElementsAreStaged) {
  // [0::2] and [2::2] of one buffer: the same strides, and every element but
  // one end's is in both.
  const int64_t n = 3000;
  AliasCase c;
  c.name = "out [2::2] over gradOutput [0::2]";
  c.buffer_bytes = {Bytes(2 * n + 2, ACL_FLOAT), Bytes(n, ACL_FLOAT)};
  c.grad = {0, ACL_FLOAT, {n}, {2}, 0};
  c.self = {1, ACL_FLOAT, {n}, {}, 0};
  c.out = {0, ACL_FLOAT, {n}, {2}, 2};
  ExpectSameAsOutOfPlace(c, true);
}

// ---- phase 2 ------------------------------------------------------------------------------

TEST_F(Aliasing, WorkspaceSmallerThanPhase1AskedForIsRefusedInEveryMode) {
  if (StrictModeRequested()) GTEST_SKIP() << "strict mode refuses the overlap itself (see the overlap tests)";
  const AliasCase c = ShiftedOutOverGrad(ACL_FLOAT, ACL_FLOAT, 5000, 3);
  const std::vector<std::unique_ptr<DeviceBuffer>> buffers = MakeBuffers(c);
  const std::vector<uint8_t> before = buffers[0]->Download();
  const ViewTensor grad(c.grad, *buffers[0]), self(c.self, *buffers[1]), out(c.out, *buffers[0]);
  const Phase1Result phase1 = CallPhase1(grad.get(), self.get(), out.get());
  ASSERT_EQ(phase1.status, ACLNN_SUCCESS) << phase1.message;
  ASSERT_GT(phase1.workspace_size, 0u);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(phase1.executor), ACLNN_SUCCESS);
  Workspace small(phase1.workspace_size - 1);
  for (void* workspace : {static_cast<void*>(nullptr), small.get()}) {
    const uint64_t size = workspace == nullptr ? 0 : small.size();
    ClearRecentErrMsgs();
    EXPECT_EQ(aclnnHardsigmoidBackward(workspace, size, phase1.executor, stream_), ACLNN_ERR_PARAM_INVALID);
    EXPECT_TRUE(Contains(TakeRecentErrMsg(), "workspaceSize"));
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(buffers[0]->Download(), before) << "a refused launch wrote";
  EXPECT_EQ(aclDestroyAclOpExecutor(phase1.executor), ACLNN_SUCCESS);
}

TEST_F(Aliasing, RebindingThatCreatesAnOverlapIsRefusedInPhase2) {
  const int64_t n = 3000;
  const AliasCase c = ShiftedOutOverGrad(ACL_FLOAT, ACL_FLOAT, n, 0);  // out at gradOutput's address
  const std::vector<std::unique_ptr<DeviceBuffer>> buffers = MakeBuffers(c);
  DeviceBuffer out_buffer(Bytes(n, ACL_FLOAT), ACL_FLOAT);
  const ViewTensor grad(c.grad, *buffers[0]), self(c.self, *buffers[1]), out(c.out, out_buffer);
  const Phase1Result phase1 = CallPhase1(grad.get(), self.get(), out.get());
  ASSERT_EQ(phase1.status, ACLNN_SUCCESS) << phase1.message;
  ASSERT_EQ(phase1.workspace_size, 0u) << "out is disjoint at phase 1";
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(phase1.executor), ACLNN_SUCCESS);
  const std::vector<uint8_t> before = buffers[0]->Download();

  // Rebound 3 elements into gradOutput: a partial overlap nobody staged.
  ASSERT_EQ(aclSetOutputTensorAddr(phase1.executor, 0, out.get(), buffers[0]->device() + 3 * sizeof(float)),
            ACLNN_SUCCESS);
  ClearRecentErrMsgs();
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, phase1.executor, stream_), ACLNN_ERR_PARAM_INVALID);
  const std::string message = TakeRecentErrMsg();
  EXPECT_TRUE(NamesIdentifier(message, "out") && NamesIdentifier(message, "gradOutput")) << message;
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(buffers[0]->Download(), before) << "a refused launch wrote";

  // Rebound onto gradOutput itself: in place, which is fine.
  const std::vector<uint8_t> expected = OutOfPlaceResult(c, stream_);
  ASSERT_EQ(aclSetOutputTensorAddr(phase1.executor, 0, out.get(), buffers[0]->device()), ACLNN_SUCCESS);
  EXPECT_EQ(LaunchAndWait(phase1.executor, 0, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(buffers[0]->Download(), expected);
  EXPECT_EQ(aclDestroyAclOpExecutor(phase1.executor), ACLNN_SUCCESS);
}

TEST_F(Aliasing, RebindingToAnInterleavedViewOfAnInputsBufferIsAccepted) {
  // out [1::2] of gradOutput's buffer ([0::2]) after phase 1 saw it elsewhere:
  // the bytes interleave without meeting, so phase 2 needs no workspace.
  const int64_t n = 3000;
  AliasCase c;
  c.name = "out rebound to [1::2] of gradOutput's buffer";
  c.buffer_bytes = {Bytes(2 * n, ACL_FLOAT), Bytes(n, ACL_FLOAT)};
  c.grad = {0, ACL_FLOAT, {n}, {2}, 0};
  c.self = {1, ACL_FLOAT, {n}, {}, 0};
  c.out = {0, ACL_FLOAT, {n}, {2}, 1};
  const std::vector<uint8_t> expected = OutOfPlaceResult(c, stream_);
  const std::vector<std::unique_ptr<DeviceBuffer>> buffers = MakeBuffers(c);
  DeviceBuffer elsewhere(Bytes(2 * n, ACL_FLOAT), ACL_FLOAT);
  const ViewTensor grad(c.grad, *buffers[0]), self(c.self, *buffers[1]), out(c.out, elsewhere);
  const Phase1Result phase1 = CallPhase1(grad.get(), self.get(), out.get());
  ASSERT_EQ(phase1.status, ACLNN_SUCCESS) << phase1.message;
  ASSERT_EQ(phase1.workspace_size, 0u);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(phase1.executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(phase1.executor, 0, out.get(), buffers[0]->device()), ACLNN_SUCCESS);
  EXPECT_EQ(LaunchAndWait(phase1.executor, 0, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(buffers[0]->Download(), expected);
  EXPECT_EQ(aclDestroyAclOpExecutor(phase1.executor), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace aclcpu_api_test
