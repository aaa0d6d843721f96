// aclcpu runtime: strict mode's device allocator — device memory the host
// cannot touch.
//
// Each allocation is a memfd mapped twice: the user view, whose address
// aclrtMalloc returns, has no access at all, so a host read or write through a
// device pointer faults (SIGSEGV) as it would on an NPU; the runtime view is
// read-write and is what ToHost hands to copies, fills and kernels. The views
// start on page boundaries (64-byte alignment follows), and on 2 MiB boundaries
// for the huge-page policies at 2 MiB or more, as in the default allocator
// (the pages themselves are normal ones). Sizes are kept exactly as the API
// rounded them: bounds are judged against that size, not the page.
//
// aclrtFree releases the pages but keeps the user view's addresses reserved
// without access (quarantine), so a use after free faults or is reported as
// such instead of landing in a later allocation. The quarantine is bounded in
// entries and bytes; the oldest ranges are returned to the system first.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <new>

#include "acl/acl_rt.h"
#include "common/fault_injection.h"
#include "runtime/device_allocator.h"

namespace aclcpu {
namespace {

constexpr size_t kHugeAlignment = size_t{2} << 20;
constexpr size_t kMaxQuarantineEntries = 4096;
constexpr size_t kMaxQuarantineBytes = size_t{64} << 30;  // address space only: the pages are released

bool WantsHugeAlignment(uint32_t policy, size_t bytes) {
  switch (policy & 0xFFu) {
    case ACL_MEM_MALLOC_HUGE_FIRST:
    case ACL_MEM_MALLOC_HUGE_ONLY:
    case ACL_MEM_MALLOC_HUGE_FIRST_P2P:
    case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
      return bytes >= kHugeAlignment;
    default:
      return false;
  }
}

size_t RoundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// Reserves `length` bytes of address space without access, starting on an
// `alignment` boundary (a multiple of the page size); nullptr on failure.
char* ReserveAligned(size_t length, size_t alignment, size_t page) {
  const size_t padded = length + (alignment > page ? alignment : 0);
  void* raw = mmap(nullptr, padded, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = RoundUp(start, alignment);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t tail = aligned + length;
  if (start + padded > tail) munmap(reinterpret_cast<void*>(tail), start + padded - tail);
  return reinterpret_cast<char*>(aligned);
}

class StrictDeviceAllocator final : public DeviceAllocator {
 public:
  explicit StrictDeviceAllocator(size_t page) : page_(page) {}

  aclError Allocate(size_t bytes, uint32_t policy, void** address) override {
    if (bytes > SIZE_MAX - 2 * kHugeAlignment) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (InjectFault(FaultSite::kDeviceAllocate)) return ACL_ERROR_RT_MEMORY_ALLOCATION;  // as memfd_create failing
    const size_t length = RoundUp(bytes, page_);
    const size_t alignment = WantsHugeAlignment(policy, bytes) ? kHugeAlignment : page_;
    const int fd = memfd_create("aclcpu-device-memory", MFD_CLOEXEC);
    if (fd < 0) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    char* user = nullptr;
    void* runtime = MAP_FAILED;
    if (ftruncate(fd, static_cast<off_t>(length)) == 0) user = ReserveAligned(length, alignment, page_);
    if (user != nullptr &&
        mmap(user, length, PROT_NONE, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED) {
      runtime = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    close(fd);  // the mappings keep the pages
    if (runtime == MAP_FAILED) {
      if (user != nullptr) munmap(user, length);
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    // A registry entry that cannot be made gives both mappings back.
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      if (InjectFault(FaultSite::kDeviceBookkeeping)) throw std::bad_alloc();
      live_.emplace(reinterpret_cast<uintptr_t>(user), Block{bytes, policy, length, static_cast<char*>(runtime)});
    } catch (const std::bad_alloc&) {
      munmap(runtime, length);
      munmap(user, length);
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *address = user;
    return ACL_SUCCESS;
  }

  aclError Free(void* address) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(reinterpret_cast<uintptr_t>(address));
    if (it == live_.end()) return ACL_ERROR_RT_PARAM_INVALID;
    Block block = it->second;
    live_.erase(it);
    munmap(block.runtime, block.length);
    // Replace the user view by a fresh no-access reservation: the pages go back
    // to the system, the addresses stay taken.
    void* reserved = mmap(address, block.length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
                          -1, 0);
    if (reserved == MAP_FAILED) {
      munmap(address, block.length);
      return ACL_SUCCESS;
    }
    block.runtime = nullptr;
    const uintptr_t key = reinterpret_cast<uintptr_t>(address);
    try {
      const auto entry = freed_.emplace(key, block).first;
      try {
        freed_order_.push_back(key);
      } catch (const std::bad_alloc&) {
        freed_.erase(entry);
        throw;
      }
    } catch (const std::bad_alloc&) {
      // No room to remember the range: it is released at once (a later use
      // then faults or reads as "not device memory" instead of "freed"). The
      // free itself must not fail for want of bookkeeping.
      munmap(address, block.length);
      return ACL_SUCCESS;
    }
    freed_bytes_ += block.length;
    while (freed_order_.size() > kMaxQuarantineEntries || freed_bytes_ > kMaxQuarantineBytes) {
      auto oldest = freed_.find(freed_order_.front());
      freed_order_.pop_front();
      freed_bytes_ -= oldest->second.length;
      munmap(reinterpret_cast<void*>(oldest->first), oldest->second.length);
      freed_.erase(oldest);
    }
    return ACL_SUCCESS;
  }

  size_t LiveCount() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.size();
  }

  bool AnyLive(void** address) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_.empty()) return false;
    *address = reinterpret_cast<void*>(live_.begin()->first);
    return true;
  }

  void* ToHost(const void* address, size_t bytes) override {
    const uintptr_t key = reinterpret_cast<uintptr_t>(address);
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = Containing(live_, key);
    if (found == live_.end()) return nullptr;
    const size_t offset = key - found->first;
    if (offset >= found->second.size || bytes > found->second.size - offset) return nullptr;
    return found->second.runtime + offset;
  }

  bool Find(const void* address, DeviceAllocation* allocation) override {
    const uintptr_t key = reinterpret_cast<uintptr_t>(address);
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = Containing(live_, key);
    if (found == live_.end() || key - found->first >= found->second.size) return false;
    *allocation = Describe(*found);
    return true;
  }

  // Any address inside an allocation's pages counts, also in the padding past
  // its size, so that a range running off the end is told apart from host memory.
  DeviceAddressState Lookup(const void* address, DeviceAllocation* allocation) override {
    const uintptr_t key = reinterpret_cast<uintptr_t>(address);
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = Containing(live_, key);
    if (found != live_.end()) {
      *allocation = Describe(*found);
      return kLiveDeviceMemory;
    }
    found = Containing(freed_, key);
    if (found != freed_.end()) {
      *allocation = Describe(*found);
      return kFreedDeviceMemory;
    }
    return kNotDeviceMemory;
  }

 private:
  struct Block {
    size_t size;     // usable bytes, as the API rounded them
    uint32_t policy;
    size_t length;   // bytes mapped (whole pages)
    char* runtime;   // the read-write view (nullptr once freed)
  };
  using BlockMap = std::map<uintptr_t, Block>;

  // The block whose pages contain `key`, or end().
  static BlockMap::iterator Containing(BlockMap& blocks, uintptr_t key) {
    auto it = blocks.upper_bound(key);
    if (it == blocks.begin()) return blocks.end();
    it = std::prev(it);
    return key - it->first < it->second.length ? it : blocks.end();
  }

  static DeviceAllocation Describe(const BlockMap::value_type& entry) {
    return DeviceAllocation{reinterpret_cast<const void*>(entry.first), entry.second.size, entry.second.policy};
  }

  const size_t page_;
  std::mutex mutex_;
  BlockMap live_;   // by user-view address
  BlockMap freed_;  // quarantined user-view ranges
  std::deque<uintptr_t> freed_order_;  // oldest first
  size_t freed_bytes_ = 0;
};

}  // namespace

DeviceAllocator* NewStrictDeviceAllocator() {
  const long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return nullptr;
  const int probe = memfd_create("aclcpu-probe", MFD_CLOEXEC);
  if (probe < 0) return nullptr;
  close(probe);
  return new StrictDeviceAllocator(static_cast<size_t>(page));
}

}  // namespace aclcpu
