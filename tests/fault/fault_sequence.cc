// aclcpu fault-injection tests: the operator call sequence and the walk over a
// site's passes (see fault_sequence.h).
#include "fault_sequence.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"

namespace aclcpu_fault_test {
namespace {

constexpr size_t kBytes = kElements * sizeof(float);
const int64_t kShape[1] = {kElements};
const int64_t kStrides[1] = {1};

float GradValue(int64_t i) { return static_cast<float>(i + 1); }
// Spans (-4, 4): both sides of the |self| < 3 cut.
float SelfValue(int64_t i) { return static_cast<float>(i - kElements / 2) * 0.125f; }
// The operator's definition, computed as the library does (float32, 1/6 rounded once).
float Expected(int64_t i) {
  const float self = SelfValue(i);
  return (self > -3.0f && self < 3.0f) ? GradValue(i) * (1.0f / 6.0f) : 0.0f;
}

std::string TakeMessages() {
  const char* message = aclGetRecentErrMsg();
  return message != nullptr ? message : "";
}

int Upload(void* device, float (*value)(int64_t)) {
  float host[kElements];
  for (int64_t i = 0; i < kElements; ++i) host[i] = value(i);
  return aclrtMemcpy(device, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE);
}

int CreateTensor(void* device, aclTensor** tensor) {
  *tensor = aclCreateTensor(kShape, 1, ACL_FLOAT, kStrides, 0, ACL_FORMAT_ND, kShape, 1, device);
  return *tensor != nullptr ? 0 : kNullHandle;
}

}  // namespace

void ExpectCorrectResult(const SequenceState& state, const std::string& context) {
  ASSERT_NE(state.host_result, nullptr) << context;
  const float* result = static_cast<const float*>(state.host_result);
  for (int64_t i = 0; i < kElements; ++i) {
    ASSERT_EQ(result[i], Expected(i)) << context << ": element " << i;
  }
}

void SequenceState::Release() {
  if (stream != nullptr) aclrtSynchronizeStream(stream);
  aclrtSynchronizeStream(nullptr);
  if (executor != nullptr) aclDestroyAclOpExecutor(executor);
  if (event != nullptr) aclrtDestroyEvent(event);
  if (stream != nullptr) aclrtDestroyStream(stream);
  aclDestroyScalar(scalar);
  aclDestroyIntArray(shape);
  aclDestroyTensor(out);
  aclDestroyTensor(self);
  aclDestroyTensor(grad);
  if (result_buffer != nullptr) aclDestroyDataBuffer(result_buffer);
  if (host_result != nullptr) aclrtFreeHost(host_result);
  for (void* device : {out_device, self_device, grad_device}) {
    if (device != nullptr) aclrtFree(device);
  }
  *this = SequenceState{};
}

std::vector<Step> OperatorCallSequence() {
  std::vector<Step> steps;
  auto add = [&steps](const char* name, std::function<int(SequenceState&)> call) {
    steps.push_back(Step{name, std::move(call), steps.size()});
  };
  add("aclrtMalloc", [](SequenceState& s) { return aclrtMalloc(&s.grad_device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); });
  add("aclrtMalloc", [](SequenceState& s) { return aclrtMalloc(&s.self_device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); });
  add("aclrtMalloc", [](SequenceState& s) { return aclrtMalloc(&s.out_device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); });
  add("aclrtMemcpy", [](SequenceState& s) { return Upload(s.grad_device, GradValue); });
  add("aclrtMemcpy", [](SequenceState& s) { return Upload(s.self_device, SelfValue); });
  add("aclrtMemset", [](SequenceState& s) { return aclrtMemset(s.out_device, kBytes, 0xFF, kBytes); });
  add("aclrtMallocHost", [](SequenceState& s) { return aclrtMallocHost(&s.host_result, kBytes); });
  add("aclCreateDataBuffer", [](SequenceState& s) {
    s.result_buffer = aclCreateDataBuffer(s.host_result, kBytes);
    return s.result_buffer != nullptr ? 0 : kNullHandle;
  });
  add("aclCreateTensor", [](SequenceState& s) { return CreateTensor(s.grad_device, &s.grad); });
  add("aclCreateTensor", [](SequenceState& s) { return CreateTensor(s.self_device, &s.self); });
  add("aclCreateTensor", [](SequenceState& s) { return CreateTensor(s.out_device, &s.out); });
  add("aclCreateIntArray", [](SequenceState& s) {
    s.shape = aclCreateIntArray(kShape, 1);
    return s.shape != nullptr ? 0 : kNullHandle;
  });
  add("aclCreateScalar", [](SequenceState& s) {
    float alpha = 1.0f;
    s.scalar = aclCreateScalar(&alpha, ACL_FLOAT);
    return s.scalar != nullptr ? 0 : kNullHandle;
  });
  add("aclrtCreateStream", [](SequenceState& s) { return aclrtCreateStream(&s.stream); });
  add("aclrtCreateEvent", [](SequenceState& s) { return aclrtCreateEvent(&s.event); });
  add("aclnnHardsigmoidBackwardGetWorkspaceSize", [](SequenceState& s) {
    return aclnnHardsigmoidBackwardGetWorkspaceSize(s.grad, s.self, s.out, &s.workspace_size, &s.executor);
  });
  // A one-shot executor is spent by its launch, failed or not: phase 2 resumes
  // from phase 1.
  add("aclnnHardsigmoidBackward", [](SequenceState& s) {
    const int status = aclnnHardsigmoidBackward(nullptr, s.workspace_size, s.executor, s.stream);
    if (status == 0) s.executor = nullptr;
    return status;
  });
  steps.back().resume_from = steps.size() - 2;
  add("aclrtRecordEvent", [](SequenceState& s) { return aclrtRecordEvent(s.event, s.stream); });
  add("aclrtStreamWaitEvent", [](SequenceState& s) { return aclrtStreamWaitEvent(nullptr, s.event); });
  add("aclrtMemcpyAsync", [](SequenceState& s) {
    return aclrtMemcpyAsync(aclGetDataBufferAddr(s.result_buffer), aclGetDataBufferSizeV2(s.result_buffer),
                            s.out_device, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, nullptr);
  });
  add("aclrtSynchronizeStream", [](SequenceState&) { return aclrtSynchronizeStream(nullptr); });
  return steps;
}

LiveCounts CountLiveObjects() {
  return LiveCounts{aclcpuLiveObjectCount("device_memory"), aclcpuLiveObjectCount("host_memory"),
                    aclcpuLiveObjectCount("events"), aclcpuLiveObjectCount("streams"),
                    aclcpuLiveObjectCount("data_buffers")};
}

int WalkSite(const char* site, const std::map<std::string, int>& expected) {
  // More passes than any site has in one sequence: a walk that gets here
  // means the fault keeps firing, i.e. it never disarms.
  constexpr int64_t kMaxPasses = 100;
  const std::vector<Step> steps = OperatorCallSequence();
  int faults = 0;
  for (int64_t n = 1; n <= kMaxPasses; ++n) {
    const std::string walk = std::string(site) + ":" + std::to_string(n);
    SequenceState state;
    TakeMessages();
    const LiveCounts before_sequence = CountLiveObjects();
    EXPECT_EQ(aclcpuSetFaultInjection(site, n), ACL_SUCCESS) << walk;
    bool fired = false;
    bool broken = false;
    for (size_t i = 0; i < steps.size() && !broken;) {
      const Step& step = steps[i];
      TakeMessages();
      const LiveCounts before_call = CountLiveObjects();
      const int status = step.call(state);
      if (!fired && aclcpuFaultInjectionFired() != 0) {
        fired = true;
        const std::string where = walk + " fired in " + step.name;
        const auto documented = expected.find(step.name);
        if (documented == expected.end()) {
          ADD_FAILURE() << where << ", which is not a call that passes through the site (status " << status << ")";
        } else {
          EXPECT_EQ(status, documented->second) << where;
        }
        EXPECT_FALSE(TakeMessages().empty()) << where << ": no message for aclGetRecentErrMsg";
        EXPECT_TRUE(CountLiveObjects() == before_call) << where << ": the failed call left a runtime object behind";
        if (step.name == "aclnnHardsigmoidBackwardGetWorkspaceSize") {
          EXPECT_EQ(state.executor, nullptr) << where << ": a failed phase 1 returned an executor";
        }
        if (step.name == "aclnnHardsigmoidBackward") {
          // CANN's rule: the one-shot executor is used up; it is no longer live.
          EXPECT_EQ(aclDestroyAclOpExecutor(state.executor), ACLNN_ERR_PARAM_INVALID) << where;
          TakeMessages();
          state.executor = nullptr;
        }
        if (status == 0) broken = true;  // reported above; the state is not what the next steps expect
        i = step.resume_from;
        continue;
      }
      if (status != 0) {
        ADD_FAILURE() << walk << ": " << step.name << " failed with " << status << " without a fault: "
                      << TakeMessages();
        broken = true;
      }
      ++i;
    }
    aclcpuSetFaultInjection(nullptr, 0);
    if (!broken) ExpectCorrectResult(state, walk + (fired ? " (resumed after the fault)" : ""));
    state.Release();
    EXPECT_TRUE(CountLiveObjects() == before_sequence) << walk << ": objects left after releasing the sequence";
    if (!fired || broken || testing::Test::HasFailure()) return faults;
    ++faults;
  }
  ADD_FAILURE() << site << " still fired on pass " << kMaxPasses;
  return faults;
}

}  // namespace aclcpu_fault_test
