// aclcpu runtime: the service table libnnopbase and libopapi use (services.h).
#include "runtime/services.h"

#include <memory>

#include "acl/acl.h"
#include "common/error_report.h"
#include "runtime/context.h"
#include "runtime/device_allocator.h"
#include "runtime/error_store.h"
#include "runtime/fault_injection.h"
#include "runtime/pending_work.h"

namespace aclcpu {
namespace {

void RecordError(const char* message) { StoreErrorMessage(message); }

aclError ServiceResolveStream(aclrtStream user_stream, void** stream) {
  if (stream == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "resolve_stream: stream (the result) is null");
  std::shared_ptr<Stream> found;
  const aclError status = ResolveStream("stream", user_stream, &found);
  if (status != ACL_SUCCESS) return status;
  *stream = found->handle();
  return ACL_SUCCESS;
}

// One stream resolution per launch (usually the calling thread's cached one).
aclError ServiceSubmit(aclrtStream user_stream, Task* task) {
  std::unique_ptr<Task> owned(task);
  if (owned == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "submit: task is null");
  Stream* stream = nullptr;
  const aclError status = ResolveStreamCached(owned->Name(), user_stream, &stream);
  if (status != ACL_SUCCESS) return status;
  const char* name = owned->Name();
  const aclError submitted = stream->Submit(owned.release());
  if (submitted == ACL_ERROR_RT_PARAM_INVALID) {
    return FailWith(submitted, "%s: stream %p is being destroyed", name, user_stream);
  }
  return submitted;  // a failure to queue has been reported by the stream
}

aclError ServiceRunIfIdle(aclrtStream user_stream, const char* name, void (*work)(const void*), const void* context,
                          int* ran) {
  *ran = 0;
  Stream* stream = nullptr;
  const aclError status = ResolveStreamCached(name, user_stream, &stream);
  if (status != ACL_SUCCESS) return status;
  bool ran_here = false;
  if (!stream->RunIfIdle(name, work, context, &ran_here)) {
    return FailWith(ACL_ERROR_RT_PARAM_INVALID, "%s: stream %p is being destroyed", name, user_stream);
  }
  *ran = ran_here ? 1 : 0;
  return ACL_SUCCESS;
}

void* ServiceDeviceToHost(const void* address, size_t bytes, const char* what) {
  if (address == nullptr) {
    ReportError(ACL_ERROR_RT_PARAM_INVALID, "%s: the device address is null", what != nullptr ? what : "operand");
    return nullptr;
  }
  void* host = TheDeviceAllocator().ToHost(address, bytes);
  if (host == nullptr) {
    ReportUnusableDeviceRange(ACL_ERROR_RT_PARAM_INVALID, what != nullptr ? what : "operand", "device address",
                              address, bytes);
  }
  return host;
}

DeviceAddressState ServiceFindAllocation(const void* address, DeviceRange* range) {
  DeviceAllocation allocation{};
  const DeviceAddressState state = TheDeviceAllocator().Lookup(address, &allocation);
  if (state != kNotDeviceMemory && range != nullptr) *range = DeviceRange{allocation.base, allocation.size};
  return state;
}

const RuntimeServices kServices = {
    kRuntimeServicesAbi, &RecordError,         &ServiceResolveStream, &ServiceSubmit,
    &ServiceRunIfIdle,   &ServiceDeviceToHost, &ReadStrictFlag,       &ServiceFindAllocation,
    &g_fault_armed,      &FaultFires,
};

}  // namespace
}  // namespace aclcpu

extern "C" const aclcpu::RuntimeServices* aclcpuRuntimeServices(uint32_t abi_version) {
  return abi_version == aclcpu::kRuntimeServicesAbi ? &aclcpu::kServices : nullptr;
}
