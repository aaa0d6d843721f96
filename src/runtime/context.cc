// aclcpu runtime: the context/stream registry and the context API.
#include "runtime/context.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_map>

#include "acl/acl.h"
#include "common/env.h"
#include "common/fault_injection.h"
#include "common/static_storage.h"
#include "runtime/error_store.h"
#include "runtime/live_objects.h"
#include "runtime/pending_work.h"
#include "runtime/release_all.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, std::shared_ptr<Context>> contexts;
  std::unordered_map<const void*, std::shared_ptr<Stream>> streams;
};

// Never destroyed: worker threads may outlive main() (a program that exits
// without destroying its streams), and joining them from a static destructor
// could hang or terminate the process. What is still registered at exit stays
// reachable, so leak checkers do not report it.
Registry& TheRegistry() {
  return ProcessObject<Registry>();
}

thread_local std::weak_ptr<Context> current_context;

// Bumped whenever a stream leaves the registry (stream or context destroyed),
// so that a thread's cached resolution (below) is never used for a dead handle.
std::atomic<uint64_t> stream_registry_epoch{0};

// The calling thread's last stream resolution. A launch loop resolves the same
// handle on every call; checking one atomic epoch instead of locking the
// registry and copying a shared_ptr (three atomic read-modify-writes) is most of
// the runtime's share of a tiny call. `current_context_changes` invalidates the
// entry for the null handle (the current context's default stream).
struct ResolvedStream {
  const void* handle = nullptr;
  uint64_t epoch = ~uint64_t{0};
  uint64_t context_changes = 0;
  Stream* stream = nullptr;  // kept alive by this_thread_resolved_stream_owner
};
// One thread_local for both, read on every launch and synchronise. Trivially
// constructed and destroyed, so no per-access guard, and initial-exec: the
// default model for a shared library calls __tls_get_addr on every access
// (~20 instructions, twice a tiny call), initial-exec reads at a fixed offset
// from the thread pointer. A library dlopen'ed after start-up (torch_npu's
// case) takes it from the static TLS space glibc keeps for that (512 bytes by
// default; this is 40).
struct ThreadStreamState {
  ResolvedStream last_resolved;
  uint64_t current_context_changes = 0;
};
thread_local ThreadStreamState this_thread_streams __attribute__((tls_model("initial-exec")));
// Owns the stream this_thread_streams.last_resolved points to, until the entry
// is replaced or the thread exits (which empties the entry first, so a call
// later in the thread's exit cannot use an unowned stream). Touched only when a
// resolution misses.
struct ResolvedStreamOwner {
  std::shared_ptr<Stream> stream;
  ~ResolvedStreamOwner() { this_thread_streams.last_resolved = ResolvedStream{}; }
};
thread_local ResolvedStreamOwner this_thread_resolved_stream_owner;

}  // namespace

int32_t DeviceCount() {
  static const int32_t count = [] {
    const char* text = GetEnv("ACLCPU_DEVICE_COUNT");
    if (text == nullptr) return 1;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > kMaxDeviceCount) {
      std::fprintf(stderr, "aclcpu: ACLCPU_DEVICE_COUNT=\"%s\" is not in 1..%d; using 1\n", text, kMaxDeviceCount);
      return 1;
    }
    return static_cast<int32_t>(value);
  }();
  return count;
}

std::shared_ptr<Context> CreateContext(int32_t device_id, bool is_primary) {
  try {
    if (InjectFault(FaultSite::kContextCreate)) throw std::bad_alloc();
    auto context = std::make_shared<Context>(device_id, is_primary);
    context->default_stream_ = std::make_shared<Stream>(context.get(), device_id, /*is_default=*/true);
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (InjectFault(FaultSite::kContextCreate)) throw std::bad_alloc();
    const auto placed = registry.contexts.emplace(context->handle(), context).first;
    try {
      if (InjectFault(FaultSite::kContextCreate)) throw std::bad_alloc();
      registry.streams.emplace(context->default_stream_->handle(), context->default_stream_);
    } catch (const std::bad_alloc&) {
      registry.contexts.erase(placed);  // registered as a whole or not at all
      throw;
    }
    return context;
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

bool DestroyContext(const std::shared_ptr<Context>& context) {
  Registry& registry = TheRegistry();
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (registry.contexts.erase(context->handle()) == 0) return false;
    context->destroyed_.store(true, std::memory_order_release);
    stream_registry_epoch.fetch_add(1, std::memory_order_acq_rel);
  }
  // Its streams, one at a time: no list to allocate (this must not fail), and
  // each is shut down outside the lock, as waiting for its work may take long.
  for (;;) {
    std::shared_ptr<Stream> stream;
    {
      std::lock_guard<std::mutex> lock(registry.mutex);
      for (auto it = registry.streams.begin(); it != registry.streams.end(); ++it) {
        if (it->second->context() != context.get()) continue;
        stream = std::move(it->second);
        registry.streams.erase(it);
        stream_registry_epoch.fetch_add(1, std::memory_order_acq_rel);
        break;
      }
    }
    if (stream == nullptr) break;
    stream->Shutdown();
  }
  if (current_context.lock() == context) current_context.reset();
  return true;
}

std::shared_ptr<Context> FindContext(const void* handle) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.contexts.find(handle);
  return it == registry.contexts.end() ? nullptr : it->second;
}

std::shared_ptr<Context> CurrentContext() {
  std::shared_ptr<Context> context = current_context.lock();
  if (context != nullptr && context->destroyed()) {
    current_context.reset();
    return nullptr;
  }
  return context;
}

void SetCurrentContext(const std::shared_ptr<Context>& context) {
  current_context = context;
  ++this_thread_streams.current_context_changes;
}

std::shared_ptr<Stream> CreateStream(const std::shared_ptr<Context>& context) {
  try {
    if (InjectFault(FaultSite::kStreamCreate)) throw std::bad_alloc();
    auto stream = std::make_shared<Stream>(context.get(), context->device_id(), /*is_default=*/false);
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (InjectFault(FaultSite::kStreamCreate)) throw std::bad_alloc();
    registry.streams.emplace(stream->handle(), stream);
    return stream;
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

size_t LiveStreamCount() {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.streams.size();
}

std::shared_ptr<Stream> FindStream(const void* handle) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.streams.find(handle);
  return it == registry.streams.end() ? nullptr : it->second;
}

std::shared_ptr<Stream> UnregisterStream(const void* handle) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.streams.find(handle);
  if (it == registry.streams.end() || it->second->is_default()) return nullptr;
  std::shared_ptr<Stream> stream = std::move(it->second);
  registry.streams.erase(it);
  stream_registry_epoch.fetch_add(1, std::memory_order_acq_rel);
  return stream;
}

aclError ResolveStream(const char* call, const void* handle, std::shared_ptr<Stream>* stream) {
  if (handle == nullptr) {
    std::shared_ptr<Context> current = CurrentContext();
    if (current == nullptr) {
      return FailWith(ACL_ERROR_RT_CONTEXT_NULL,
                      "%s: stream is null (the default stream) but the calling thread has no current context "
                      "(call aclrtSetDevice or aclrtSetCurrentContext first)",
                      call);
    }
    *stream = current->default_stream();
    return ACL_SUCCESS;
  }
  *stream = FindStream(handle);
  if (*stream == nullptr) return FailWith(ACL_ERROR_RT_PARAM_INVALID, "%s: stream %p is not a live stream", call, handle);
  return ACL_SUCCESS;
}

namespace {

// ResolveStreamCached's miss: looks the handle up and caches the answer (or
// clears the entry). Kept out of line so the hit path needs no stack frame.
__attribute__((noinline)) aclError ResolveAndCacheStream(const char* call, const void* handle, uint64_t epoch,
                                                         Stream** stream) {
  ThreadStreamState& state = this_thread_streams;
  ResolvedStream& cached = state.last_resolved;
  std::shared_ptr<Stream> found;
  const aclError status = ResolveStream(call, handle, &found);
  cached = ResolvedStream{};
  this_thread_resolved_stream_owner.stream = std::move(found);  // releases the previous stream
  if (status != ACL_SUCCESS) return status;
  Stream* const resolved = this_thread_resolved_stream_owner.stream.get();
  cached = ResolvedStream{handle, epoch, state.current_context_changes, resolved};
  *stream = cached.stream;
  return ACL_SUCCESS;
}

}  // namespace

aclError ResolveStreamCached(const char* call, const void* handle, Stream** stream) {
  const ThreadStreamState& state = this_thread_streams;
  const ResolvedStream& cached = state.last_resolved;
  // Read before the lookup: a destruction racing with it bumps the epoch after,
  // and the next call looks again.
  const uint64_t epoch = stream_registry_epoch.load(std::memory_order_acquire);
  if (cached.stream != nullptr && cached.handle == handle && cached.epoch == epoch &&
      cached.context_changes == state.current_context_changes) {
    *stream = cached.stream;
    return ACL_SUCCESS;
  }
  return ResolveAndCacheStream(call, handle, epoch, stream);
}

aclError RefuseQueuedWorkInContext(const char* call, const Context& context) {
  if (!StrictMode()) return ACL_SUCCESS;
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const auto& entry : registry.streams) {
    if (entry.second->context() != &context) continue;
    char names[256];
    const size_t queued = QueuedTasksOn(entry.first, names, sizeof names);
    if (queued == 0) continue;
    return FailWith(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: %s %p of context %p still has %zu queued task(s) (pending, oldest first: %s); "
                    "synchronise it (aclrtSynchronizeStream or aclrtSynchronizeDevice) first (nothing was destroyed)",
                    call, entry.second->is_default() ? "the default stream" : "stream", entry.first, context.handle(),
                    queued, names);
  }
  return ACL_SUCCESS;
}

size_t CountCreatedStreams() {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  size_t created = 0;
  for (const auto& entry : registry.streams) created += entry.second->is_default() ? 0 : 1;
  return created;
}

size_t DestroyAllContexts() {
  size_t destroyed = 0;
  for (;;) {
    std::shared_ptr<Context> next;
    {
      Registry& registry = TheRegistry();
      std::lock_guard<std::mutex> lock(registry.mutex);
      if (registry.contexts.empty()) break;
      next = registry.contexts.begin()->second;
    }
    // One at a time, as aclrtDestroyContext would: no list to allocate.
    if (DestroyContext(next)) ++destroyed;
  }
  return destroyed;
}

aclError WaitForWorkQueuedOnStreams(int32_t device_id, bool host_synchronises, const char* reporting_call) {
  const auto selected = [device_id](const Stream& stream) {
    return device_id == kEveryDevice || stream.device_id() == device_id;
  };
  aclError result = ACL_SUCCESS;
  const auto wait = [&](Stream& stream) {
    stream.WaitIdle(-1, host_synchronises);
    if (reporting_call == nullptr) return;
    const aclError failed = stream.TakeFailures(reporting_call);  // each failed stream gets its message
    if (result == ACL_SUCCESS) result = failed;
  };
  Registry& registry = TheRegistry();
  std::unique_lock<std::mutex> lock(registry.mutex);
  std::vector<std::shared_ptr<Stream>> streams;
  try {
    streams.reserve(registry.streams.size());
    for (const auto& entry : registry.streams) {
      if (selected(*entry.second)) streams.push_back(entry.second);
    }
  } catch (const std::bad_alloc&) {
    // No room for the list: wait holding the registry lock (stream workers
    // never take it), which only delays other threads' stream calls.
    for (const auto& entry : registry.streams) {
      if (selected(*entry.second)) wait(*entry.second);
    }
    return result;
  }
  lock.unlock();
  for (const auto& stream : streams) wait(*stream);
  return result;
}

}  // namespace aclcpu

extern "C" {

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (context == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is null");
  if (deviceId < 0 || deviceId >= aclcpu::DeviceCount()) {
    return aclcpu::FailWith(ACL_ERROR_RT_INVALID_DEVICEID,
                            "aclrtCreateContext: deviceId (%d) is not in [0, %d) (ACLCPU_DEVICE_COUNT)", deviceId,
                            aclcpu::DeviceCount());
  }
  std::shared_ptr<aclcpu::Context> created = aclcpu::CreateContext(deviceId, /*is_primary=*/false);
  if (created == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtCreateContext: out of memory creating a context");
  }
  aclcpu::SetCurrentContext(created);
  *context = created->handle();
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  if (context == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: context is null");
  std::shared_ptr<aclcpu::Context> found = aclcpu::FindContext(context);
  if (found == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyContext: context %p is not a live context",
                            context);
  }
  // The primary context belongs to aclrtSetDevice's reference count; CANN
  // refuses to destroy it here too.
  if (found->is_primary()) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID,
                            "aclrtDestroyContext: context %p is device %d's default context; use aclrtResetDevice",
                            context, found->device_id());
  }
  const aclError queued = aclcpu::RefuseQueuedWorkInContext("aclrtDestroyContext", *found);
  if (queued != ACL_SUCCESS) return queued;
  if (!aclcpu::DestroyContext(found)) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID,
                            "aclrtDestroyContext: context %p was destroyed by another thread", context);
  }
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  if (context == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: context is null");
  std::shared_ptr<aclcpu::Context> found = aclcpu::FindContext(context);
  if (found == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtSetCurrentContext: context %p is not a live context",
                            context);
  }
  aclcpu::SetCurrentContext(found);
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (context == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is null");
  std::shared_ptr<aclcpu::Context> current = aclcpu::CurrentContext();
  if (current == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_CONTEXT_NULL,
                            "aclrtGetCurrentContext: the calling thread has no current context "
                            "(call aclrtSetDevice or aclrtSetCurrentContext first)");
  }
  *context = current->handle();
  return ACL_SUCCESS;
}

}  // extern "C"
