// aclcpu runtime: copies and fills, synchronous and queued on a stream.
//
// The synchronous forms do not wait for any stream, as on an NPU: a program must
// synchronise the stream producing the data before copying it back. Device-side
// addresses are translated through the DeviceAllocator; host sides are used as
// they are. Arguments are checked when the call is made, so even a queued copy
// reports a bad argument through its return value.
//
// Check order (CANN's documentation gives none): null dst/src, count > destMax,
// kind, then count 0 succeeds without touching memory.
#include <cstring>
#include <initializer_list>
#include <memory>
#include <new>

#include "acl/acl.h"
#include "common/raw_enum.h"
#include "runtime/context.h"
#include "runtime/device_allocator.h"
#include "runtime/error_store.h"
#include "runtime/pending_work.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

struct CopyArguments {
  void* dst = nullptr;        // host address to write
  const void* src = nullptr;  // host address to read
  size_t count = 0;           // 0: nothing to do
  // The device addresses of the device sides (nullptr for a host side), which a
  // queued copy declares to strict mode.
  const void* device_dst = nullptr;
  const void* device_src = nullptr;
};

struct FillArguments {
  void* dst = nullptr;
  unsigned char value = 0;
  size_t count = 0;
  const void* device_dst = nullptr;
};

// Translates one side of a copy. `is_device` comes from the kind (or, for
// ACL_MEMCPY_DEFAULT, from whether the address lies in a device allocation).
aclError TranslateSide(const char* call, const char* argument, const void* address, size_t count, bool is_device,
                       const void** host) {
  if (!is_device) {
    *host = address;
    return ACL_SUCCESS;
  }
  *host = TheDeviceAllocator().ToHost(address, count);
  if (*host == nullptr) {
    // Host memory, freed memory, or a range past the end of its allocation.
    ReportUnusableDeviceRange(ACL_ERROR_RT_PARAM_INVALID, call, argument, address, count);
    SetLastRuntimeError(ACL_ERROR_RT_PARAM_INVALID);
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  return ACL_SUCCESS;
}

// Strict mode remembers freed allocations too, so that ACL_MEMCPY_DEFAULT takes
// a freed device address for device memory (and reports the use after free)
// rather than for host memory it would then fault on.
bool IsDeviceAddress(const void* address) {
  DeviceAllocation allocation;
  if (StrictMode()) return TheDeviceAllocator().Lookup(address, &allocation) != kNotDeviceMemory;
  return TheDeviceAllocator().Find(address, &allocation);
}

// Strict mode: a side the kind calls host memory must not be device memory,
// which the host cannot access (the copy would fault inside the runtime).
aclError CheckHostSide(const char* call, const char* argument, const void* address, int32_t kind) {
  DeviceAllocation allocation;
  if (TheDeviceAllocator().Lookup(address, &allocation) == kNotDeviceMemory) return ACL_SUCCESS;
  return FailWith(ACL_ERROR_RT_PARAM_INVALID,
                  "%s: %s %p is device memory (allocation %p of %zu bytes), but kind %d says it is host memory; "
                  "use the aclrtMemcpyKind that matches both sides",
                  call, argument, address, allocation.base, allocation.size, kind);
}

aclError PrepareCopy(const char* call, void* dst, size_t destMax, const void* src, size_t count, int32_t kind,
                     CopyArguments* copy) {
  if (dst == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: dst is null", call);
  if (src == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: src is null", call);
  if (count > destMax) {
    return FailWith(ACL_ERROR_INVALID_PARAM, "%s: count (%zu) exceeds destMax (%zu)", call, count, destMax);
  }
  bool dst_is_device = false;
  bool src_is_device = false;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      dst_is_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      src_is_device = true;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
      dst_is_device = true;
      src_is_device = true;
      break;
    case ACL_MEMCPY_DEFAULT:  // the runtime tells the sides apart by address
      dst_is_device = IsDeviceAddress(dst);
      src_is_device = IsDeviceAddress(src);
      break;
    default:
      return FailWith(ACL_ERROR_INVALID_PARAM, "%s: kind (%d) is not an aclrtMemcpyKind value (0..7)", call, kind);
  }
  if (count == 0) return ACL_SUCCESS;
  if (StrictMode()) {
    aclError status = dst_is_device ? ACL_SUCCESS : CheckHostSide(call, "dst", dst, kind);
    if (status == ACL_SUCCESS && !src_is_device) status = CheckHostSide(call, "src", src, kind);
    if (status != ACL_SUCCESS) return status;
  }
  const void* dst_host = nullptr;
  aclError status = TranslateSide(call, "dst", dst, count, dst_is_device, &dst_host);
  if (status != ACL_SUCCESS) return status;
  status = TranslateSide(call, "src", src, count, src_is_device, &copy->src);
  if (status != ACL_SUCCESS) return status;
  copy->dst = const_cast<void*>(dst_host);
  copy->count = count;
  copy->device_dst = dst_is_device ? dst : nullptr;
  copy->device_src = src_is_device ? src : nullptr;
  return ACL_SUCCESS;
}

// Strict mode, synchronous forms only: they do not wait for streams, so
// touching memory that queued work still uses is a race (on an NPU: stale data
// read back, or a launch's input changed under it).
aclError CheckSynchronousAccess(const char* call, const CopyArguments& copy) {
  if (!StrictMode() || copy.count == 0) return ACL_SUCCESS;
  aclError status = ACL_SUCCESS;
  if (copy.device_src != nullptr) status = CheckNoPendingConflict(call, "src", copy.device_src, copy.count, false);
  if (status == ACL_SUCCESS && copy.device_dst != nullptr) {
    status = CheckNoPendingConflict(call, "dst", copy.device_dst, copy.count, true);
  }
  return status;
}

aclError PrepareFill(const char* call, void* devPtr, size_t maxCount, int32_t value, size_t count,
                     FillArguments* fill) {
  if (devPtr == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", call);
  if (count > maxCount) {
    return FailWith(ACL_ERROR_INVALID_PARAM, "%s: count (%zu) exceeds maxCount (%zu)", call, count, maxCount);
  }
  if (count == 0) return ACL_SUCCESS;
  const void* host = nullptr;
  const aclError status = TranslateSide(call, "devPtr", devPtr, count, /*is_device=*/true, &host);
  if (status != ACL_SUCCESS) return status;
  fill->dst = const_cast<void*>(host);
  fill->value = static_cast<unsigned char>(value);  // each byte gets the low byte, as memset
  fill->count = count;
  fill->device_dst = devPtr;
  return ACL_SUCCESS;
}

// memmove, not memcpy: overlapping ranges are the caller's mistake, but must not
// become undefined behaviour here.
void RunCopy(const CopyArguments& copy) {
  if (copy.count != 0) std::memmove(copy.dst, copy.src, copy.count);
}

void RunFill(const FillArguments& fill) {
  if (fill.count != 0) std::memset(fill.dst, fill.value, fill.count);
}

class CopyTask final : public Task {
 public:
  explicit CopyTask(const CopyArguments& copy) : copy_(copy) {}
  bool Run() override {
    RunCopy(copy_);
    return true;
  }
  const char* Name() const override { return "aclrtMemcpyAsync"; }
  size_t Accesses(MemoryAccess* accesses, size_t max) const override {
    size_t count = 0;
    for (const MemoryAccess access : {MemoryAccess{copy_.device_src, copy_.count, false},
                                      MemoryAccess{copy_.device_dst, copy_.count, true}}) {
      if (access.address == nullptr || access.bytes == 0) continue;
      if (count < max) accesses[count] = access;
      ++count;
    }
    return count;
  }

 private:
  const CopyArguments copy_;
};

class FillTask final : public Task {
 public:
  explicit FillTask(const FillArguments& fill) : fill_(fill) {}
  bool Run() override {
    RunFill(fill_);
    return true;
  }
  const char* Name() const override { return "aclrtMemsetAsync"; }
  size_t Accesses(MemoryAccess* accesses, size_t max) const override {
    if (fill_.count == 0 || max == 0) return fill_.count == 0 ? 0 : 1;
    accesses[0] = {fill_.device_dst, fill_.count, true};
    return 1;
  }

 private:
  const FillArguments fill_;
};

aclError SubmitTo(const char* call, aclrtStream stream, Task* task) {
  std::unique_ptr<Task> owned(task);
  if (owned == nullptr) return FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory creating the task", call);
  std::shared_ptr<Stream> target;
  const aclError status = ResolveStream(call, stream, &target);
  if (status != ACL_SUCCESS) return status;
  const aclError submitted = target->Submit(owned.release());
  if (submitted == ACL_ERROR_RT_PARAM_INVALID) {
    return FailWith(submitted, "%s: stream %p was destroyed by another thread", call, stream);
  }
  return submitted;  // a failure to queue has been reported by the stream
}

}  // namespace
}  // namespace aclcpu

extern "C" {

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  aclcpu::CopyArguments copy;
  aclError status = aclcpu::PrepareCopy("aclrtMemcpy", dst, destMax, src, count, aclcpu::RawEnum(kind), &copy);
  if (status == ACL_SUCCESS) status = aclcpu::CheckSynchronousAccess("aclrtMemcpy", copy);
  if (status != ACL_SUCCESS) return status;
  aclcpu::RunCopy(copy);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  aclcpu::CopyArguments copy;
  const aclError status = aclcpu::PrepareCopy("aclrtMemcpyAsync", dst, destMax, src, count, aclcpu::RawEnum(kind),
                                                    &copy);
  if (status != ACL_SUCCESS) return status;
  return aclcpu::SubmitTo("aclrtMemcpyAsync", stream, new (std::nothrow) aclcpu::CopyTask(copy));
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  aclcpu::FillArguments fill;
  aclError status = aclcpu::PrepareFill("aclrtMemset", devPtr, maxCount, value, count, &fill);
  if (status == ACL_SUCCESS && aclcpu::StrictMode() && fill.count != 0) {
    status = aclcpu::CheckNoPendingConflict("aclrtMemset", "devPtr", devPtr, fill.count, true);
  }
  if (status != ACL_SUCCESS) return status;
  aclcpu::RunFill(fill);
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  aclcpu::FillArguments fill;
  const aclError status = aclcpu::PrepareFill("aclrtMemsetAsync", devPtr, maxCount, value, count, &fill);
  if (status != ACL_SUCCESS) return status;
  return aclcpu::SubmitTo("aclrtMemsetAsync", stream, new (std::nothrow) aclcpu::FillTask(fill));
}

}  // extern "C"
