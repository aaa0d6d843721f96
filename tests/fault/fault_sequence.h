// aclcpu fault-injection tests: the controls libascendcl.so exports for them,
// and one API call sequence walked with a fault at each pass through a site.
//
// The sequence is what a CANN program does for one operator call: device and
// host memory (the host memory also described as an aclDataBuffer), three
// tensors, an int array and a scalar, a stream and an event, phase 1, phase 2
// on the stream, an event recorded there and waited for on the default stream,
// the result copied back asynchronously into the data buffer's memory, and a
// synchronisation.
// Each step is one API call; a step fails only through the armed fault.
#ifndef ACLCPU_TESTS_FAULT_FAULT_SEQUENCE_H_
#define ACLCPU_TESTS_FAULT_FAULT_SEQUENCE_H_

#include <cstdint>
#include <functional>
#include <map>
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

// Everything the sequence has obtained so far; Release frees it all.
struct SequenceState {
  void* grad_device = nullptr;
  void* self_device = nullptr;
  void* out_device = nullptr;
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

struct Step {
  std::string name;
  std::function<int(SequenceState&)> call;
  // On failure, the sequence resumes (un-faulted) from this step: the failed
  // step itself, or an earlier one whose result the failure used up (a
  // one-shot executor is spent even when its launch fails).
  size_t resume_from;
};

std::vector<Step> OperatorCallSequence();

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
// sequence runs without reaching the fault. For each fault that fired it
// checks: the step that failed is one of `expected` with the status given
// there, a non-empty aclGetRecentErrMsg, no runtime object left registered by
// the failed call, and that resuming the sequence un-faulted (from the failed
// call) completes with a correct result. Returns the number of faults that
// fired (the passes through the site in one sequence).
int WalkSite(const char* site, const std::map<std::string, int>& expected);

}  // namespace aclcpu_fault_test

#endif  // ACLCPU_TESTS_FAULT_FAULT_SEQUENCE_H_
