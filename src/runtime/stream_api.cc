// aclcpu runtime: the stream entry points (create, destroy, synchronise).
#include <memory>

#include "acl/acl.h"
#include "runtime/context.h"
#include "runtime/error_store.h"
#include "runtime/flag_check.h"
#include "runtime/pending_work.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

aclError CreateStreamInCurrentContext(const char* call, aclrtStream* stream) {
  if (stream == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: stream is null", call);
  std::shared_ptr<Context> current = CurrentContext();
  if (current == nullptr) {
    return FailWith(ACL_ERROR_RT_CONTEXT_NULL,
                    "%s: the calling thread has no current context (call aclrtSetDevice or aclrtSetCurrentContext first)",
                    call);
  }
  const std::shared_ptr<Stream> created = CreateStream(current);
  if (created == nullptr) return FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory creating a stream", call);
  *stream = created->handle();
  return ACL_SUCCESS;
}

}  // namespace
}  // namespace aclcpu

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
  return aclcpu::CreateStreamInCurrentContext("aclrtCreateStream", stream);
}

// Priority is accepted whatever its value: worker threads are not prioritised,
// and refusing a value the NPU accepts would break the program for nothing.
aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t priority, uint32_t flag) {
  (void)priority;
  if (stream == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtCreateStreamWithConfig: stream is null");
  const aclError checked =
      aclcpu::CheckFlags("aclrtCreateStreamWithConfig", "flag", flag, aclcpu::kStreamConfigFlags);
  if (checked != ACL_SUCCESS) return checked;
  return aclcpu::CreateStreamInCurrentContext("aclrtCreateStreamWithConfig", stream);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  // Null would mean the default stream, which is never the caller's to destroy;
  // CANN rejects a null handle as a parameter error.
  if (stream == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM,
                            "aclrtDestroyStream: stream is null (the default stream cannot be destroyed)");
  }
  std::shared_ptr<aclcpu::Stream> found = aclcpu::FindStream(stream);
  if (found == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyStream: stream %p is not a live stream", stream);
  }
  if (found->is_default()) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID,
                            "aclrtDestroyStream: stream %p is a context's default stream, which is destroyed with "
                            "its context",
                            stream);
  }
  // On an NPU, destroying a stream under queued work loses or crashes it: strict
  // mode refuses and leaves the stream as it is (the default mode waits). A
  // task already running is finishing and is waited for, as in the default mode.
  if (aclcpu::StrictMode()) {
    char names[256];
    const size_t queued = aclcpu::QueuedTasksOn(found->handle(), names, sizeof names);
    if (queued > 0) {
      return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID,
                              "aclrtDestroyStream: stream %p still has %zu queued task(s) (pending, oldest first: "
                              "%s); call aclrtSynchronizeStream before destroying it (the stream was left intact)",
                              stream, queued, names);
    }
  }
  found = aclcpu::UnregisterStream(stream);
  if (found == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID,
                            "aclrtDestroyStream: stream %p was destroyed by another thread", stream);
  }
  found->Shutdown();
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  aclcpu::Stream* found = nullptr;
  const aclError status = aclcpu::ResolveStreamCached("aclrtSynchronizeStream", stream, &found);
  if (status != ACL_SUCCESS) return status;
  // A task of the stream that failed since the last synchronisation is reported here, once.
  return found->Synchronize("aclrtSynchronizeStream");
}

// timeout: -1 waits forever, a positive value is milliseconds. 0 is taken as
// "check once" (CANN documents only -1 and > 0); below -1 is a parameter error.
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  if (timeout < -1) {
    return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM,
                            "aclrtSynchronizeStreamWithTimeout: timeout (%d) must be -1 (wait forever) or >= 0 ms",
                            timeout);
  }
  std::shared_ptr<aclcpu::Stream> found;
  const aclError status = aclcpu::ResolveStream("aclrtSynchronizeStreamWithTimeout", stream, &found);
  if (status != ACL_SUCCESS) return status;
  const aclError synchronised = found->Synchronize("aclrtSynchronizeStreamWithTimeout", timeout);
  if (synchronised == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
    // A failure, if any, stays to be reported once the stream's work is done.
    return aclcpu::FailWith(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                            "aclrtSynchronizeStreamWithTimeout: stream %p did not finish within %d ms", stream, timeout);
  }
  return synchronised;
}

}  // extern "C"
