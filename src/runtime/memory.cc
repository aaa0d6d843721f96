// aclcpu runtime: the memory entry points — device and host allocation
// (aclrtGetMemInfo: mem_info.cc).
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>

#include "acl/acl.h"
#include "common/fault_injection.h"
#include "common/raw_enum.h"
#include "common/static_storage.h"
#include "runtime/context.h"
#include "runtime/device_allocator.h"
#include "runtime/error_store.h"
#include "runtime/live_objects.h"
#include "runtime/pending_work.h"
#include "runtime/release_all.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

// Modifier bits CANN allows on top of one of the eight base policies (0..7).
// They are accepted and change nothing in the default allocator: host memory
// has one bandwidth class, and user-space read-only is for the device's own
// processes, which do not exist here.
constexpr uint32_t kPolicyModifiers =
    ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY;
constexpr uint32_t kLastBasePolicy = ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;

// CANN's granule: sizes are rounded up to a multiple of 32 bytes.
constexpr size_t kSizeGranule = 32;

enum class Padding { kPlus32, kNone };

aclError MallocDevice(const char* call, void** devPtr, size_t size, int32_t policy, Padding padding) {
  if (devPtr == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: devPtr is null", call);
  if (size == 0) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: size is 0; it must be greater than 0", call);
  const uint32_t bits = static_cast<uint32_t>(policy);
  if ((bits & ~kPolicyModifiers) > kLastBasePolicy) {
    return FailWith(ACL_ERROR_INVALID_PARAM,
                    "%s: policy (0x%x) is not one of ACL_MEM_MALLOC_* (0..7), optionally OR'ed with "
                    "ACL_MEM_TYPE_LOW_BAND_WIDTH, ACL_MEM_TYPE_HIGH_BAND_WIDTH or ACL_MEM_ACCESS_USER_SPACE_READONLY",
                    call, bits);
  }
  // CANN documents aclrtMalloc's extra granule; we keep it so that a program
  // that (knowingly or not) touches a few bytes past its buffer behaves as on the NPU.
  const size_t extra = padding == Padding::kPlus32 ? kSizeGranule : 0;
  if (size > SIZE_MAX - 2 * kSizeGranule) {
    return FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: size (%zu) is too large to allocate", call, size);
  }
  const size_t bytes = (size + kSizeGranule - 1) / kSizeGranule * kSizeGranule + extra;
  const aclError status = TheDeviceAllocator().Allocate(bytes, bits, devPtr);
  if (status != ACL_SUCCESS) {
    return FailWith(status, "%s: cannot allocate %zu bytes (size %zu) of device memory", call, bytes, size);
  }
  return ACL_SUCCESS;
}

// Strict mode's aclrtFree: refuses memory that queued work still reads or
// writes (freeing it would let the launch touch released pages), and says
// precisely what is wrong with a pointer it cannot free.
aclError StrictFree(void* devPtr) {
  DeviceAllocator& allocator = TheDeviceAllocator();
  DeviceAllocation allocation{};
  const DeviceAddressState state = allocator.Lookup(devPtr, &allocation);
  if (state == kLiveDeviceMemory && allocation.base == devPtr) {
    PendingUse use{};
    if (FindPendingUse(devPtr, allocation.size, /*writes_only=*/false, /*include_finished=*/false, &use)) {
      return FailWith(ACL_ERROR_RT_PARAM_INVALID,
                      "aclrtFree: devPtr %p (%zu bytes) is still %s by %s, pending on stream %p; synchronise the "
                      "stream before freeing it (the memory was not freed)",
                      devPtr, allocation.size, use.writes ? "written" : "read", use.name, use.stream);
    }
    const aclError status = allocator.Free(devPtr);
    if (status != ACL_SUCCESS) return FailWith(status, "aclrtFree: devPtr %p could not be freed", devPtr);
    // Finished work that used it is no one's concern any more: a later
    // allocation at these addresses must not inherit it.
    ForgetFinishedUses(devPtr, allocation.size);
    return ACL_SUCCESS;
  }
  if (state == kFreedDeviceMemory && allocation.base == devPtr) {
    return FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree: devPtr %p was already freed: double free", devPtr);
  }
  if (state != kNotDeviceMemory) {
    return FailWith(ACL_ERROR_RT_PARAM_INVALID,
                    "aclrtFree: devPtr %p points inside %s device allocation %p (%zu bytes), not at its start; pass "
                    "the address aclrtMalloc returned",
                    devPtr, state == kFreedDeviceMemory ? "the already freed" : "the", allocation.base,
                    allocation.size);
  }
  return FailWith(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree: devPtr %p was not returned by aclrtMalloc (host memory?)",
                  devPtr);
}

// Pinned host memory (aclrtMallocHost) has its own registry, so that
// aclrtFreeHost of anything else is an error rather than a crash.
struct HostAllocations {
  std::mutex mutex;
  std::unordered_map<void*, size_t> sizes;
};

HostAllocations& TheHostAllocations() {
  return ProcessObject<HostAllocations>();  // never destroyed, as the device allocator
}

}  // namespace

size_t FreeAllDeviceMemory() {
  DeviceAllocator& allocator = TheDeviceAllocator();
  size_t freed = 0;
  void* address = nullptr;
  while (allocator.AnyLive(&address) && allocator.Free(address) == ACL_SUCCESS) ++freed;
  return freed;
}

size_t FreeAllHostMemory() {
  HostAllocations& allocations = TheHostAllocations();
  std::unordered_map<void*, size_t> left;
  {
    std::lock_guard<std::mutex> lock(allocations.mutex);
    left.swap(allocations.sizes);
  }
  for (const auto& entry : left) std::free(entry.first);
  return left.size();
}

size_t LiveHostAllocationCount() {
  HostAllocations& allocations = TheHostAllocations();
  std::lock_guard<std::mutex> lock(allocations.mutex);
  return allocations.sizes.size();
}

}  // namespace aclcpu

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return aclcpu::MallocDevice("aclrtMalloc", devPtr, size, aclcpu::RawEnum(policy), aclcpu::Padding::kPlus32);
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return aclcpu::MallocDevice("aclrtMallocAlign32", devPtr, size, aclcpu::RawEnum(policy), aclcpu::Padding::kNone);
}

// There is no device cache to keep coherent on a CPU: cached memory is plain memory.
aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return aclcpu::MallocDevice("aclrtMallocCached", devPtr, size, aclcpu::RawEnum(policy), aclcpu::Padding::kPlus32);
}

aclError aclrtFree(void* devPtr) {
  if (devPtr == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is null");
  if (aclcpu::StrictMode()) return aclcpu::StrictFree(devPtr);
  // Queued launches and copies may still use this memory: freeing it under them
  // would crash the process or corrupt whatever is allocated there next. Default
  // mode does not track which memory queued work uses (strict mode does, and
  // reports the free), so it waits for all work queued so far, as cudaFree
  // does: no wait at all when the streams are idle, the usual case.
  aclcpu::DeviceAllocation allocation{};
  if (aclcpu::TheDeviceAllocator().Lookup(devPtr, &allocation) == aclcpu::kLiveDeviceMemory &&
      allocation.base == devPtr) {
    aclcpu::WaitForWorkQueuedOnStreams(aclcpu::kEveryDevice, /*host_synchronises=*/false);
  }
  const aclError status = aclcpu::TheDeviceAllocator().Free(devPtr);
  if (status != ACL_SUCCESS) {
    return aclcpu::FailWith(status, "aclrtFree: devPtr %p was not returned by aclrtMalloc or is already freed",
                            devPtr);
  }
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  if (hostPtr == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: hostPtr is null");
  if (size == 0) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size is 0; it must be greater than 0");
  void* memory = nullptr;
  if (aclcpu::InjectFault(aclcpu::FaultSite::kHostAllocate) ||
      posix_memalign(&memory, aclcpu::kDeviceMemoryAlignment, size) != 0) {
    return aclcpu::FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMallocHost: cannot allocate %zu bytes of host memory",
                            size);
  }
  // The registry entry (a hash node) can fail too: give the memory back.
  try {
    aclcpu::HostAllocations& allocations = aclcpu::TheHostAllocations();
    std::lock_guard<std::mutex> lock(allocations.mutex);
    if (aclcpu::InjectFault(aclcpu::FaultSite::kHostBookkeeping)) throw std::bad_alloc();
    allocations.sizes.emplace(memory, size);
  } catch (const std::bad_alloc&) {
    std::free(memory);
    return aclcpu::FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION,
                            "aclrtMallocHost: out of memory registering %zu bytes of host memory (nothing allocated)",
                            size);
  }
  *hostPtr = memory;
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) {
  if (hostPtr == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtFreeHost: hostPtr is null");
  {
    aclcpu::HostAllocations& allocations = aclcpu::TheHostAllocations();
    std::lock_guard<std::mutex> lock(allocations.mutex);
    if (allocations.sizes.erase(hostPtr) == 0) {
      return aclcpu::FailWith(ACL_ERROR_RT_PARAM_INVALID,
                              "aclrtFreeHost: hostPtr %p was not returned by aclrtMallocHost or is already freed",
                              hostPtr);
    }
  }
  // Queued asynchronous copies may still read or write it (see aclrtFree).
  // The program did not ask to synchronise: strict mode keeps the work pending.
  aclcpu::WaitForWorkQueuedOnStreams(aclcpu::kEveryDevice, /*host_synchronises=*/false);
  std::free(hostPtr);
  return ACL_SUCCESS;
}

}  // extern "C"
