// Issue "Reliability", clause 5: an allocation failure (memory, executors,
// queue entries) returns the documented status and leaves no partial state; the
// next call works. One test per site (docs/reliability.md lists them): each
// walks every pass through its site in the operator call sequence of every
// operator (aclnnHardsigmoidBackward, aclnnHardsigmoid, aclnnInplaceHardsigmoid;
// issue 21: the forward pair to the backward op's standard), failing it
// (fault_sequence.h says what is checked at each).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "fault_sequence.h"
#include "gate.h"
#include "runtime/services.h"

namespace aclcpu_fault_test {
namespace {

// What the calls that queue work on a stream answer when the queueing fails
// with `runtime_status`: phase 2 reports it as 361001 (with the runtime's
// message); runtime calls return the runtime status.
std::map<std::string, int> QueuedWorkStatuses(int runtime_status) {
  return {{kPhase2, ACLNN_ERR_RUNTIME_ERROR},
          {"aclrtRecordEvent", runtime_status},
          {"aclrtStreamWaitEvent", runtime_status},
          {"aclrtMemcpyAsync", runtime_status}};
}

// Runs the sequence of `op` (un-faulted) up to its phase 2, then `fail_launch`,
// which makes the launch fail its own way and returns the step to resume from;
// then the rest of the sequence, whose result must be right.
void FailLaunchThenResume(Operator op, const std::function<size_t(SequenceState&, size_t phase2)>& fail_launch) {
  SCOPED_TRACE(OperatorName(op));
  SequenceState state(op);
  const std::vector<Step> steps = OperatorCallSequence(op);
  size_t phase2 = 0;
  ASSERT_NO_FATAL_FAILURE(RunStepsBefore(StepRole::kPhase2, steps, state, &phase2));
  for (size_t i = fail_launch(state, phase2); i < steps.size(); ++i) {
    ASSERT_EQ(steps[i].call(state), 0) << steps[i].name;
  }
  ExpectCorrectResult(state, "resumed after the failed launch");
  state.Release();
}

class FaultInjection : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    static const aclError initialised = aclInit(nullptr);  // once per process (--gtest_repeat)
    ASSERT_EQ(initialised, ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  static void TearDownTestSuite() { aclrtResetDevice(0); }
  void TearDown() override { aclcpuSetFaultInjection(nullptr, 0); }
};

// One device allocation per tensor of the operator.
TEST_F(FaultInjection, DeviceAllocateFailureReturnsMemoryAllocationAndAllocatesNothing) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "DeviceAllocate", {{"aclrtMalloc", ACL_ERROR_RT_MEMORY_ALLOCATION}}), OperatorTensors(op))
        << OperatorName(op);
  }
}

// The registry entry failing after the memory was obtained: the memory goes back.
TEST_F(FaultInjection, DeviceBookkeepingFailureReturnsMemoryAllocationAndFreesTheMemory) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "DeviceBookkeeping", {{"aclrtMalloc", ACL_ERROR_RT_MEMORY_ALLOCATION}}),
              OperatorTensors(op))
        << OperatorName(op);
  }
}

TEST_F(FaultInjection, HostAllocateFailureReturnsMemoryAllocation) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "HostAllocate", {{"aclrtMallocHost", ACL_ERROR_RT_MEMORY_ALLOCATION}}), 1)
        << OperatorName(op);
  }
}

TEST_F(FaultInjection, HostBookkeepingFailureReturnsMemoryAllocationAndFreesTheMemory) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "HostBookkeeping", {{"aclrtMallocHost", ACL_ERROR_RT_MEMORY_ALLOCATION}}), 1)
        << OperatorName(op);
  }
}

// The object, then its dims: each of the operator's tensors fails both ways.
TEST_F(FaultInjection, TensorCreateFailureReturnsNullWithAMessage) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "TensorCreate", {{"aclCreateTensor", kNullHandle}}), 2 * OperatorTensors(op))
        << OperatorName(op);
  }
}

// aclInitTensor failing half-way must leave the tensor as it was.
TEST_F(FaultInjection, InitTensorFailureLeavesTheTensorUnchanged) {
  const int64_t dims[2] = {2, 3};
  const int64_t strides[2] = {3, 1};
  const int64_t storage[1] = {6};
  aclTensor* tensor = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, nullptr);
  ASSERT_NE(tensor, nullptr);
  const int64_t new_dims[3] = {4, 5, 6};
  const int64_t new_storage[1] = {120};
  ASSERT_EQ(aclcpuSetFaultInjection("TensorCreate", 1), ACL_SUCCESS);
  EXPECT_EQ(aclInitTensor(tensor, new_dims, 3, ACL_FLOAT16, nullptr, 7, ACL_FORMAT_NCHW, new_storage, 1, nullptr),
            ACLNN_ERR_INNER);
  EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
  const char* message = aclGetRecentErrMsg();
  EXPECT_TRUE(message != nullptr && std::string(message).find("aclInitTensor") != std::string::npos);
  int64_t* got = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclGetViewShape(tensor, &got, &count), ACLNN_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_TRUE(count == 2 && got[0] == 2 && got[1] == 3);
  delete[] got;
  ASSERT_EQ(aclGetStorageShape(tensor, &got, &count), ACLNN_SUCCESS);
  EXPECT_TRUE(count == 1 && got[0] == 6);
  delete[] got;
  aclDataType dtype = ACL_DT_UNDEFINED;
  ASSERT_EQ(aclGetDataType(tensor, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_FLOAT);
  // The next call works.
  EXPECT_EQ(aclInitTensor(tensor, new_dims, 3, ACL_FLOAT16, nullptr, 7, ACL_FORMAT_NCHW, new_storage, 1, nullptr),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclGetViewShape(tensor, &got, &count), ACLNN_SUCCESS);
  EXPECT_TRUE(count == 3 && got[0] == 4 && got[2] == 6);
  delete[] got;
  aclDestroyTensor(tensor);
}

TEST_F(FaultInjection, ArrayCreateFailureReturnsNullWithAMessage) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "ArrayCreate", {{"aclCreateIntArray", kNullHandle}, {"aclCreateScalar", kNullHandle}}),
              3)
        << OperatorName(op);
  }
}

// A tensor list that cannot be created leaves its tensors to the caller.
TEST_F(FaultInjection, TensorListCreateFailureLeavesTheTensorsToTheCaller) {
  const int64_t dims[1] = {4};
  aclTensor* tensor = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, nullptr);
  ASSERT_NE(tensor, nullptr);
  const aclTensor* elements[1] = {tensor};
  for (int64_t n = 1; n <= 2; ++n) {
    ASSERT_EQ(aclcpuSetFaultInjection("ArrayCreate", n), ACL_SUCCESS);
    EXPECT_EQ(aclCreateTensorList(elements, 1), nullptr) << "pass " << n;
    EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
    EXPECT_NE(aclGetRecentErrMsg(), nullptr);
    aclDataType dtype = ACL_DT_UNDEFINED;
    EXPECT_EQ(aclGetDataType(tensor, &dtype), ACLNN_SUCCESS);  // still the caller's, still alive
    EXPECT_EQ(dtype, ACL_FLOAT);
  }
  aclcpuSetFaultInjection(nullptr, 0);
  aclTensorList* list = aclCreateTensorList(elements, 1);
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);  // destroys the tensor with it
}

TEST_F(FaultInjection, ExecutorCreateFailureReturns561101AndNoExecutor) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "ExecutorCreate", {{kPhase1, ACLNN_ERR_INNER_CREATE_EXECUTOR}}), 1) << OperatorName(op);
  }
}

TEST_F(FaultInjection, LaunchCreateFailureReturns561000AndSpendsTheOneShotExecutor) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "LaunchCreate", {{kPhase2, ACLNN_ERR_INNER}}), 1) << OperatorName(op);
  }
}

// A repeatable executor whose launch could not be built stays usable: launched
// again, it gives the right result (the in-place form's self was not touched).
TEST_F(FaultInjection, LaunchCreateFailureLeavesARepeatableExecutorLaunchable) {
  for (Operator op : kOperators) {
    FailLaunchThenResume(op, [op](SequenceState& state, size_t phase2) {
      EXPECT_EQ(aclSetAclOpExecutorRepeatable(state.executor), ACLNN_SUCCESS);
      EXPECT_EQ(aclcpuSetFaultInjection("LaunchCreate", 1), ACL_SUCCESS);
      EXPECT_EQ(CallPhase2(op, nullptr, 0, state.executor, state.stream), ACLNN_ERR_INNER);
      EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
      EXPECT_NE(aclGetRecentErrMsg(), nullptr);
      // The same executor launched again; still live afterwards (Release destroys it).
      EXPECT_EQ(CallPhase2(op, nullptr, 0, state.executor, state.stream), ACLNN_SUCCESS);
      return phase2 + 1;
    });
  }
}

TEST_F(FaultInjection, StreamCreateFailureReturnsMemoryAllocationAndRegistersNothing) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "StreamCreate", {{"aclrtCreateStream", ACL_ERROR_RT_MEMORY_ALLOCATION}}), 2)
        << OperatorName(op);
  }
}

// A context is registered with its default stream as a whole or not at all,
// and a device whose primary context could not be made stays unset.
TEST_F(FaultInjection, ContextCreateFailureReturnsMemoryAllocationAndRegistersNothing) {
  const LiveCounts before = CountLiveObjects();
  int faults = 0;
  for (int64_t n = 1;; ++n) {
    ASSERT_EQ(aclcpuSetFaultInjection("ContextCreate", n), ACL_SUCCESS);
    aclrtContext context = nullptr;
    const aclError status = aclrtCreateContext(&context, 0);
    if (aclcpuFaultInjectionFired() == 0) {
      ASSERT_EQ(status, ACL_SUCCESS);
      EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
      break;
    }
    ++faults;
    EXPECT_EQ(status, ACL_ERROR_RT_MEMORY_ALLOCATION) << "pass " << n;
    EXPECT_EQ(context, nullptr) << "pass " << n;
    EXPECT_NE(aclGetRecentErrMsg(), nullptr) << "pass " << n;
    EXPECT_TRUE(CountLiveObjects() == before) << "pass " << n;
  }
  EXPECT_EQ(faults, 3);  // the context with its default stream, its entry, the stream's entry

  // aclrtSetDevice making the primary context: the fixture's device 0 is reset
  // first, so that the next aclrtSetDevice creates it again.
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclcpuSetFaultInjection("ContextCreate", 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  aclrtContext current = nullptr;
  EXPECT_NE(aclrtGetCurrentContext(&current), ACL_SUCCESS);  // the device was not set
  aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // the next call works, and every sequence on it
  for (Operator op : kOperators) EXPECT_EQ(WalkSite(op, "ContextCreate", {}), 0) << OperatorName(op);
}

// Queue entries: phase 2 reports the runtime's failure as 361001 (with the
// runtime's message); runtime calls return the runtime status.
TEST_F(FaultInjection, StreamQueuePushFailureReturnsMemoryAllocationAndDeletesTheTaskUnrun) {
  for (Operator op : kOperators) {
    EXPECT_GE(WalkSite(op, "StreamQueuePush", QueuedWorkStatuses(ACL_ERROR_RT_MEMORY_ALLOCATION)), 3)
        << OperatorName(op);
  }
}

// A task that keeps a stream busy until its gate opens.
class GateTask final : public aclcpu::Task {
 public:
  explicit GateTask(aclcpu_test::Gate* gate) : gate_(gate) {}
  bool Run() override {
    gate_->Wait();
    return true;
  }
  const char* Name() const override { return "GateTask"; }

 private:
  aclcpu_test::Gate* gate_;
};

// A launch on an idle stream runs on the calling thread and queues nothing;
// behind earlier work it is queued, and a queue entry that cannot be had makes
// phase 2 fail with 361001, spends the one-shot executor, and leaves the stream
// running the work it had and taking new work (the in-place form's self
// untouched by the launch that was not queued).
TEST_F(FaultInjection, StreamQueuePushFailureOfALaunchBehindBusyStreamReturns361001) {
  const aclcpu::RuntimeServices& runtime = *aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi);
  for (Operator op : kOperators) {
    FailLaunchThenResume(op, [op, &runtime](SequenceState& state, size_t phase2) {
      aclcpu_test::Gate gate;
      EXPECT_EQ(runtime.submit(state.stream, new GateTask(&gate)), ACL_SUCCESS);
      EXPECT_EQ(aclcpuSetFaultInjection("StreamQueuePush", 1), ACL_SUCCESS);
      EXPECT_EQ(CallPhase2(op, nullptr, 0, state.executor, state.stream), ACLNN_ERR_RUNTIME_ERROR);
      EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
      EXPECT_NE(aclGetRecentErrMsg(), nullptr);
      EXPECT_EQ(CallPhase2(op, nullptr, 0, state.executor, state.stream), ACLNN_ERR_PARAM_INVALID)
          << "the one-shot executor was not spent";
      gate.Open();
      EXPECT_EQ(aclrtSynchronizeStream(state.stream), ACL_SUCCESS);
      state.executor = nullptr;
      return phase2 - 1;  // phase 1 again, then the rest
    });
  }
}

TEST_F(FaultInjection, StreamWorkerStartFailureReturnsResourceAllocFailAndTheStreamStaysUsable) {
  for (Operator op : kOperators) {
    EXPECT_GE(WalkSite(op, "StreamWorkerStart", QueuedWorkStatuses(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL)), 1)
        << OperatorName(op);
  }
}

TEST_F(FaultInjection, EventCreateFailureReturnsMemoryAllocationAndRegistersNothing) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "EventCreate", {{"aclrtCreateEvent", ACL_ERROR_RT_MEMORY_ALLOCATION}}), 2)
        << OperatorName(op);
  }
}

TEST_F(FaultInjection, EventTaskFailureReturnsMemoryAllocation) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "EventTask", {{"aclrtRecordEvent", ACL_ERROR_RT_MEMORY_ALLOCATION},
                                         {"aclrtStreamWaitEvent", ACL_ERROR_RT_MEMORY_ALLOCATION}}),
              2)
        << OperatorName(op);
  }
}

// The buffer, then its registry entry: nullptr with a message, nothing left.
TEST_F(FaultInjection, DataBufferCreateFailureReturnsNullAndCreatesNothing) {
  for (Operator op : kOperators) {
    EXPECT_EQ(WalkSite(op, "DataBufferCreate", {{"aclCreateDataBuffer", kNullHandle}}), 2) << OperatorName(op);
  }
}

// Recording a message cannot fail the call that reports it: the status is
// unchanged and aclGetRecentErrMsg says a message was lost.
TEST_F(FaultInjection, ErrorStoreFailureKeepsTheStatusAndReportsTheLostMessage) {
  ASSERT_EQ(aclcpuSetFaultInjection("ErrorStore", 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
  const char* lost = aclGetRecentErrMsg();
  ASSERT_NE(lost, nullptr);
  EXPECT_NE(std::string(lost).find("lost"), std::string::npos) << lost;
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  // The next failing call has its message again.
  EXPECT_EQ(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("aclrtMalloc: devPtr is null"), std::string::npos) << message;
  EXPECT_EQ(std::string(message).find("lost"), std::string::npos) << message;
}

// The message of an aclnn failure (recorded through the runtime's service
// table) too: the status of phase 1 is unchanged, in every operator.
TEST_F(FaultInjection, ErrorStoreFailureInAnAclnnCallKeepsItsStatus) {
  for (Operator op : kOperators) {
    SCOPED_TRACE(OperatorName(op));
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclcpuSetFaultInjection("ErrorStore", 1), ACL_SUCCESS);
    EXPECT_EQ(CallPhase1(op, nullptr, nullptr, nullptr, &workspace, &executor), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
    EXPECT_EQ(executor, nullptr);
    const char* lost = aclGetRecentErrMsg();
    ASSERT_NE(lost, nullptr);
    EXPECT_NE(std::string(lost).find("lost"), std::string::npos) << lost;
  }
}

TEST_F(FaultInjection, SetFaultInjectionRefusesUnknownSitesAndNegativeCounts) {
  EXPECT_EQ(aclcpuSetFaultInjection("NoSuchSite", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclcpuSetFaultInjection("DeviceAllocate", -1), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(aclGetRecentErrMsg(), nullptr);
  // Neither armed anything: allocations work.
  void* memory = nullptr;
  EXPECT_EQ(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  EXPECT_EQ(aclcpuFaultInjectionFired(), 0);
  EXPECT_EQ(aclcpuLiveObjectCount("no such kind"), -1);
}

}  // namespace
}  // namespace aclcpu_fault_test
