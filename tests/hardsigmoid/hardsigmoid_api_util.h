// aclcpu API-contract tests of aclnnHardsigmoid / aclnnInplaceHardsigmoid:
// helpers shared by the suites in tests/hardsigmoid (the generic ones come from
// tests/api/api_test_util.h). Public CANN API only.
#ifndef ACLCPU_TESTS_HARDSIGMOID_HARDSIGMOID_API_UTIL_H_
#define ACLCPU_TESTS_HARDSIGMOID_HARDSIGMOID_API_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "aclnnop/aclnn_hardsigmoid.h"
#include "api_test_util.h"

namespace aclcpu_hardsigmoid_test {

using aclcpu_api_test::AllBytesAre;
using aclcpu_api_test::ClearRecentErrMsgs;
using aclcpu_api_test::Contains;
using aclcpu_api_test::Contiguous;
using aclcpu_api_test::NamesIdentifier;
using aclcpu_api_test::Phase1Result;
using aclcpu_api_test::TakeRecentErrMsg;
using aclcpu_api_test::Upload;
using aclcpu_api_test::Workspace;
using aclcpu_api_test::kSentinelByte;
using aclcpu_test::DeviceTensor;

inline Phase1Result CallPhase1(const aclTensor* self, aclTensor* out) {
  ClearRecentErrMsgs();
  Phase1Result result;
  result.status = aclnnHardsigmoidGetWorkspaceSize(self, out, &result.workspace_size, &result.executor);
  if (result.status != ACLNN_SUCCESS) result.message = TakeRecentErrMsg();
  return result;
}

inline Phase1Result CallInplacePhase1(const aclTensor* self) {
  ClearRecentErrMsgs();
  Phase1Result result;
  result.status = aclnnInplaceHardsigmoidGetWorkspaceSize(self, &result.workspace_size, &result.executor);
  if (result.status != ACLNN_SUCCESS) result.message = TakeRecentErrMsg();
  return result;
}

// Phase 2 (out-of-place or in-place entry point) with a workspace of the size
// phase 1 asked for, then waits for the stream.
inline aclnnStatus LaunchAndWait(aclOpExecutor* executor, uint64_t workspace_size, aclrtStream stream,
                                 bool in_place = false) {
  Workspace workspace(workspace_size);
  const aclnnStatus status = in_place ? aclnnInplaceHardsigmoid(workspace.get(), workspace.size(), executor, stream)
                                      : aclnnHardsigmoid(workspace.get(), workspace.size(), executor, stream);
  const aclError sync = aclrtSynchronizeStream(stream);
  return status != ACLNN_SUCCESS ? status : sync;
}

// Values on both sides of -3 and 3, exactly representable in every dtype here.
inline std::vector<float> SelfValues(int64_t count) {
  std::vector<float> values(count);
  for (int64_t i = 0; i < count; ++i) values[i] = -5.0f + 0.5f * static_cast<float>(i % 23);
  return values;
}

// Uploads SelfValues, or their integer parts for INT32.
inline void UploadSelf(DeviceTensor& tensor) {
  const int64_t elements = tensor.layout().storage_elements;
  if (tensor.dtype() == ACL_INT32) {
    std::vector<int32_t> values(elements);
    for (int64_t i = 0; i < elements; ++i) values[i] = static_cast<int32_t>(i % 13) - 6;
    tensor.UploadElements(values);
    return;
  }
  Upload(tensor, SelfValues(elements));
}

// Storage of a fresh out like `out` (sentinel-filled) after a fresh one-shot
// out-of-place run on `self`: what any other way of computing must leave.
inline std::vector<uint8_t> ReferenceStorage(const DeviceTensor& self, const DeviceTensor& out, aclrtStream stream) {
  DeviceTensor reference(out.dtype(), out.layout(), kSentinelByte);
  const Phase1Result result = CallPhase1(self.get(), reference.get());
  EXPECT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream), ACLNN_SUCCESS) << TakeRecentErrMsg();
  return reference.DownloadStorage();
}

class HardsigmoidApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stream_ = aclcpu_test::RuntimeFixture::Stream();
    ClearRecentErrMsgs();
  }

  // Every rejected phase 1: the status, a message naming each of `names` and
  // the entry point, no executor, and out's storage untouched.
  void ExpectRejected(const Phase1Result& result, aclnnStatus expected_status,
                      std::initializer_list<const char*> names, const DeviceTensor* out,
                      const char* api = "aclnnHardsigmoidGetWorkspaceSize") {
    EXPECT_EQ(result.status, expected_status) << "message: " << result.message;
    EXPECT_TRUE(NamesIdentifier(result.message, api)) << "message should name " << api << ": " << result.message;
    for (const char* name : names) {
      EXPECT_TRUE(NamesIdentifier(result.message, name))
          << "message should name '" << name << "': \"" << result.message << "\"";
    }
    EXPECT_EQ(result.executor, nullptr);
    if (out != nullptr) {
      aclrtSynchronizeStream(stream_);
      EXPECT_TRUE(AllBytesAre(out->DownloadStorage(), kSentinelByte)) << "a rejected call wrote to out";
    }
  }

  aclrtStream stream_ = nullptr;
};

}  // namespace aclcpu_hardsigmoid_test

#endif  // ACLCPU_TESTS_HARDSIGMOID_HARDSIGMOID_API_UTIL_H_
