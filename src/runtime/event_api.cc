// aclcpu runtime: the event entry points.
//
// Choices where CANN's documentation is silent:
// - An event with no record since its creation or last reset is NOT_READY for
//   both query functions, aclrtSynchronizeEvent returns at once, and
//   aclrtStreamWaitEvent queues nothing.
// - Every event keeps timestamps, whatever its flags (ACL_EVENT_TIME_LINE only
//   saves device resources on an NPU), so aclrtEventElapsedTime always works.
#include <chrono>
#include <memory>

#include "acl/acl.h"
#include "runtime/context.h"
#include "runtime/error_store.h"
#include "runtime/event.h"
#include "runtime/flag_check.h"
#include "runtime/pending_work.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

aclError CreateEvent(const char* call, aclrtEvent* event, uint32_t flags) {
  if (event == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: event is null", call);
  const aclError checked = CheckFlags(call, "flag", flags, kEventFlags);
  if (checked != ACL_SUCCESS) return checked;
  const std::shared_ptr<Event> created = RegisterEvent(flags);
  if (created == nullptr) return FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory creating the event", call);
  *event = created->handle();
  return ACL_SUCCESS;
}

// Null is a parameter error (100000); a non-null handle that is not a live
// event is an invalid runtime handle (107000).
aclError LookUpEvent(const char* call, const char* argument, aclrtEvent handle, std::shared_ptr<Event>* event) {
  if (handle == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: %s is null", call, argument);
  *event = FindEvent(handle);
  if (*event == nullptr) {
    return FailWith(ACL_ERROR_RT_PARAM_INVALID, "%s: %s %p is not a live event", call, argument, handle);
  }
  return ACL_SUCCESS;
}

// `task` is nullptr when it could not be allocated.
aclError SubmitOrFail(const char* call, const std::shared_ptr<Stream>& stream, Task* task) {
  if (task == nullptr) return FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory creating the task", call);
  const aclError submitted = stream->Submit(task);
  if (submitted == ACL_ERROR_RT_PARAM_INVALID) {
    return FailWith(submitted, "%s: the stream was destroyed by another thread", call);
  }
  return submitted;  // a failure to queue has been reported by the stream
}

}  // namespace
}  // namespace aclcpu

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  return aclcpu::CreateEvent("aclrtCreateEvent", event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE);
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  return aclcpu::CreateEvent("aclrtCreateEventWithFlag", event, flag);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  return aclcpu::CreateEvent("aclrtCreateEventExWithFlag", event, flag);
}

// Records queued before the destruction still complete: their tasks hold the
// event's state alive.
aclError aclrtDestroyEvent(aclrtEvent event) {
  if (event == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: event is null");
  if (aclcpu::UnregisterEvent(event) == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyEvent: event %p is not a live event", event);
  }
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  std::shared_ptr<aclcpu::Event> found;
  aclError status = aclcpu::LookUpEvent("aclrtRecordEvent", "event", event, &found);
  if (status != ACL_SUCCESS) return status;
  std::shared_ptr<aclcpu::Stream> target;
  status = aclcpu::ResolveStream("aclrtRecordEvent", stream, &target);
  if (status != ACL_SUCCESS) return status;
  const uint64_t generation = found->BeginRecord();
  // Strict mode: seeing this record complete synchronises the host with the
  // work queued on the stream before it (runtime/pending_work.h).
  if (aclcpu::StrictMode()) found->SetHostFence(generation, target->handle(), aclcpu::PendingFence());
  status = aclcpu::SubmitOrFail("aclrtRecordEvent", target,
                                aclcpu::Event::MakeRecordTask(found, generation, target.get()));
  // A record that will never run must not leave waiters hanging.
  if (status != ACL_SUCCESS) found->CompleteReset(generation);
  return status;
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  std::shared_ptr<aclcpu::Event> found;
  aclError status = aclcpu::LookUpEvent("aclrtResetEvent", "event", event, &found);
  if (status != ACL_SUCCESS) return status;
  std::shared_ptr<aclcpu::Stream> target;
  status = aclcpu::ResolveStream("aclrtResetEvent", stream, &target);
  if (status != ACL_SUCCESS) return status;
  const uint64_t generation = found->LatestGeneration();
  if (generation == 0) return ACL_SUCCESS;  // nothing recorded: already reset
  return aclcpu::SubmitOrFail("aclrtResetEvent", target, aclcpu::Event::MakeResetTask(found, generation));
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  std::shared_ptr<aclcpu::Event> found;
  aclError status = aclcpu::LookUpEvent("aclrtStreamWaitEvent", "event", event, &found);
  if (status != ACL_SUCCESS) return status;
  std::shared_ptr<aclcpu::Stream> waiter;
  status = aclcpu::ResolveStream("aclrtStreamWaitEvent", stream, &waiter);
  if (status != ACL_SUCCESS) return status;
  // The wait is for the record most recent *now*; later records do not matter.
  const uint64_t generation = found->LatestGeneration();
  if (generation == 0) return ACL_SUCCESS;
  return aclcpu::SubmitOrFail("aclrtStreamWaitEvent", waiter, aclcpu::Event::MakeWaitTask(found, generation));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  std::shared_ptr<aclcpu::Event> found;
  const aclError status = aclcpu::LookUpEvent("aclrtSynchronizeEvent", "event", event, &found);
  if (status != ACL_SUCCESS) return status;
  const uint64_t generation = found->LatestGeneration();
  if (generation != 0) found->WaitFor(generation);
  if (aclcpu::StrictMode()) found->HostSawComplete(generation);
  // Tasks of the record's stream that failed before the record was reached
  // are reported here, once, as a stream synchronisation would
  // (Stream::TakeFailures); none is the common case: one load, no lookup.
  const aclcpu::Event::Snapshot state = found->Query();
  if (state.complete && state.stream_failures != 0) {
    const std::shared_ptr<aclcpu::Stream> stream = aclcpu::FindStream(state.stream);
    if (stream != nullptr) return stream->TakeFailures("aclrtSynchronizeEvent", state.stream_failures);
  }
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  std::shared_ptr<aclcpu::Event> found;
  const aclError result = aclcpu::LookUpEvent("aclrtQueryEventStatus", "event", event, &found);
  if (result != ACL_SUCCESS) return result;
  if (status == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtQueryEventStatus: status is null");
  const aclcpu::Event::Snapshot state = found->Query();
  if (state.complete && aclcpu::StrictMode()) found->HostSawComplete(state.generation);
  *status = state.complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  std::shared_ptr<aclcpu::Event> found;
  const aclError result = aclcpu::LookUpEvent("aclrtQueryEvent", "event", event, &found);
  if (result != ACL_SUCCESS) return result;
  if (status == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtQueryEvent: status is null");
  const aclcpu::Event::Snapshot state = found->Query();
  if (state.complete && aclcpu::StrictMode()) found->HostSawComplete(state.generation);
  *status = state.complete ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  if (ms == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: ms is null");
  std::shared_ptr<aclcpu::Event> start;
  aclError status = aclcpu::LookUpEvent("aclrtEventElapsedTime", "startEvent", startEvent, &start);
  if (status != ACL_SUCCESS) return status;
  std::shared_ptr<aclcpu::Event> end;
  status = aclcpu::LookUpEvent("aclrtEventElapsedTime", "endEvent", endEvent, &end);
  if (status != ACL_SUCCESS) return status;
  const aclcpu::Event::Snapshot start_state = start->Query();
  const aclcpu::Event::Snapshot end_state = end->Query();
  // Not recorded is a misuse of the handle (107000); recorded but not reached
  // yet is the transient "not complete" status the caller may retry on.
  if (!start_state.recorded) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtEventElapsedTime: startEvent %p has not been recorded",
                            startEvent);
  }
  if (!end_state.recorded) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtEventElapsedTime: endEvent %p has not been recorded",
                            endEvent);
  }
  if (!start_state.complete) {
    return aclcpu::FailWith(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                            "aclrtEventElapsedTime: startEvent %p is recorded but not complete yet", startEvent);
  }
  if (!end_state.complete) {
    return aclcpu::FailWith(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                            "aclrtEventElapsedTime: endEvent %p is recorded but not complete yet", endEvent);
  }
  *ms = std::chrono::duration<float, std::milli>(end_state.time - start_state.time).count();
  return ACL_SUCCESS;
}

}  // extern "C"
