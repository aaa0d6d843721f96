// aclnnHardsigmoid / aclnnInplaceHardsigmoid executors and aliasing: one-shot
// and repeatable executors, the address-rebinding indices of both forms, and
// the overlap rules shared with the backward op (ops/shared/operand_overlap.h):
// an out whose elements share memory is refused, an out overlapping self other
// than in place gives what reading all of self before writing gives (staged
// through workspace, refused in strict mode), in place is read element by
// element.
#include <cstdint>
#include <cstring>
#include <vector>

#include "hardsigmoid_api_util.h"

namespace aclcpu_hardsigmoid_test {
namespace {

// A device buffer of float32 with views described on it.
class Buffer {
 public:
  explicit Buffer(int64_t elements) : elements_(elements) {
    aclrtMalloc(&device_, static_cast<size_t>(elements) * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<float> values(static_cast<size_t>(elements));
    for (int64_t i = 0; i < elements; ++i) values[i] = -5.0f + 0.25f * static_cast<float>(i % 41);
    Write(values);
  }
  ~Buffer() {
    for (aclTensor* view : views_) aclDestroyTensor(view);
    aclrtFree(device_);
  }
  aclTensor* View(std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset) {
    const int64_t storage[] = {elements_};
    aclTensor* view = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), offset, ACL_FORMAT_ND,
                                      storage, 1, device_);
    views_.push_back(view);
    return view;
  }
  std::vector<float> Read() const {
    std::vector<float> values(static_cast<size_t>(elements_));
    aclrtMemcpy(values.data(), values.size() * 4, device_, values.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    return values;
  }
  void Write(const std::vector<float>& values) {
    aclrtMemcpy(device_, values.size() * 4, values.data(), values.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  }
  void* device() const { return device_; }

 private:
  int64_t elements_;
  void* device_ = nullptr;
  std::vector<aclTensor*> views_;
};

class Executors : public HardsigmoidApiTest {
 protected:
  // The result of an out-of-place run of `self_view` of `source` (read first)
  // written through `out_view` into a separate copy of `target` (so
  // nothing overlaps): what an overlapping call must leave in `target`.
  std::vector<float> ReadBeforeWrite(const Buffer& source, const std::vector<int64_t>& shape,
                                     const std::vector<int64_t>& self_strides, int64_t self_offset,
                                     const std::vector<int64_t>& out_strides, int64_t out_offset,
                                     int64_t elements) {
    Buffer source_copy(elements), target_copy(elements);
    source_copy.Write(source.Read());
    target_copy.Write(source.Read());
    const Phase1Result result = CallPhase1(source_copy.View(shape, self_strides, self_offset),
                                           target_copy.View(shape, out_strides, out_offset));
    EXPECT_EQ(result.status, ACLNN_SUCCESS) << result.message;
    EXPECT_EQ(result.workspace_size, 0u);
    EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS);
    return target_copy.Read();
  }

  // self and out as views of one buffer: the call must equal ReadBeforeWrite.
  void ExpectOverlapReadsSelfFirst(const std::vector<int64_t>& shape, const std::vector<int64_t>& self_strides,
                                   int64_t self_offset, const std::vector<int64_t>& out_strides, int64_t out_offset,
                                   int64_t elements) {
    Buffer buffer(elements);
    const std::vector<float> expected =
        ReadBeforeWrite(buffer, shape, self_strides, self_offset, out_strides, out_offset, elements);
    const Phase1Result result =
        CallPhase1(buffer.View(shape, self_strides, self_offset), buffer.View(shape, out_strides, out_offset));
    if (aclcpu_api_test::StrictModeRequested()) {
      EXPECT_EQ(result.status, ACLNN_ERR_PARAM_INVALID) << "strict mode refuses a partial overlap";
      EXPECT_TRUE(NamesIdentifier(result.message, "self")) << result.message;
      return;
    }
    ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
    EXPECT_GT(result.workspace_size, 0u) << "self is staged through workspace";
    ASSERT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
    EXPECT_EQ(buffer.Read(), expected);
  }
};

TEST_F(Executors, OneShotExecutorRefusesASecondLaunch) {
  DeviceTensor self(ACL_FLOAT, {64});
  UploadSelf(self);
  DeviceTensor out(ACL_FLOAT, Contiguous({64}), kSentinelByte);
  const Phase1Result result = CallPhase1(self.get(), out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnHardsigmoid(nullptr, 0, result.executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_FALSE(TakeRecentErrMsg().empty());
}

// The executor holds what it needs: the aclTensor objects may go right after phase 1.
TEST_F(Executors, TensorsMayBeDestroyedBeforePhase2) {
  DeviceTensor self(ACL_FLOAT16, {100});
  UploadSelf(self);
  DeviceTensor out(ACL_FLOAT16, Contiguous({100}), kSentinelByte);
  const std::vector<uint8_t> expected = ReferenceStorage(self, out, stream_);
  const int64_t dims[] = {100};
  const int64_t strides[] = {1};
  aclTensor* self_view = aclCreateTensor(dims, 1, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, dims, 1, self.device());
  aclTensor* out_view = aclCreateTensor(dims, 1, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, dims, 1, out.device());
  const Phase1Result result = CallPhase1(self_view, out_view);
  aclDestroyTensor(self_view);
  aclDestroyTensor(out_view);
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(out.DownloadStorage(), expected);
}

// Out of place: input 0 = self, output 0 = out.
TEST_F(Executors, RepeatableExecutorRebindsInput0AsSelfAndOutput0AsOut) {
  DeviceTensor self(ACL_BF16, {300});
  UploadSelf(self);
  DeviceTensor out(ACL_BF16, Contiguous({300}), kSentinelByte);
  DeviceTensor other_self(ACL_BF16, {300});
  std::vector<float> shifted = SelfValues(300);
  for (float& v : shifted) v = -v;
  Upload(other_self, shifted);
  DeviceTensor other_out(ACL_BF16, Contiguous({300}), kSentinelByte);
  const std::vector<uint8_t> expected_first = ReferenceStorage(self, out, stream_);
  const std::vector<uint8_t> expected_second = ReferenceStorage(other_self, other_out, stream_);

  const Phase1Result result = CallPhase1(self.get(), out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(result.executor), ACLNN_SUCCESS);
  for (int run = 0; run < 3; ++run) ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(out.DownloadStorage(), expected_first);
  ASSERT_EQ(aclSetInputTensorAddr(result.executor, 0, self.get(), other_self.device()), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(result.executor, 0, out.get(), other_out.device()), ACLNN_SUCCESS);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(other_out.DownloadStorage(), expected_second);
  EXPECT_EQ(out.DownloadStorage(), expected_first) << "the old out is no longer written";
  EXPECT_EQ(aclDestroyAclOpExecutor(result.executor), ACLNN_SUCCESS);
}

// In place: input 0 = self as read, output 0 = self as written. Rebinding both
// to a new buffer keeps the call in place there.
TEST_F(Executors, InplaceExecutorRebindsInput0AndOutput0ToSelf) {
  DeviceTensor self(ACL_FLOAT, {500});
  UploadSelf(self);
  DeviceTensor fresh(ACL_FLOAT, Contiguous({500}), kSentinelByte);
  const std::vector<uint8_t> expected = ReferenceStorage(self, fresh, stream_);
  DeviceTensor second(ACL_FLOAT, {500});
  UploadSelf(second);

  const Phase1Result result = CallInplacePhase1(self.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(result.executor), ACLNN_SUCCESS);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_, /*in_place=*/true), ACLNN_SUCCESS);
  EXPECT_EQ(self.DownloadStorage(), expected);
  ASSERT_EQ(aclSetInputTensorAddr(result.executor, 0, self.get(), second.device()), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(result.executor, 0, self.get(), second.device()), ACLNN_SUCCESS);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_, /*in_place=*/true), ACLNN_SUCCESS);
  EXPECT_EQ(second.DownloadStorage(), expected);
  // aclSetTensorAddr counts inputs first: index 1 is output 0.
  UploadSelf(self);
  ASSERT_EQ(aclSetTensorAddr(result.executor, 0, self.get(), self.device()), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetTensorAddr(result.executor, 1, self.get(), self.device()), ACLNN_SUCCESS);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_, /*in_place=*/true), ACLNN_SUCCESS);
  EXPECT_EQ(self.DownloadStorage(), expected);
  EXPECT_EQ(aclSetInputTensorAddr(result.executor, 1, self.get(), self.device()), ACLNN_ERR_PARAM_INVALID)
      << "the in-place executor has one input";
  EXPECT_EQ(aclDestroyAclOpExecutor(result.executor), ACLNN_SUCCESS);
}

// A written view whose elements share memory: no single right value to leave.
TEST_F(Executors, WrittenViewWhoseElementsShareMemoryIs161002) {
  Buffer buffer(16);
  aclTensor* broadcast = buffer.View({8}, {0}, 0);
  ExpectRejected(CallInplacePhase1(broadcast), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr,
                 "aclnnInplaceHardsigmoidGetWorkspaceSize");
  DeviceTensor self(ACL_FLOAT, {3, 4});
  ExpectRejected(CallPhase1(self.get(), buffer.View({3, 4}, {1, 1}, 0)), ACLNN_ERR_PARAM_INVALID, {"out"}, nullptr);
}

TEST_F(Executors, OutShiftedOverSelfEqualsReadingSelfFirst) {
  ExpectOverlapReadsSelfFirst({5000}, {1}, 0, {1}, 3, 5003);
  ExpectOverlapReadsSelfFirst({5000}, {1}, 3, {1}, 0, 5003);
}

TEST_F(Executors, OutTransposedOverSelfEqualsReadingSelfFirst) {
  ExpectOverlapReadsSelfFirst({67, 67}, {67, 1}, 0, {1, 67}, 0, 67 * 67);
}

TEST_F(Executors, BroadcastSelfInsideOutEqualsReadingSelfFirst) {
  ExpectOverlapReadsSelfFirst({64, 9}, {0, 1}, 5, {9, 1}, 0, 64 * 9);
}

// Views of one buffer that share no byte need no workspace.
TEST_F(Executors, DisjointViewsOfOneBufferNeedNoWorkspace) {
  Buffer buffer(200);
  const Phase1Result result = CallPhase1(buffer.View({10, 10}, {10, 1}, 0), buffer.View({10, 10}, {1, 10}, 100));
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(result.workspace_size, 0u);
  EXPECT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS);
}

// Interleaved views of one buffer ([0::2] and [1::2]) share no byte though their
// ranges meet: read in place, no workspace, accepted in strict mode too.
TEST_F(Executors, InterleavedViewsOfOneBufferNeedNoWorkspace) {
  const int64_t n = 3000;
  Buffer buffer(2 * n);
  const std::vector<float> expected = ReadBeforeWrite(buffer, {n}, {2}, 0, {2}, 1, 2 * n);
  const Phase1Result result = CallPhase1(buffer.View({n}, {2}, 0), buffer.View({n}, {2}, 1));
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(result.workspace_size, 0u);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(buffer.Read(), expected);
}

TEST_F(Executors, WorkspaceSmallerThanPhase1AskedForIs161002) {
  if (aclcpu_api_test::StrictModeRequested()) GTEST_SKIP() << "strict mode refuses the overlap in phase 1";
  Buffer buffer(1001);
  const Phase1Result result = CallPhase1(buffer.View({1000}, {1}, 0), buffer.View({1000}, {1}, 1));
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_GT(result.workspace_size, 0u);
  Workspace small(result.workspace_size - 1);
  EXPECT_EQ(aclnnHardsigmoid(small.get(), small.size(), result.executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_FALSE(TakeRecentErrMsg().empty());
}

// Addresses rebound after phase 1 that make out overlap self where phase 1
// reserved no workspace: refused in phase 2.
TEST_F(Executors, RebindingThatCreatesAnOverlapIs161002InPhase2) {
  Buffer self_buffer(1000), out_buffer(1000);
  aclTensor* out = out_buffer.View({999}, {1}, 0);
  const Phase1Result result = CallPhase1(self_buffer.View({999}, {1}, 0), out);
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(result.executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(result.executor, 0, out,
                                   static_cast<char*>(self_buffer.device()) + sizeof(float)),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclnnHardsigmoid(nullptr, 0, result.executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NamesIdentifier(TakeRecentErrMsg(), "self"));
  aclDestroyAclOpExecutor(result.executor);
}

}  // namespace
}  // namespace aclcpu_hardsigmoid_test
