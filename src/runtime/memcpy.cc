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
#include <memory>

#include "acl/acl.h"
#include "runtime/context.h"
#include "runtime/device_allocator.h"
#include "runtime/error_store.h"

namespace aclcpu {
namespace {

struct CopyArguments {
  void* dst = nullptr;        // host address to write
  const void* src = nullptr;  // host address to read
  size_t count = 0;           // 0: nothing to do
};

struct FillArguments {
  void* dst = nullptr;
  unsigned char value = 0;
  size_t count = 0;
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
    return FailWith(ACL_ERROR_RT_PARAM_INVALID, "%s: %s %p (%zu bytes) is not usable device memory", call, argument,
                    address, count);
  }
  return ACL_SUCCESS;
}

bool IsDeviceAddress(const void* address) {
  DeviceAllocation allocation;
  return TheDeviceAllocator().Find(address, &allocation);
}

aclError PrepareCopy(const char* call, void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
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
      return FailWith(ACL_ERROR_INVALID_PARAM, "%s: kind (%d) is not an aclrtMemcpyKind value (0..7)", call,
                      static_cast<int>(kind));
  }
  if (count == 0) return ACL_SUCCESS;
  const void* dst_host = nullptr;
  aclError status = TranslateSide(call, "dst", dst, count, dst_is_device, &dst_host);
  if (status != ACL_SUCCESS) return status;
  status = TranslateSide(call, "src", src, count, src_is_device, &copy->src);
  if (status != ACL_SUCCESS) return status;
  copy->dst = const_cast<void*>(dst_host);
  copy->count = count;
  return ACL_SUCCESS;
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
  void Run() override { RunCopy(copy_); }
  const char* Name() const override { return "aclrtMemcpyAsync"; }

 private:
  const CopyArguments copy_;
};

class FillTask final : public Task {
 public:
  explicit FillTask(const FillArguments& fill) : fill_(fill) {}
  void Run() override { RunFill(fill_); }
  const char* Name() const override { return "aclrtMemsetAsync"; }

 private:
  const FillArguments fill_;
};

aclError SubmitTo(const char* call, aclrtStream stream, Task* task) {
  std::unique_ptr<Task> owned(task);
  std::shared_ptr<Stream> target;
  const aclError status = ResolveStream(call, stream, &target);
  if (status != ACL_SUCCESS) return status;
  if (!target->Submit(owned.release())) {
    return FailWith(ACL_ERROR_RT_PARAM_INVALID, "%s: stream %p was destroyed by another thread", call, stream);
  }
  return ACL_SUCCESS;
}

}  // namespace
}  // namespace aclcpu

extern "C" {

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  aclcpu::CopyArguments copy;
  const aclError status = aclcpu::PrepareCopy("aclrtMemcpy", dst, destMax, src, count, kind, &copy);
  if (status != ACL_SUCCESS) return status;
  aclcpu::RunCopy(copy);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  aclcpu::CopyArguments copy;
  const aclError status = aclcpu::PrepareCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind, &copy);
  if (status != ACL_SUCCESS) return status;
  return aclcpu::SubmitTo("aclrtMemcpyAsync", stream, new aclcpu::CopyTask(copy));
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  aclcpu::FillArguments fill;
  const aclError status = aclcpu::PrepareFill("aclrtMemset", devPtr, maxCount, value, count, &fill);
  if (status != ACL_SUCCESS) return status;
  aclcpu::RunFill(fill);
  return ACL_SUCCESS;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  aclcpu::FillArguments fill;
  const aclError status = aclcpu::PrepareFill("aclrtMemsetAsync", devPtr, maxCount, value, count, &fill);
  if (status != ACL_SUCCESS) return status;
  return aclcpu::SubmitTo("aclrtMemsetAsync", stream, new aclcpu::FillTask(fill));
}

}  // extern "C"
