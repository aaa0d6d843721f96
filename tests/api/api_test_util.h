// aclcpu API-contract tests: helpers shared by the suites in tests/api.
//
// Everything here goes through the public CANN API only. The helpers keep the
// tests short: one phase-1 call with its status, workspace size, executor and
// error message; a launch; a reference result from a fresh one-shot executor;
// and the checks every rejected call must pass (nothing written to out).
#ifndef ACLCPU_TESTS_API_API_TEST_UTIL_H_
#define ACLCPU_TESTS_API_API_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <strings.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <regex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "device_tensor.h"

namespace aclcpu_api_test {

using aclcpu_test::DeviceTensor;

// Byte every out buffer starts with; a rejected call must leave all of them.
constexpr uint8_t kSentinelByte = 0x7B;

// What phase 1 leaves in *workspaceSize when it does not touch it, so a test
// can tell "set to 0" from "left alone".
constexpr uint64_t kUntouchedWorkspaceSize = 0xDEADBEEFull;

// The newest pending error message of this thread ("" if none); clears them.
inline std::string TakeRecentErrMsg() {
  const char* message = aclGetRecentErrMsg();
  return message != nullptr ? std::string(message) : std::string();
}

// Drops messages left by earlier calls so that a check sees only its own. The
// bound keeps a library that never clears from hanging the test.
inline void ClearRecentErrMsgs() {
  for (int i = 0; i < 64 && aclGetRecentErrMsg() != nullptr; ++i) {
  }
}

// True if `message` contains `name` as a whole identifier ("out" must not match
// inside "layout", "self" not inside "itself").
inline bool NamesIdentifier(const std::string& message, const std::string& name) {
  const std::regex word("(^|[^A-Za-z0-9_])" + name + "([^A-Za-z0-9_]|$)");
  return std::regex_search(message, word);
}

// ACLCPU_STRICT as the runtime reads it: set, and none of 0/false/off/no.
inline bool StrictModeRequested() {
  const char* value = std::getenv("ACLCPU_STRICT");
  if (value == nullptr) return false;
  for (const char* off : {"0", "false", "off", "no"}) {
    if (strcasecmp(value, off) == 0) return false;
  }
  return true;
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Encodes host floats as `dtype` elements (FLOAT, FLOAT16, BF16, DOUBLE). The
// test values are exactly representable in every one of them.
inline std::vector<uint8_t> EncodeAs(aclDataType dtype, const std::vector<float>& values) {
  std::vector<uint8_t> bytes;
  for (float value : values) {
    uint8_t element[8] = {};
    size_t size = 0;
    switch (dtype) {
      case ACL_FLOAT:
        std::memcpy(element, &value, size = sizeof(float));
        break;
      case ACL_DOUBLE: {
        const double wide = value;
        std::memcpy(element, &wide, size = sizeof(double));
        break;
      }
      case ACL_FLOAT16: {
        const aclFloat16 half = aclFloatToFloat16(value);
        std::memcpy(element, &half, size = sizeof(half));
        break;
      }
      case ACL_BF16: {
        // bf16 is the upper half of an f32; exact for the values used here.
        uint32_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        const uint16_t upper = static_cast<uint16_t>(bits >> 16);
        std::memcpy(element, &upper, size = sizeof(upper));
        break;
      }
      default:
        // Contents of tensors of other dtypes do not matter to these tests
        // (they are rejected before being read); leave them zero.
        size = aclDataTypeSize(dtype);
        break;
    }
    bytes.insert(bytes.end(), element, element + size);
  }
  return bytes;
}

inline void Upload(DeviceTensor& tensor, const std::vector<float>& values) {
  const std::vector<uint8_t> bytes = EncodeAs(tensor.dtype(), values);
  tensor.Upload(bytes.data(), std::min(bytes.size(), tensor.storage_bytes()));
}

// Gradients and inputs whose elements straddle the (-3, 3) window, boundaries
// included, so a result distinguishes the two inputs and their roles.
inline std::vector<float> GradValues(int64_t count, float scale = 1.0f) {
  std::vector<float> values(count);
  for (int64_t i = 0; i < count; ++i) values[i] = scale * (0.5f + 0.25f * static_cast<float>(i % 29));
  return values;
}
inline std::vector<float> SelfValues(int64_t count, float shift = 0.0f) {
  std::vector<float> values(count);
  for (int64_t i = 0; i < count; ++i) values[i] = shift - 4.0f + 0.5f * static_cast<float>(i % 17);
  return values;
}

// A contiguous tensor of `shape` holding `values`.
inline DeviceTensor::Layout Contiguous(std::vector<int64_t> shape, aclFormat format = ACL_FORMAT_ND) {
  DeviceTensor::Layout layout;
  layout.shape = std::move(shape);
  layout.format = format;
  return layout;
}

struct Phase1Result {
  aclnnStatus status = -1;
  uint64_t workspace_size = kUntouchedWorkspaceSize;
  aclOpExecutor* executor = nullptr;
  std::string message;  // aclGetRecentErrMsg() after a failure, else ""
};

inline Phase1Result CallPhase1(const aclTensor* grad_output, const aclTensor* self, aclTensor* out) {
  ClearRecentErrMsgs();
  Phase1Result result;
  result.status = aclnnHardsigmoidBackwardGetWorkspaceSize(grad_output, self, out, &result.workspace_size,
                                                           &result.executor);
  if (result.status != ACLNN_SUCCESS) result.message = TakeRecentErrMsg();
  return result;
}

// Device workspace of the size phase 1 asked for (none for 0), freed on scope exit.
class Workspace {
 public:
  explicit Workspace(uint64_t size) : size_(size) {
    if (size_ > 0 && aclrtMalloc(&memory_, size_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      ADD_FAILURE() << "aclrtMalloc of a " << size_ << "-byte workspace failed";
      memory_ = nullptr;
    }
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() {
    if (memory_ != nullptr) aclrtFree(memory_);
  }
  void* get() const { return memory_; }
  uint64_t size() const { return size_; }

 private:
  uint64_t size_;
  void* memory_ = nullptr;
};

// Phase 2 of a successful phase 1 on `stream` (with a workspace of the size it
// asked for), then waits for the stream. Returns the first non-zero status.
inline aclnnStatus LaunchAndWait(aclOpExecutor* executor, uint64_t workspace_size, aclrtStream stream) {
  Workspace workspace(workspace_size);
  const aclnnStatus status = aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, stream);
  const aclError sync = aclrtSynchronizeStream(stream);
  return status != ACLNN_SUCCESS ? status : sync;
}

// Storage of a fresh out tensor shaped like `out` (same dtype, layout and
// sentinel) after a fresh one-shot run on `grad_output` and `self`: what any
// executor under test must leave in `out`'s storage.
inline std::vector<uint8_t> ReferenceStorage(const DeviceTensor& grad_output, const DeviceTensor& self,
                                             const DeviceTensor& out, aclrtStream stream) {
  DeviceTensor reference(out.dtype(), out.layout(), kSentinelByte);
  const aclnnStatus status =
      aclcpu_test::RunHardsigmoidBackward(grad_output.get(), self.get(), reference.get(), stream);
  EXPECT_EQ(status, ACLNN_SUCCESS) << "reference run failed: " << TakeRecentErrMsg();
  return reference.DownloadStorage();
}

inline bool AllBytesAre(const std::vector<uint8_t>& bytes, uint8_t value) {
  for (uint8_t byte : bytes) {
    if (byte != value) return false;
  }
  return true;
}

// gradOutput, self and out of one call, made from layouts and dtypes; the
// inputs hold GradValues/SelfValues, out holds the sentinel.
struct Operands {
  Operands(aclDataType grad_dtype, aclDataType self_dtype, aclDataType out_dtype,
           const std::vector<int64_t>& shape = {2, 3, 4})
      : Operands(grad_dtype, Contiguous(shape), self_dtype, Contiguous(shape), out_dtype, Contiguous(shape)) {}
  Operands(aclDataType grad_dtype, DeviceTensor::Layout grad_layout, aclDataType self_dtype,
           DeviceTensor::Layout self_layout, aclDataType out_dtype, DeviceTensor::Layout out_layout)
      : grad_output(grad_dtype, std::move(grad_layout)),
        self(self_dtype, std::move(self_layout)),
        out(out_dtype, std::move(out_layout), kSentinelByte) {
    Upload(grad_output, GradValues(StorageElements(grad_output)));
    Upload(self, SelfValues(StorageElements(self)));
  }

  static int64_t StorageElements(const DeviceTensor& tensor) { return tensor.layout().storage_elements; }

  DeviceTensor grad_output;
  DeviceTensor self;
  DeviceTensor out;
};

// Base of the suites: the runtime is up (aclInit, device 0, a stream) and no
// error message is pending when a test starts.
class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stream_ = aclcpu_test::RuntimeFixture::Stream();
    ClearRecentErrMsgs();
  }

  // The checks every rejected phase 1 must pass: the expected status, a message
  // naming each of `names`, no usable executor, and `out`'s storage untouched.
  void ExpectRejected(const Phase1Result& result, aclnnStatus expected_status,
                      std::initializer_list<const char*> names, const DeviceTensor* out) {
    EXPECT_EQ(result.status, expected_status) << "message: " << result.message;
    for (const char* name : names) {
      EXPECT_TRUE(NamesIdentifier(result.message, name))
          << "message should name '" << name << "': \"" << result.message << "\"";
    }
    if (result.executor != nullptr) {
      // CANN leaves *executor alone on failure; if the library set it anyway,
      // it must at least refuse to run it.
      EXPECT_NE(aclnnHardsigmoidBackward(nullptr, 0, result.executor, stream_), ACLNN_SUCCESS)
          << "a rejected phase 1 handed out a runnable executor";
    }
    if (out != nullptr) {
      aclrtSynchronizeStream(stream_);
      EXPECT_TRUE(AllBytesAre(out->DownloadStorage(), kSentinelByte)) << "a rejected call wrote to out";
    }
  }

  aclrtStream stream_ = nullptr;
};

}  // namespace aclcpu_api_test

#endif  // ACLCPU_TESTS_API_API_TEST_UTIL_H_
