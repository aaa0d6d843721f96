// aclcpu fault-injection tests: the operator call sequence and the walk over a
// site's passes (see fault_sequence.h).
#include "fault_sequence.h"

#include <dirent.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"

namespace aclcpu_fault_test {
namespace {

constexpr size_t kBytes = kElements * sizeof(float);
const int64_t kShape[1] = {kElements};
const int64_t kStrides[1] = {1};

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

// Where the operator writes its result: out, or self for the in-place form.
void* ResultDevice(const SequenceState& state) {
  return state.op == Operator::kInplaceHardsigmoid ? state.self_device : state.out_device;
}

}  // namespace

float GradValue(int64_t i) { return static_cast<float>(i + 1); }
// Spans (-4, 4): both sides of the |self| < 3 cut, and both clamps of the forward op.
float SelfValue(int64_t i) { return static_cast<float>(i - kElements / 2) * 0.125f; }

// Each operator's definition (README, Semantics), computed as the library
// does: float32, the backward op's 1/6 rounded once, the forward op's division by 6.
float OperatorResult(Operator op, float grad, float self) {
  if (op == Operator::kHardsigmoidBackward) return (self > -3.0f && self < 3.0f) ? grad * (1.0f / 6.0f) : 0.0f;
  return std::min(std::max(self + 3.0f, 0.0f), 6.0f) / 6.0f;
}

float ExpectedElement(Operator op, int64_t i) { return OperatorResult(op, GradValue(i), SelfValue(i)); }

const char* OperatorName(Operator op) {
  switch (op) {
    case Operator::kHardsigmoidBackward: return "aclnnHardsigmoidBackward";
    case Operator::kHardsigmoid: return "aclnnHardsigmoid";
    case Operator::kInplaceHardsigmoid: return "aclnnInplaceHardsigmoid";
  }
  return "?";
}

void PrintTo(Operator op, std::ostream* os) { *os << OperatorName(op); }

int OperatorTensors(Operator op) {
  switch (op) {
    case Operator::kHardsigmoidBackward: return 3;
    case Operator::kHardsigmoid: return 2;
    case Operator::kInplaceHardsigmoid: return 1;
  }
  return 0;
}

int CallPhase1(Operator op, aclTensor* grad, aclTensor* self, aclTensor* out, uint64_t* workspace_size,
               aclOpExecutor** executor) {
  switch (op) {
    case Operator::kHardsigmoidBackward:
      return aclnnHardsigmoidBackwardGetWorkspaceSize(grad, self, out, workspace_size, executor);
    case Operator::kHardsigmoid: return aclnnHardsigmoidGetWorkspaceSize(self, out, workspace_size, executor);
    case Operator::kInplaceHardsigmoid: return aclnnInplaceHardsigmoidGetWorkspaceSize(self, workspace_size, executor);
  }
  return -1;
}

int CallPhase2(Operator op, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
               aclrtStream stream) {
  switch (op) {
    case Operator::kHardsigmoidBackward: return aclnnHardsigmoidBackward(workspace, workspace_size, executor, stream);
    case Operator::kHardsigmoid: return aclnnHardsigmoid(workspace, workspace_size, executor, stream);
    case Operator::kInplaceHardsigmoid: return aclnnInplaceHardsigmoid(workspace, workspace_size, executor, stream);
  }
  return -1;
}

std::string Step::Key() const {
  switch (role) {
    case StepRole::kPhase1: return kPhase1;
    case StepRole::kPhase2: return kPhase2;
    case StepRole::kOther: break;
  }
  return name;
}

void ExpectCorrectResult(const SequenceState& state, const std::string& context) {
  ASSERT_NE(state.host_result, nullptr) << context;
  const float* result = static_cast<const float*>(state.host_result);
  for (int64_t i = 0; i < kElements; ++i) {
    ASSERT_EQ(result[i], ExpectedElement(state.op, i)) << context << ": element " << i;
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
  *this = SequenceState(op);
}

std::vector<Step> OperatorCallSequence(Operator op) {
  const bool backward = op == Operator::kHardsigmoidBackward;
  const bool in_place = op == Operator::kInplaceHardsigmoid;
  std::vector<Step> steps;
  auto add = [&steps](const char* name, std::function<int(SequenceState&)> call) {
    steps.push_back(Step{name, std::move(call), steps.size()});
  };
  if (backward) {
    add("aclrtMalloc", [](SequenceState& s) { return aclrtMalloc(&s.grad_device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); });
  }
  add("aclrtMalloc", [](SequenceState& s) { return aclrtMalloc(&s.self_device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); });
  if (!in_place) {
    add("aclrtMalloc", [](SequenceState& s) { return aclrtMalloc(&s.out_device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST); });
  }
  if (backward) add("aclrtMemcpy", [](SequenceState& s) { return Upload(s.grad_device, GradValue); });
  add("aclrtMemcpy", [](SequenceState& s) { return Upload(s.self_device, SelfValue); });
  if (!in_place) {
    add("aclrtMemset", [](SequenceState& s) { return aclrtMemset(s.out_device, kBytes, 0xFF, kBytes); });
  }
  add("aclrtMallocHost", [](SequenceState& s) { return aclrtMallocHost(&s.host_result, kBytes); });
  add("aclCreateDataBuffer", [](SequenceState& s) {
    s.result_buffer = aclCreateDataBuffer(s.host_result, kBytes);
    return s.result_buffer != nullptr ? 0 : kNullHandle;
  });
  if (backward) add("aclCreateTensor", [](SequenceState& s) { return CreateTensor(s.grad_device, &s.grad); });
  add("aclCreateTensor", [](SequenceState& s) { return CreateTensor(s.self_device, &s.self); });
  if (!in_place) add("aclCreateTensor", [](SequenceState& s) { return CreateTensor(s.out_device, &s.out); });
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
  const std::string name = OperatorName(op);
  add((name + "GetWorkspaceSize").c_str(), [op](SequenceState& s) {
    return CallPhase1(op, s.grad, s.self, s.out, &s.workspace_size, &s.executor);
  });
  steps.back().role = StepRole::kPhase1;
  // A one-shot executor is spent by its launch, failed or not: phase 2 resumes
  // from phase 1.
  add(name.c_str(), [op](SequenceState& s) {
    const int status = CallPhase2(op, nullptr, s.workspace_size, s.executor, s.stream);
    if (status == 0) s.executor = nullptr;
    return status;
  });
  steps.back().role = StepRole::kPhase2;
  steps.back().resume_from = steps.size() - 2;
  add("aclrtRecordEvent", [](SequenceState& s) { return aclrtRecordEvent(s.event, s.stream); });
  add("aclrtStreamWaitEvent", [](SequenceState& s) { return aclrtStreamWaitEvent(nullptr, s.event); });
  add("aclrtMemcpyAsync", [](SequenceState& s) {
    return aclrtMemcpyAsync(aclGetDataBufferAddr(s.result_buffer), aclGetDataBufferSizeV2(s.result_buffer),
                            ResultDevice(s), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, nullptr);
  });
  add("aclrtSynchronizeStream", [](SequenceState&) { return aclrtSynchronizeStream(nullptr); });
  return steps;
}

void RunStepsBefore(StepRole role, const std::vector<Step>& steps, SequenceState& state, size_t* index) {
  for (*index = 0; *index < steps.size() && steps[*index].role != role; ++*index) {
    ASSERT_EQ(steps[*index].call(state), 0) << steps[*index].name;
  }
}

LiveCounts CountLiveObjects() {
  return LiveCounts{aclcpuLiveObjectCount("device_memory"), aclcpuLiveObjectCount("host_memory"),
                    aclcpuLiveObjectCount("events"), aclcpuLiveObjectCount("streams"),
                    aclcpuLiveObjectCount("data_buffers")};
}

int WalkSite(Operator op, const char* site, const std::map<std::string, int>& expected) {
  // More passes than any site has in one sequence: a walk that gets here
  // means the fault keeps firing, i.e. it never disarms.
  constexpr int64_t kMaxPasses = 100;
  const std::vector<Step> steps = OperatorCallSequence(op);
  int faults = 0;
  for (int64_t n = 1; n <= kMaxPasses; ++n) {
    const std::string walk = std::string(OperatorName(op)) + " sequence, " + site + ":" + std::to_string(n);
    SequenceState state(op);
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
        const auto documented = expected.find(step.Key());
        if (documented == expected.end()) {
          ADD_FAILURE() << where << ", which is not a call that passes through the site (status " << status << ")";
        } else {
          EXPECT_EQ(status, documented->second) << where;
        }
        EXPECT_FALSE(TakeMessages().empty()) << where << ": no message for aclGetRecentErrMsg";
        EXPECT_TRUE(CountLiveObjects() == before_call) << where << ": the failed call left a runtime object behind";
        if (step.role == StepRole::kPhase1) {
          EXPECT_EQ(state.executor, nullptr) << where << ": a failed phase 1 returned an executor";
        }
        if (step.role == StepRole::kPhase2) {
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

int ThreadsOfThisProcess() {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return -1;
  int count = 0;
  while (dirent* entry = readdir(tasks)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(tasks);
  return count;
}

}  // namespace aclcpu_fault_test
