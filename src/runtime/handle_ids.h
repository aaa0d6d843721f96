// aclcpu runtime: the handles users get for contexts, streams and events.
//
// Not the objects' addresses: the allocator hands a freed object's address to
// the next object of its size, so a stale handle (a destroyed stream's, one
// from before aclrtResetDevice) would name whatever lives there now and run or
// wait on someone else's work. Each object gets a handle that is never given
// out again: a per-kind tag in the top 12 bits (so handles are non-canonical
// addresses that fault if dereferenced, and one kind is never taken for
// another) over a process-wide 52-bit count. Registries are keyed by handle.
#ifndef ACLCPU_RUNTIME_HANDLE_IDS_H_
#define ACLCPU_RUNTIME_HANDLE_IDS_H_

#include <atomic>
#include <cstdint>

namespace aclcpu {

enum class HandleKind : uint64_t { kContext = 0xAC3, kStream = 0xAC4, kEvent = 0xAC5 };

inline void* NewHandle(HandleKind kind) {
  static std::atomic<uint64_t> next_serial{1};
  const uint64_t serial = next_serial.fetch_add(1, std::memory_order_relaxed) & ((uint64_t{1} << 52) - 1);
  return reinterpret_cast<void*>(static_cast<uintptr_t>((static_cast<uint64_t>(kind) << 52) | serial));
}

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_HANDLE_IDS_H_
