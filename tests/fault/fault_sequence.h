// aclcpu fault-injection tests: the controls libascendcl.so exports for them,
// and one API call sequence walked with a fault at each pass through a site.
//
// The sequence is what a CANN program does for one operator call: device and
// host memory (the host memory also described as an aclDataBuffer), the
// operator's tensors, an int array and a scalar, a stream and an event, phase
// 1, phase 2 on the stream, an event recorded there and waited for on the
// default stream, the result copied back asynchronously into the data buffer's
// memory, and a synchronisation. It is written once for every operator of the
// library (Operator below), so that each is walked to the same standard.
// Each step is one API call; a step fails only through the armed fault.
#ifndef ACLCPU_TESTS_FAULT_FAULT_SEQUENCE_H_
#define ACLCPU_TESTS_FAULT_FAULT_SEQUENCE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

// Test controls (src/runtime/fault_injection.h, src/runtime/live_objects.h);
// not part of CANN's headers.
extern "C" {
aclError aclcpuSetFaultInjection(const char* site, int64_t nth);
int64_t aclcpuFaultInjectionFired(void);
int64_t aclcpuLiveObjectCount(const char* kind);
}

namespace aclcpu_fault_test {

// What a step returns when a creator gave nullptr (aclCreateTensor & co. have
// no status of their own).
constexpr int kNullHandle = -1;

// Above the launches that run straight from the executor (at most 4096
// elements, ops/shared/elementwise_plan.cc): phase 2 then builds and queues a
// launch, the path with an allocation that can fail.
constexpr int64_t kElements = 8192;

// The operators the sequence can call. Their tensors (and device buffers):
// gradOutput, self, out for the backward op; self, out for aclnnHardsigmoid;
// self alone, read and written, for aclnnInplaceHardsigmoid.
enum class Operator { kHardsigmoidBackward, kHardsigmoid, kInplaceHardsigmoid };
constexpr Operator kOperators[] = {Operator::kHardsigmoidBackward, Operator::kHardsigmoid,
                                   Operator::kInplaceHardsigmoid};

// The operator's phase-2 function name ("aclnnHardsigmoidBackward", ...), for
// messages and test names.
const char* OperatorName(Operator op);
// How many tensors (and device buffers) the operator's sequence creates.
int OperatorTensors(Operator op);
// GoogleTest prints a test's parameter with this: the operator's name.
void PrintTo(Operator op, std::ostream* os);

// Everything the sequence has obtained so far; Release frees it all. `op` is
// the operator the sequence calls (kept by Release).
struct SequenceState {
  explicit SequenceState(Operator op) : op(op) {}

  Operator op;
  void* grad_device = nullptr;  // the backward op only
  void* self_device = nullptr;
  void* out_device = nullptr;  // not for the in-place form, which writes self_device
  void* host_result = nullptr;
  aclDataBuffer* result_buffer = nullptr;
  aclTensor* grad = nullptr;
  aclTensor* self = nullptr;
  aclTensor* out = nullptr;
  aclIntArray* shape = nullptr;
  aclScalar* scalar = nullptr;
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  aclOpExecutor* executor = nullptr;
  uint64_t workspace_size = 0;

  void Release();
};

// Where an operator's phases stand in the sequence. Maps of documented
// statuses (WalkSite) name them kPhase1 / kPhase2 rather than by function, so
// that one map serves every operator.
enum class StepRole { kOther, kPhase1, kPhase2 };
constexpr const char kPhase1[] = "phase 1";
constexpr const char kPhase2[] = "phase 2";

struct Step {
  std::string name;  // the API function called
  std::function<int(SequenceState&)> call;
  // On failure, the sequence resumes (un-faulted) from this step: the failed
  // step itself, or an earlier one whose result the failure used up (a
  // one-shot executor is spent even when its launch fails).
  size_t resume_from;
  StepRole role = StepRole::kOther;

  // What maps of documented statuses call the step: kPhase1, kPhase2 or its name.
  std::string Key() const;
};

std::vector<Step> OperatorCallSequence(Operator op);

// Runs the steps before the first one of `role` (un-faulted: each must
// succeed) and sets *index to that step's index.
void RunStepsBefore(StepRole role, const std::vector<Step>& steps, SequenceState& state, size_t* index);

// Phase 1 of `op` on the sequence's tensors (grad is ignored by the forward
// pair, out by the in-place form), and phase 2: what the sequence's phase
// steps call, for tests that drive the phases themselves.
int CallPhase1(Operator op, aclTensor* grad, aclTensor* self, aclTensor* out, uint64_t* workspace_size,
               aclOpExecutor** executor);
int CallPhase2(Operator op, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
               aclrtStream stream);

// The operator's result for one element (float32; the forward pair ignores grad).
float OperatorResult(Operator op, float grad, float self);
// Its result for element i of the sequence's inputs.
float ExpectedElement(Operator op, int64_t i);
// The sequence's input values, for element i.
float GradValue(int64_t i);
float SelfValue(int64_t i);

// The live runtime objects a failed call must not have changed.
struct LiveCounts {
  int64_t device_memory, host_memory, events, streams, data_buffers;
  bool operator==(const LiveCounts& other) const {
    return device_memory == other.device_memory && host_memory == other.host_memory && events == other.events &&
           streams == other.streams && data_buffers == other.data_buffers;
  }
};
LiveCounts CountLiveObjects();

// Checks the sequence's result in host memory, element by element.
void ExpectCorrectResult(const SequenceState& state, const std::string& context);

// Walks n = 1, 2, ... with the nth pass through `site` failing, until the
// sequence of `op` runs without reaching the fault. For each fault that fired
// it checks: the step that failed is one of `expected` (keyed by Step::Key)
// with the status given there, a non-empty aclGetRecentErrMsg, no runtime
// object left registered by the failed call, and that resuming the sequence
// un-faulted (from the failed call) completes with a correct result. Returns
// the number of faults that fired (the passes through the site in one sequence).
int WalkSite(Operator op, const char* site, const std::map<std::string, int>& expected);

// The threads of this process now (entries of /proc/self/task), -1 if unknown.
int ThreadsOfThisProcess();

}  // namespace aclcpu_fault_test

#endif  // ACLCPU_TESTS_FAULT_FAULT_SEQUENCE_H_
