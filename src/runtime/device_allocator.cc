// aclcpu runtime: the default device allocator — device memory is ordinary host
// memory, and device addresses are host addresses.
//
// Huge-page policies: allocations of 2 MiB or more under HUGE_FIRST / HUGE_ONLY
// (and their P2P forms) are mmap'ed on a 2 MiB boundary and advised for
// transparent huge pages, which is the closest CPU analogue and helps large
// streaming kernels. The advice is best effort (THP may be disabled), so
// HUGE_ONLY does not fail for lack of huge pages. HUGE1G policies use normal
// pages: 1 GiB pages need hugetlbfs set up by the administrator.
#include "runtime/device_allocator.h"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <new>

#include "acl/acl_rt.h"
#include "common/fault_injection.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

constexpr size_t kHugePageSize = size_t{2} << 20;

bool WantsHugePages(uint32_t policy) {
  switch (policy & 0xFFu) {
    case ACL_MEM_MALLOC_HUGE_FIRST:
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_HUGE_FIRST_P2P:
    case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
      return true;
    default:
      return false;
  }
}

size_t RoundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// An anonymous mapping of `length` bytes (a multiple of 2 MiB) starting on a
// 2 MiB boundary; nullptr on failure.
void* MapHugeAligned(size_t length) {
  const size_t padded = length + kHugePageSize;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = RoundUp(start, kHugePageSize);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t tail = aligned + length;
  if (start + padded > tail) munmap(reinterpret_cast<void*>(tail), start + padded - tail);
  madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);  // advice only
  return reinterpret_cast<void*>(aligned);
}

class HostDeviceAllocator final : public DeviceAllocator {
 public:
  aclError Allocate(size_t bytes, uint32_t policy, void** address) override {
    Block block{bytes, policy, 0};
    void* memory = nullptr;
    if (InjectFault(FaultSite::kDeviceAllocate)) return ACL_ERROR_RT_MEMORY_ALLOCATION;  // as the system refusing
    if (WantsHugePages(policy) && bytes >= kHugePageSize && bytes <= SIZE_MAX - 2 * kHugePageSize) {
      const size_t length = RoundUp(bytes, kHugePageSize);
      memory = MapHugeAligned(length);
      if (memory != nullptr) block.mapped_length = length;
    }
    if (memory == nullptr && posix_memalign(&memory, kDeviceMemoryAlignment, bytes) != 0) memory = nullptr;
    if (memory == nullptr) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    // The registry entry can fail too (a map node): then the memory goes back
    // rather than leaking, and the caller sees the same status.
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      if (InjectFault(FaultSite::kDeviceBookkeeping)) throw std::bad_alloc();
      blocks_.emplace(reinterpret_cast<uintptr_t>(memory), block);
    } catch (const std::bad_alloc&) {
      Release(memory, block);
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *address = memory;
    return ACL_SUCCESS;
  }

  aclError Free(void* address) override {
    Block block;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = blocks_.find(reinterpret_cast<uintptr_t>(address));
      if (it == blocks_.end()) return ACL_ERROR_RT_PARAM_INVALID;
      block = it->second;
      blocks_.erase(it);
    }
    Release(address, block);
    return ACL_SUCCESS;
  }

  // Device addresses are host addresses: only a null pointer is unusable. No
  // registry lookup, as this runs for every operand of every launch.
  void* ToHost(const void* address, size_t /*bytes*/) override { return const_cast<void*>(address); }

  size_t LiveCount() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return blocks_.size();
  }

  bool AnyLive(void** address) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (blocks_.empty()) return false;
    *address = reinterpret_cast<void*>(blocks_.begin()->first);
    return true;
  }

  bool Find(const void* address, DeviceAllocation* allocation) override {
    const uintptr_t key = reinterpret_cast<uintptr_t>(address);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = blocks_.upper_bound(key);
    if (it == blocks_.begin()) return false;
    it = std::prev(it);
    if (key - it->first >= it->second.size) return false;
    *allocation = DeviceAllocation{reinterpret_cast<const void*>(it->first), it->second.size, it->second.policy};
    return true;
  }

 private:
  struct Block {
    size_t size;
    uint32_t policy;
    size_t mapped_length;  // non-zero: an mmap'ed block of this length
  };

  static void Release(void* memory, const Block& block) {
    if (block.mapped_length != 0) {
      munmap(memory, block.mapped_length);
    } else {
      std::free(memory);
    }
  }

  std::mutex mutex_;
  std::map<uintptr_t, Block> blocks_;  // by base address, ordered for Find
};

}  // namespace

DeviceAllocator& TheDeviceAllocator() {
  // Never destroyed: streams may still run kernels on device memory while the
  // process exits.
  static DeviceAllocator* const allocator = [] () -> DeviceAllocator* {
    if (StrictMode()) {
      if (DeviceAllocator* strict = NewStrictDeviceAllocator()) return strict;
      std::fprintf(stderr, "aclcpu: ACLCPU_STRICT: memfd_create is unavailable; device memory stays host-readable\n");
    }
    return new HostDeviceAllocator;
  }();
  return *allocator;
}

}  // namespace aclcpu
