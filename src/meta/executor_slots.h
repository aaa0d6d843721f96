// aclcpu: where executors live — fixed-size slots in one reserved address range,
// each with a state word, so that every executor call can check its handle with
// one range test and one atomic compare-and-swap.
//
// Why not a registry of live pointers (a mutex and a hash set, as before): a
// tiny launch (phase 1 + phase 2 + synchronise, ~200 ns) paid two lock
// round-trips and a hash-node allocation per executor for it. Why it stays
// safe: slot memory is never returned to the system, so reading the state word
// of a stale handle (a spent or destroyed executor) is always defined, and a
// pointer that is not a slot is refused by the range test before anything is read.
//
// Handles are not the objects' addresses: a handle names a slot and the
// generation of the executor in it (ExecutorHandle below). A slot is reused as
// soon as its executor ends — a thread's one-shot calls keep reusing one — so
// an address would let a stale handle (a spent one-shot executor launched
// again) run whatever executor the slot holds now. A handle is refused once its
// generation has passed, for 2^32 reuses of its slot.
#ifndef ACLCPU_META_EXECUTOR_SLOTS_H_
#define ACLCPU_META_EXECUTOR_SLOTS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

#include "meta/executor.h"

namespace aclcpu {

// What a slot holds. Transitions: kFree -> (Allocate, next generation)
// kConstructing -> (Publish) kLive <-> (Acquire/Release) kBusy -> (Retire)
// kRetired -> kFree.
enum class SlotState : uint32_t { kFree, kConstructing, kLive, kBusy, kRetired };

class ExecutorSlots {
 public:
  // Inline (every executor call asks): a guard check instead of a call.
  // Built in static storage rather than with new: the first phase 1 of a
  // process builds it, and must answer 561101, not throw std::bad_alloc
  // through the C API, when memory has run out. Never destroyed: handles may
  // be used at exit.
  static ExecutorSlots& Get() {
    alignas(ExecutorSlots) static unsigned char storage[sizeof(ExecutorSlots)];
    static ExecutorSlots* const slots = ::new (static_cast<void*>(storage)) ExecutorSlots;
    return *slots;
  }

  // Memory for an executor object of `bytes` (at most kMaxExecutorBytes), or
  // nullptr if the reserved range is exhausted or cannot be committed.
  void* Allocate(size_t bytes);

  // Returns a slot whose object was never constructed (phase 1 failed after
  // Allocate).
  void Abandon(void* memory);

  // The object in `memory` is constructed: make it a live executor. Returns
  // the handle callers get for it.
  aclOpExecutor* Publish(aclOpExecutor* executor);

  // Takes exclusive use of the live executor `handle` names (waiting while
  // another thread uses it) and returns its object. Returns nullptr, with
  // *reason set when known ("was destroyed ..."), if the handle is not a live
  // executor. Every success must be followed by Release or Retire of the object.
  aclOpExecutor* Acquire(const aclOpExecutor* handle, const char** reason);

  // Ends exclusive use; the executor stays live.
  void Release(aclOpExecutor* executor);

  // Ends exclusive use and the executor's life: destroys the object and, after
  // strict mode's quarantine, frees the slot. `reason` completes "executor %p ..."
  // in the message later calls with this handle get.
  void Retire(aclOpExecutor* executor, const char* reason);

  // Called as the calling thread exits: its spare slot (see Free) goes back to
  // the shared free stack.
  static void ReturnThreadSpare();

 private:
  struct Slot;
  ExecutorSlots();
  Slot* SlotOfObject(const void* object) const;  // nullptr if not a slot's object address
  Slot* SlotAt(uint64_t index) const;
  // Marks `slot` free and keeps it as the calling thread's spare, or pushes it
  // on the shared free stack if the thread has one already.
  void Free(Slot* slot);
  void PushFree(Slot* slot);
  Slot* PopFree();

  char* base_ = nullptr;  // the reserved range (nullptr if the reservation failed)
  size_t reserved_slots_ = 0;
  std::atomic<uint64_t> used_slots_{0};       // slots ever handed out, from the start of the range
  std::atomic<uint64_t> committed_slots_{0};  // slots whose pages are readable and writable
  std::atomic<uint64_t> free_head_{0};        // Treiber stack of free slots: (tag << 32) | (index + 1)
};

}  // namespace aclcpu

#endif  // ACLCPU_META_EXECUTOR_SLOTS_H_
