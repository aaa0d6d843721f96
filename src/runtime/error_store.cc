// aclcpu runtime: per-thread recent error messages and last runtime status.
//
// CANN keeps the messages of failed calls per thread and hands them out once
// through aclGetRecentErrMsg, newest first. Everything here is thread_local, so
// no locking is needed; a message recorded by a stream's worker thread (a task
// that failed) belongs to that worker thread, as on CANN.
#include "runtime/error_store.h"

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <new>
#include <string>

#include "acl/acl.h"
#include "common/env.h"
#include "common/error_report.h"
#include "common/fault_injection.h"
#include "common/raw_enum.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

// A program that never reads its messages must not grow without bound: keep the
// newest ones only.
constexpr size_t kMaxMessagesPerThread = 64;

// The newest messages, oldest first, in a ring of strings allocated on the
// first message. A thread's state lives in static TLS, so it must stay small
// (a few kilobytes would make dlopen of libascendcl.so fail: "cannot allocate
// memory in static TLS block") and must not allocate when built (a thread's
// first runtime call must not fail for lack of memory, as a std::deque's
// up-front map made it); the ring's one allocation happens where running out
// of memory only loses the message.
class MessageRing {
 public:
  bool empty() const { return count_ == 0; }
  // Stores `message` as the newest, dropping the oldest when full. Throws
  // std::bad_alloc (the ring unchanged but for a dropped oldest) if the copy cannot be made.
  void Push(const char* message) {
    if (slots_ == nullptr) {
      slots_.reset(new (std::nothrow) std::string[kMaxMessagesPerThread]);
      if (slots_ == nullptr) throw std::bad_alloc();
    }
    if (count_ == kMaxMessagesPerThread) {
      slots_[first_].clear();
      first_ = (first_ + 1) % kMaxMessagesPerThread;
      --count_;
    }
    slots_[(first_ + count_) % kMaxMessagesPerThread].assign(message);
    ++count_;
  }
  // The i-th newest (0: the newest); i < size().
  const std::string& Newest(size_t i) const { return slots_[(first_ + count_ - 1 - i) % kMaxMessagesPerThread]; }
  size_t size() const { return count_; }
  void clear() {
    slots_.reset();  // gives the memory back; a later message allocates again
    first_ = 0;
    count_ = 0;
  }

 private:
  std::unique_ptr<std::string[]> slots_;
  size_t first_ = 0;
  size_t count_ = 0;
};

struct ThreadErrorState {
  MessageRing messages;
  std::string handed_out;            // what the last aclGetRecentErrMsg returned
  aclError last_runtime_error = ACL_SUCCESS;
  // Messages that could not be stored for lack of memory. Recording a message
  // must never fail the call that reports it (nor throw through the C API), so
  // such a message is counted and aclGetRecentErrMsg says it was lost.
  size_t lost = 0;
};

// What aclGetRecentErrMsg returns when messages were lost and no memory is
// left to say more: fixed text, no allocation.
constexpr const char* kLostMessages =
    "EE9999: aclcpu: error message(s) were lost: out of memory recording them";

ThreadErrorState& ThisThread() {
  thread_local ThreadErrorState state;
  return state;
}

}  // namespace

void StoreErrorMessage(const char* message) {
  if (message == nullptr) return;
  // Strict mode reports every mistake where a developer sees it, not only to
  // callers that read aclGetRecentErrMsg.
  if (Verbose() || StrictMode()) std::fprintf(stderr, "aclcpu: %s\n", message);
  ThreadErrorState& state = ThisThread();
  try {
    if (InjectFault(FaultSite::kErrorStore)) throw std::bad_alloc();
    state.messages.Push(message);
  } catch (const std::bad_alloc&) {  // the message's copy
    ++state.lost;
  }
}

const char* TakeRecentErrorMessages() {
  ThreadErrorState& state = ThisThread();
  if (state.messages.empty() && state.lost == 0) {
    state.handed_out.clear();
    return nullptr;
  }
  const size_t lost = state.lost;
  state.lost = 0;
  try {
    std::string joined;
    if (lost > 0) {
      joined = kLostMessages;
      joined += " (" + std::to_string(lost) + ")";
    }
    for (size_t i = 0; i < state.messages.size(); ++i) {
      if (!joined.empty()) joined += '\n';
      joined += state.messages.Newest(i);
    }
    state.messages.clear();
    state.handed_out = std::move(joined);
    return state.handed_out.c_str();
  } catch (const std::bad_alloc&) {
    // No memory to join them: hand out the fixed text and drop the messages.
    state.messages.clear();
    return kLostMessages;
  }
}

void SetLastRuntimeError(aclError code) {
  if (code != ACL_SUCCESS) ThisThread().last_runtime_error = code;
}

aclError PeekLastRuntimeError() { return ThisThread().last_runtime_error; }

aclError TakeLastRuntimeError() {
  ThreadErrorState& state = ThisThread();
  const aclError code = state.last_runtime_error;
  state.last_runtime_error = ACL_SUCCESS;
  return code;
}

aclError FailWith(aclError code, const char* format, ...) {
  char body[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(body, sizeof body, format, args);
  va_end(args);
  ReportError(code, "%s", body);
  SetLastRuntimeError(code);
  return code;
}

}  // namespace aclcpu

extern "C" {

const char* aclGetRecentErrMsg(void) { return aclcpu::TakeRecentErrorMessages(); }

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  // A bad level is reported but does not overwrite the status being asked for.
  if (aclcpu::RawEnum(level) != ACL_RT_THREAD_LEVEL) {
    aclcpu::ReportError(ACL_ERROR_INVALID_PARAM, "aclrtPeekAtLastError: level (%d) is not ACL_RT_THREAD_LEVEL",
                        aclcpu::RawEnum(level));
    return ACL_ERROR_INVALID_PARAM;
  }
  return aclcpu::PeekLastRuntimeError();
}

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  if (aclcpu::RawEnum(level) != ACL_RT_THREAD_LEVEL) {
    aclcpu::ReportError(ACL_ERROR_INVALID_PARAM, "aclrtGetLastError: level (%d) is not ACL_RT_THREAD_LEVEL",
                        aclcpu::RawEnum(level));
    return ACL_ERROR_INVALID_PARAM;
  }
  return aclcpu::TakeLastRuntimeError();
}

}  // extern "C"
