// aclcpu runtime: where device memory comes from, and how the runtime reaches it.
//
// Every runtime access to device memory goes through DeviceAllocator::ToHost, so
// that a stricter allocator (device addresses mapped without access, kernels
// using a second read-write mapping of the same pages) can replace the default
// one without touching the callers. The allocator keeps a registry of live
// allocations, so freeing an unknown pointer is an error rather than a crash.
#ifndef ACLCPU_RUNTIME_DEVICE_ALLOCATOR_H_
#define ACLCPU_RUNTIME_DEVICE_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"
#include "runtime/services.h"

namespace aclcpu {

// Every allocation starts on a 64-byte boundary (CANN documents that for aclrtMalloc).
constexpr size_t kDeviceMemoryAlignment = 64;

struct DeviceAllocation {
  const void* base;  // the device address aclrtMalloc returned
  size_t size;       // bytes usable from base (after the caller's rounding)
  uint32_t policy;   // aclrtMemMallocPolicy bits as given
};

class DeviceAllocator {
 public:
  virtual ~DeviceAllocator() = default;

  // Allocates `bytes` (> 0, already rounded as the API documents) with the
  // given (validated) policy. Returns ACL_SUCCESS or ACL_ERROR_RT_MEMORY_ALLOCATION.
  virtual aclError Allocate(size_t bytes, uint32_t policy, void** address) = 0;

  // Releases a live allocation by its base address. Returns
  // ACL_ERROR_RT_PARAM_INVALID if `address` is not one.
  virtual aclError Free(void* address) = 0;

  // The host address at which the runtime reads and writes the device range
  // [address, address + bytes), or nullptr if it is not usable device memory.
  // Called on every access, so it must be cheap.
  virtual void* ToHost(const void* address, size_t bytes) = 0;

  // Live allocations (for aclcpuLiveObjectCount: tests check that a failed
  // call left none behind).
  virtual size_t LiveCount() = 0;

  // The live allocation that contains `address`, if any.
  virtual bool Find(const void* address, DeviceAllocation* allocation) = 0;

  // The base address of some live allocation, if there is one (aclFinalize
  // frees what the program left, one by one).
  virtual bool AnyLive(void** address) = 0;

  // Like Find, but also knows allocations that were freed (the strict
  // allocator keeps their addresses reserved for a while; the default one
  // forgets them at once and answers kNotDeviceMemory).
  virtual DeviceAddressState Lookup(const void* address, DeviceAllocation* allocation) {
    return Find(address, allocation) ? kLiveDeviceMemory : kNotDeviceMemory;
  }
};

// The process's allocator: StrictDeviceAllocator in strict mode, otherwise the
// default one (device memory is host memory). Chosen once, at first use.
DeviceAllocator& TheDeviceAllocator();

// Strict mode's allocator (strict_device_allocator.cc): device addresses are a
// no-access mapping of pages the runtime reaches through a second, read-write
// mapping. Returns nullptr if the system cannot provide that (no memfd_create).
DeviceAllocator* NewStrictDeviceAllocator();

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_DEVICE_ALLOCATOR_H_
