// aclcpu runtime: contexts and the registry of live context and stream handles.
//
// Handles given to users (aclrtContext, aclrtStream) are never-reused serial
// numbers (runtime/handle_ids.h), looked up in the registry, so an unknown or
// destroyed handle is an error, not a crash, and never names a later object. Objects are shared_ptr-owned: a
// call that found a handle keeps the object alive while it waits, even if
// another thread destroys the handle meanwhile.
#ifndef ACLCPU_RUNTIME_CONTEXT_H_
#define ACLCPU_RUNTIME_CONTEXT_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/handle_ids.h"
#include "runtime/stream.h"

namespace aclcpu {

class Context {
 public:
  Context(int32_t device_id, bool is_primary)
      : device_id_(device_id), is_primary_(is_primary), handle_(NewHandle(HandleKind::kContext)) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  int32_t device_id() const { return device_id_; }
  // A device's primary context is made by aclrtSetDevice and destroyed only by
  // aclrtResetDevice.
  bool is_primary() const { return is_primary_; }
  const std::shared_ptr<Stream>& default_stream() const { return default_stream_; }
  bool destroyed() const { return destroyed_.load(std::memory_order_acquire); }
  // What users hold for this context (runtime/handle_ids.h).
  void* handle() const { return handle_; }

 private:
  friend std::shared_ptr<Context> CreateContext(int32_t, bool);
  friend bool DestroyContext(const std::shared_ptr<Context>&);

  const int32_t device_id_;
  const bool is_primary_;
  void* const handle_;
  std::shared_ptr<Stream> default_stream_;
  std::atomic<bool> destroyed_{false};
};

constexpr int32_t kMaxDeviceCount = 64;

// Number of emulated devices: ACLCPU_DEVICE_COUNT (1..kMaxDeviceCount), default 1.
int32_t DeviceCount();

// Creates and registers a context with its default stream.
// nullptr (registering nothing) when memory runs out.
std::shared_ptr<Context> CreateContext(int32_t device_id, bool is_primary);

// Unregisters the context and every stream created in it, then waits for their
// work and stops them. The calling thread's current context, if it was this one,
// becomes none (so does every other thread's, on its next use). Returns false
// if another thread destroyed it first.
bool DestroyContext(const std::shared_ptr<Context>& context);

// The live context with this handle, or nullptr.
std::shared_ptr<Context> FindContext(const void* handle);

// The calling thread's current context, or nullptr if none (or destroyed).
std::shared_ptr<Context> CurrentContext();
void SetCurrentContext(const std::shared_ptr<Context>& context);

// Creates and registers a stream in `context`.
// nullptr (registering nothing) when memory runs out.
std::shared_ptr<Stream> CreateStream(const std::shared_ptr<Context>& context);

// The live stream with this handle (default streams included), or nullptr.
std::shared_ptr<Stream> FindStream(const void* handle);

// Unregisters a stream (not a default stream); returns it, or nullptr if the
// handle is unknown. The caller shuts it down.
std::shared_ptr<Stream> UnregisterStream(const void* handle);

// What every entry point taking an aclrtStream does with it: nullptr means the
// current context's default stream (none: ACL_ERROR_RT_CONTEXT_NULL); otherwise
// the handle must be live (else ACL_ERROR_RT_PARAM_INVALID). Failures record a
// message starting with `call`.
aclError ResolveStream(const char* call, const void* handle, std::shared_ptr<Stream>* stream);

// The same for hot paths (launch submission, synchronisation), without a
// registry lock or shared_ptr copy when the calling thread resolved the same
// handle last and no stream has been destroyed since. *stream stays valid until
// the calling thread's next ResolveStreamCached call.
aclError ResolveStreamCached(const char* call, const void* handle, Stream** stream);

// Strict mode: ACL_ERROR_RT_PARAM_INVALID with a message naming `call`, the
// stream and its oldest queued tasks if a stream of `context` still has work
// queued (destroying it would drop or race that work; the default mode waits
// for it); ACL_SUCCESS otherwise, and always outside strict mode.
aclError RefuseQueuedWorkInContext(const char* call, const Context& context);

// Waits until every live stream of the device (kEveryDevice: of every device),
// default streams included, has run the work queued on it before this call
// (work queued meanwhile is not waited for). `host_synchronises`: see
// Stream::WaitIdle. With a `reporting_call` (a host synchronisation:
// aclrtSynchronizeDevice) it then reports the streams' unreported task
// failures, once (Stream::TakeFailures), returning kStreamTaskFailed if there
// was any; otherwise it reports nothing and returns ACL_SUCCESS.
constexpr int32_t kEveryDevice = -1;
aclError WaitForWorkQueuedOnStreams(int32_t device_id, bool host_synchronises = true,
                                    const char* reporting_call = nullptr);

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_CONTEXT_H_
