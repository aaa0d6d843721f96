#include "meta/executor_slots.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <thread>

#include "common/fault_injection.h"
#include "runtime/strict.h"

#if defined(__SANITIZE_ADDRESS__)
#define ACLCPU_EXECUTOR_SLOTS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACLCPU_EXECUTOR_SLOTS_ASAN 1
#endif
#endif
#ifdef ACLCPU_EXECUTOR_SLOTS_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#endif

namespace aclcpu {
namespace {

constexpr size_t kSlotBytes = 1024;
constexpr size_t kSlotHeaderBytes = kSlotBytes - kMaxExecutorBytes;
// Address space only (PROT_NONE, MAP_NORESERVE) until used: room for a million
// executors alive at once, committed 64 slots at a time. Under an address-space
// limit (RLIMIT_AS, `ulimit -v`) that counts reserved space too, the range
// shrinks to a sixteenth of the limit, and halves again while mmap refuses it,
// down to kMinReservedBytes (a thousand executors alive at once).
constexpr size_t kReservedBytes = size_t{1} << 30;
constexpr size_t kMinReservedBytes = size_t{1} << 20;
constexpr uint64_t kCommitSlots = 64;

// An executor handle: (kHandleTag << 52) | (generation << 20) | slot index. The
// 2^20 slots of the reserved range need 20 bits; the tag makes every handle a
// non-canonical address (it faults if dereferenced, and a stray pointer is
// refused before any slot is read).
constexpr int kIndexBits = 20;
constexpr uint64_t kHandleTag = 0xAC1;
static_assert((kReservedBytes / kSlotBytes) <= (uint64_t{1} << kIndexBits), "slot index bits");

// A slot's state word: (generation << 32) | SlotState, changed in one atomic
// step, so an Acquire can never take a live executor of a later generation.
constexpr uint64_t Word(uint32_t generation, SlotState state) {
  return (uint64_t{generation} << 32) | static_cast<uint32_t>(state);
}
constexpr uint32_t GenerationOf(uint64_t word) { return static_cast<uint32_t>(word >> 32); }
constexpr SlotState StateOf(uint64_t word) { return static_cast<SlotState>(static_cast<uint32_t>(word)); }

aclOpExecutor* MakeHandle(uint64_t index, uint32_t generation) {
  return reinterpret_cast<aclOpExecutor*>(static_cast<uintptr_t>((kHandleTag << 52) | (uint64_t{generation} << kIndexBits) | index));
}

// Strict mode keeps this many retired executors before freeing the oldest slot:
// until then their handles cannot alias a new executor, so a stale handle is
// refused with the reason instead of silently running someone else's executor.
constexpr size_t kQuarantineSlots = 1024;

// A static object, not one made with new: the first Allocate of a process
// takes it, and must not throw when memory has run out. std::mutex is
// constant-initialised with nothing to destroy, so it also stays usable at exit.
std::mutex& CommitMutex() {
  static std::mutex mutex;
  return mutex;
}

struct Quarantine {
  std::mutex mutex;
  std::deque<void*> slots;  // oldest first
};
Quarantine& TheQuarantine() {
  static Quarantine* const quarantine = new Quarantine;
  return *quarantine;
}

// The calling thread's spare slot: the last one it freed, taken back by its
// next Allocate. A thread that creates and launches one executor after another
// (every one-shot call) then reuses one slot with no atomic read-modify-write;
// the shared free stack costs two (its pop and push were two of a tiny call's
// five). Trivially destroyed and initial-exec, so reading it costs a load
// (libnnopbase may be dlopen'ed: glibc keeps static TLS space for that).
enum class SpareSlotHook : uint8_t { kNone, kArmed, kThreadExited };
struct ThreadSpareSlot {
  void* slot = nullptr;  // an ExecutorSlots::Slot, state kFree
  SpareSlotHook exit_hook = SpareSlotHook::kNone;
};
thread_local ThreadSpareSlot this_thread_spare_slot __attribute__((tls_model("initial-exec")));

// Hands the spare to the shared free stack when its thread exits (armed the
// first time the thread keeps one), so exited threads strand no slots.
struct SpareSlotReturner {
  bool armed = false;
  ~SpareSlotReturner();
};
thread_local SpareSlotReturner this_thread_spare_slot_returner;

}  // namespace

struct ExecutorSlots::Slot {
  std::atomic<uint64_t> word;                  // (generation << 32) | SlotState
  std::atomic<uint32_t> next_free;             // free stack link: index + 1 of the next free slot, 0 = none
  std::atomic<const char*> retired_reason;     // why the last executor here ended, kept until reuse
  alignas(kSlotHeaderBytes) unsigned char object[kMaxExecutorBytes];
};
ExecutorSlots::ExecutorSlots() {
  static_assert(sizeof(Slot) == kSlotBytes && offsetof(Slot, object) == kSlotHeaderBytes, "slot layout");
  size_t bytes = kReservedBytes;
  struct rlimit limit {};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    bytes = std::max(kMinReservedBytes, std::min<size_t>(bytes, limit.rlim_cur / 16 / kSlotBytes * kSlotBytes));
  }
  void* reserved = MAP_FAILED;
  for (; bytes >= kMinReservedBytes; bytes /= 2) {
    reserved = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved != MAP_FAILED) break;
  }
  if (reserved == MAP_FAILED) return;  // every Allocate fails: phase 1 reports 561101
  base_ = static_cast<char*>(reserved);
  reserved_slots_ = bytes / kSlotBytes;
#ifdef ACLCPU_EXECUTOR_SLOTS_ASAN
  // Executors are reachable from their slots: LeakSanitizer must scan them
  // (it skips the parts not yet readable).
  __lsan_register_root_region(base_, bytes);
#endif
}

ExecutorSlots::Slot* ExecutorSlots::SlotAt(uint64_t index) const {
  if (base_ == nullptr || index >= committed_slots_.load(std::memory_order_acquire)) return nullptr;
  return reinterpret_cast<Slot*>(base_ + index * kSlotBytes);
}

ExecutorSlots::Slot* ExecutorSlots::SlotOfObject(const void* object) const {
  const uintptr_t address = reinterpret_cast<uintptr_t>(object);
  const uintptr_t base = reinterpret_cast<uintptr_t>(base_);
  if (base_ == nullptr || address < base + kSlotHeaderBytes) return nullptr;
  const uintptr_t offset = address - base - kSlotHeaderBytes;
  if (offset % kSlotBytes != 0) return nullptr;
  const uint64_t index = offset / kSlotBytes;
  if (index >= committed_slots_.load(std::memory_order_acquire)) return nullptr;
  return reinterpret_cast<Slot*>(base_ + index * kSlotBytes);
}

ExecutorSlots::Slot* ExecutorSlots::PopFree() {
  uint64_t head = free_head_.load(std::memory_order_acquire);
  for (;;) {
    const uint32_t top = static_cast<uint32_t>(head);
    if (top == 0) return nullptr;
    Slot* slot = reinterpret_cast<Slot*>(base_ + (top - 1) * kSlotBytes);
    // May read a link another thread is rewriting; the tag makes the CAS fail then.
    const uint64_t next = slot->next_free.load(std::memory_order_relaxed);
    const uint64_t popped = (((head >> 32) + 1) << 32) | next;
    if (free_head_.compare_exchange_weak(head, popped, std::memory_order_acquire, std::memory_order_acquire)) {
      return slot;
    }
  }
}

void ExecutorSlots::Free(Slot* slot) {
#ifdef ACLCPU_EXECUTOR_SLOTS_ASAN
  __asan_poison_memory_region(slot->object, kMaxExecutorBytes);
#endif
  const uint64_t word = slot->word.load(std::memory_order_relaxed);
  slot->word.store(Word(GenerationOf(word), SlotState::kFree), std::memory_order_release);
  ThreadSpareSlot& spare = this_thread_spare_slot;
  if (spare.slot == nullptr && spare.exit_hook != SpareSlotHook::kThreadExited) {
    if (spare.exit_hook == SpareSlotHook::kNone) {
      this_thread_spare_slot_returner.armed = true;  // first use: registers its destructor
      spare.exit_hook = SpareSlotHook::kArmed;
    }
    spare.slot = slot;
    return;
  }
  PushFree(slot);
}

void ExecutorSlots::ReturnThreadSpare() {
  // Executors freed later in this thread's exit (other thread_locals'
  // destructors) go straight to the shared stack.
  ThreadSpareSlot& spare = this_thread_spare_slot;
  spare.exit_hook = SpareSlotHook::kThreadExited;
  if (spare.slot == nullptr) return;
  Slot* slot = static_cast<Slot*>(spare.slot);
  spare.slot = nullptr;
  Get().PushFree(slot);
}

namespace {
SpareSlotReturner::~SpareSlotReturner() {
  if (armed) ExecutorSlots::ReturnThreadSpare();
}
}  // namespace

void ExecutorSlots::PushFree(Slot* slot) {
  const uint64_t index = static_cast<uint64_t>(reinterpret_cast<char*>(slot) - base_) / kSlotBytes;
  uint64_t head = free_head_.load(std::memory_order_relaxed);
  uint64_t pushed;
  do {
    slot->next_free.store(static_cast<uint32_t>(head), std::memory_order_relaxed);
    pushed = (((head >> 32) + 1) << 32) | (index + 1);
  } while (!free_head_.compare_exchange_weak(head, pushed, std::memory_order_release, std::memory_order_relaxed));
}

void* ExecutorSlots::Allocate(size_t bytes) {
  if (bytes > kMaxExecutorBytes || base_ == nullptr || InjectFault(FaultSite::kExecutorCreate)) return nullptr;
  Slot* slot = static_cast<Slot*>(this_thread_spare_slot.slot);
  if (slot != nullptr) {
    this_thread_spare_slot.slot = nullptr;
  } else {
    slot = PopFree();
  }
  if (slot == nullptr) {
    const uint64_t index = used_slots_.fetch_add(1, std::memory_order_relaxed);
    if (index >= reserved_slots_) return nullptr;
    if (index >= committed_slots_.load(std::memory_order_acquire)) {
      std::lock_guard<std::mutex> lock(CommitMutex());
      uint64_t committed = committed_slots_.load(std::memory_order_relaxed);
      while (index >= committed) {
        uint64_t count = std::min<uint64_t>(kCommitSlots, reserved_slots_ - committed);
        if (mprotect(base_ + committed * kSlotBytes, count * kSlotBytes, PROT_READ | PROT_WRITE) != 0) {
          return nullptr;  // this index is lost; later ones retry the commit
        }
        committed += count;
        // Fresh pages are zero: every new slot starts kFree with no reason.
        committed_slots_.store(committed, std::memory_order_release);
      }
    }
    slot = reinterpret_cast<Slot*>(base_ + index * kSlotBytes);
  }
#ifdef ACLCPU_EXECUTOR_SLOTS_ASAN
  __asan_unpoison_memory_region(slot->object, kMaxExecutorBytes);
#endif
  slot->retired_reason.store(nullptr, std::memory_order_relaxed);
  // A new generation: handles of the slot's earlier executors no longer match.
  const uint32_t generation = GenerationOf(slot->word.load(std::memory_order_relaxed)) + 1;
  slot->word.store(Word(generation, SlotState::kConstructing), std::memory_order_relaxed);
  return slot->object;
}

void ExecutorSlots::Abandon(void* memory) {
  Slot* slot = SlotOfObject(memory);
  if (slot != nullptr) Free(slot);
}

aclOpExecutor* ExecutorSlots::Publish(aclOpExecutor* executor) {
  Slot* slot = SlotOfObject(executor);
  if (slot == nullptr) {
    // An operator library built against another contract: nothing sane to do.
    std::fprintf(stderr, "aclcpu: executor %p was not allocated by allocate_executor\n",
                 static_cast<void*>(executor));
    std::abort();
  }
  const uint32_t generation = GenerationOf(slot->word.load(std::memory_order_relaxed));
  slot->word.store(Word(generation, SlotState::kLive), std::memory_order_release);
  const uint64_t index = static_cast<uint64_t>(reinterpret_cast<char*>(slot) - base_) / kSlotBytes;
  return MakeHandle(index, generation);
}

aclOpExecutor* ExecutorSlots::Acquire(const aclOpExecutor* handle, const char** reason) {
  *reason = nullptr;
  const uint64_t bits = reinterpret_cast<uintptr_t>(handle);
  if ((bits >> 52) != kHandleTag) return nullptr;
  const uint32_t generation = static_cast<uint32_t>(bits >> kIndexBits);
  Slot* slot = SlotAt(bits & ((uint64_t{1} << kIndexBits) - 1));
  if (slot == nullptr) return nullptr;
  uint64_t expected = Word(generation, SlotState::kLive);
  while (!slot->word.compare_exchange_weak(expected, Word(generation, SlotState::kBusy), std::memory_order_acquire,
                                           std::memory_order_relaxed)) {
    if (GenerationOf(expected) != generation) return nullptr;  // the slot holds a later executor now
    const SlotState state = StateOf(expected);
    if (state == SlotState::kBusy) {
      // Another thread is in a call on this executor (CANN executors are not
      // meant to be shared; we serialise rather than race). Calls are short.
      std::this_thread::yield();
    } else if (state != SlotState::kLive) {
      if (state != SlotState::kConstructing) *reason = slot->retired_reason.load(std::memory_order_relaxed);
      return nullptr;
    }
    expected = Word(generation, SlotState::kLive);
  }
  return reinterpret_cast<aclOpExecutor*>(slot->object);
}

void ExecutorSlots::Release(aclOpExecutor* executor) {
  Slot* slot = SlotOfObject(executor);
  const uint64_t word = slot->word.load(std::memory_order_relaxed);  // kBusy: ours alone
  slot->word.store(Word(GenerationOf(word), SlotState::kLive), std::memory_order_release);
}

void ExecutorSlots::Retire(aclOpExecutor* executor, const char* reason) {
  Slot* slot = SlotOfObject(executor);
  executor->~aclOpExecutor();
  slot->retired_reason.store(reason, std::memory_order_relaxed);
  if (!StrictMode()) {
    Free(slot);
    return;
  }
  const uint64_t word = slot->word.load(std::memory_order_relaxed);
  slot->word.store(Word(GenerationOf(word), SlotState::kRetired), std::memory_order_release);
  Slot* evicted = nullptr;
  try {
    Quarantine& quarantine = TheQuarantine();
    std::lock_guard<std::mutex> lock(quarantine.mutex);
    quarantine.slots.push_back(slot);
    if (quarantine.slots.size() > kQuarantineSlots) {
      evicted = static_cast<Slot*>(quarantine.slots.front());
      quarantine.slots.pop_front();
    }
  } catch (const std::bad_alloc&) {
    // No room to remember it: the slot is freed at once (its handle is still
    // refused, by generation), only the retired reason is lost. Retiring must
    // not fail: it runs inside destroy and launch calls.
    evicted = slot;
  }
  if (evicted != nullptr) Free(evicted);
}

}  // namespace aclcpu
