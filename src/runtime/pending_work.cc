// aclcpu runtime, strict mode: pending work and unusable device ranges (pending_work.h).
#include "runtime/pending_work.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "common/env.h"
#include "common/error_report.h"
#include "common/static_storage.h"
#include "runtime/device_allocator.h"
#include "runtime/error_store.h"

namespace aclcpu {
namespace {

// A launch declares three ranges; a copy two. More are accepted, a few at a time.
constexpr size_t kAccessesAtOnce = 8;
// Pending tasks a message names, oldest first.
constexpr size_t kNamesListed = 4;
// Finished tasks kept until the host synchronises with them. A program that
// launches without ever synchronising would otherwise grow the registry without
// bound; past this many the oldest are forgotten (a missed report at worst).
constexpr size_t kUnsynchronisedKept = 4096;

struct PendingTask {
  const void* stream;
  const char* name;
  std::vector<MemoryAccess> accesses;
  bool started = false;   // its Run has begun
  bool finished = false;  // its Run has returned
};

class PendingRegistry {
 public:
  static PendingRegistry& Get() {
    // Static storage: the first user may be any strict-mode call (aclrtMemcpy
    // checking pending work), where std::bad_alloc would cross the C ABI.
    return ProcessObject<PendingRegistry>();  // never destroyed: workers may outlive main
  }

  uint64_t Add(PendingTask task) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t ticket = next_ticket_++;
    tasks_.emplace(ticket, std::move(task));
    return ticket;
  }

  void MarkStarted(uint64_t ticket) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = tasks_.find(ticket);
    if (it != tasks_.end()) it->second.started = true;
  }

  void Remove(uint64_t ticket) {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.erase(ticket);
  }

  // Keeps the task, finished, until the host synchronises with it.
  void MarkFinished(uint64_t ticket) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = tasks_.find(ticket);
    if (it == tasks_.end()) return;
    if (it->second.accesses.empty()) {  // nothing of it the host could race with
      tasks_.erase(it);
      return;
    }
    it->second.finished = true;
    if (++finished_ <= kUnsynchronisedKept) return;
    for (auto oldest = tasks_.begin(); oldest != tasks_.end(); ++oldest) {
      if (oldest->second.finished) {
        tasks_.erase(oldest);
        --finished_;
        return;
      }
    }
  }

  uint64_t Fence() {
    std::lock_guard<std::mutex> lock(mutex_);
    return next_ticket_;
  }

  void MarkSynchronised(const void* stream, uint64_t fence) {
    std::lock_guard<std::mutex> lock(mutex_);
    EraseFinishedIf([&](uint64_t ticket, const PendingTask& task) { return ticket < fence && task.stream == stream; });
  }

  void ForgetFinishedUses(uintptr_t begin, uintptr_t end) {
    std::lock_guard<std::mutex> lock(mutex_);
    EraseFinishedIf([&](uint64_t, const PendingTask& task) { return Overlaps(task, begin, end, false) != nullptr; });
  }

  bool FindUse(uintptr_t begin, uintptr_t end, bool writes_only, bool include_finished, PendingUse* use) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [ticket, task] : tasks_) {  // oldest first
      if (task.finished && !include_finished) continue;
      if (const MemoryAccess* access = Overlaps(task, begin, end, writes_only)) {
        *use = PendingUse{task.stream, task.name, access->writes, task.finished};
        return true;
      }
    }
    return false;
  }

  size_t QueuedOn(const void* stream, std::string* names) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t queued = 0;
    size_t listed = 0;
    for (const auto& [ticket, task] : tasks_) {
      if (task.stream != stream || task.finished) continue;
      if (!task.started) ++queued;
      if (++listed <= kNamesListed) {
        if (listed > 1) *names += ", ";
        *names += task.name;
      }
    }
    if (listed > kNamesListed) *names += ", ...";
    return queued;
  }

 private:
  // The access of `task` overlapping [begin, end) (only writing ones if
  // `writes_only`), or nullptr.
  static const MemoryAccess* Overlaps(const PendingTask& task, uintptr_t begin, uintptr_t end, bool writes_only) {
    for (const MemoryAccess& access : task.accesses) {
      if (writes_only && !access.writes) continue;
      const uintptr_t start = reinterpret_cast<uintptr_t>(access.address);
      if (start < end && begin < start + access.bytes) return &access;
    }
    return nullptr;
  }

  // Needs mutex_.
  template <typename Predicate>
  void EraseFinishedIf(Predicate&& erase) {
    for (auto it = tasks_.begin(); it != tasks_.end();) {
      if (it->second.finished && erase(it->first, it->second)) {
        it = tasks_.erase(it);
        --finished_;
      } else {
        ++it;
      }
    }
  }

  std::mutex mutex_;
  uint64_t next_ticket_ = 0;
  size_t finished_ = 0;  // tasks_ entries with `finished` set
  std::map<uint64_t, PendingTask> tasks_;  // by ticket: submission order
};

// Runs the wrapped task; its destruction marks it finished (after running) or
// unregisters it (unrun, when the stream refuses it). The stream counts a task
// as completed only after deleting it, so when a synchronise call returns every
// task it waited for is marked finished, and MarkSynchronised can drop them.
class TrackedTask final : public Task {
 public:
  TrackedTask(Task* inner, uint64_t ticket) : inner_(inner), ticket_(ticket) {}
  ~TrackedTask() override {
    inner_.reset();
    if (ran_) {
      PendingRegistry::Get().MarkFinished(ticket_);
    } else {
      PendingRegistry::Get().Remove(ticket_);
    }
  }
  bool Run() override {
    PendingRegistry::Get().MarkStarted(ticket_);
    ran_ = true;  // finished, failed or not: its accesses may have happened
    return inner_->Run();
  }
  const char* Name() const override { return inner_->Name(); }
  bool IsTiny() const override { return inner_->IsTiny(); }
  bool RunsWhereSubmitted() const override { return inner_->RunsWhereSubmitted(); }
  size_t Accesses(MemoryAccess* accesses, size_t max) const override { return inner_->Accesses(accesses, max); }

 private:
  std::unique_ptr<Task> inner_;
  const uint64_t ticket_;
  bool ran_ = false;
};

// [address, address + bytes) as integers, the end clamped at the top of the address space.
void RangeBounds(const void* address, size_t bytes, uintptr_t* begin, uintptr_t* end) {
  *begin = reinterpret_cast<uintptr_t>(address);
  *end = *begin + bytes < *begin ? UINTPTR_MAX : *begin + bytes;
}

}  // namespace

int ReadStrictFlag() {
  static const int strict = EnvFlag("ACLCPU_STRICT") ? 1 : 0;
  return strict;
}

Task* TrackPendingTask(const void* stream, Task* task) {
  uint64_t ticket = 0;
  try {
    PendingTask pending{stream, task->Name(), {}};
    MemoryAccess batch[kAccessesAtOnce];
    const size_t total = task->Accesses(batch, kAccessesAtOnce);
    if (total > kAccessesAtOnce) {
      pending.accesses.resize(total);
      task->Accesses(pending.accesses.data(), total);
    } else {
      pending.accesses.assign(batch, batch + total);
    }
    ticket = PendingRegistry::Get().Add(std::move(pending));
  } catch (const std::bad_alloc&) {
    return task;  // out of memory: the task runs untracked (strict checks miss it) rather than fail
  }
  Task* tracked = new (std::nothrow) TrackedTask(task, ticket);
  if (tracked == nullptr) {
    PendingRegistry::Get().Remove(ticket);
    return task;
  }
  return tracked;
}

uint64_t PendingFence() { return PendingRegistry::Get().Fence(); }

void MarkSynchronised(const void* stream, uint64_t fence) { PendingRegistry::Get().MarkSynchronised(stream, fence); }

void ForgetFinishedUses(const void* address, size_t bytes) {
  uintptr_t begin = 0, end = 0;
  RangeBounds(address, bytes, &begin, &end);
  PendingRegistry::Get().ForgetFinishedUses(begin, end);
}

bool FindPendingUse(const void* address, size_t bytes, bool writes_only, bool include_finished, PendingUse* use) {
  if (bytes == 0) return false;
  uintptr_t begin = 0, end = 0;
  RangeBounds(address, bytes, &begin, &end);
  return PendingRegistry::Get().FindUse(begin, end, writes_only, include_finished, use);
}

size_t QueuedTasksOn(const void* stream, char* names, size_t size) {
  std::string listed;
  const size_t queued = PendingRegistry::Get().QueuedOn(stream, &listed);
  if (size > 0) std::snprintf(names, size, "%s", listed.c_str());
  return queued;
}

int ReportUnusableDeviceRange(int code, const char* call, const char* argument, const void* address, size_t bytes) {
  DeviceAllocation allocation{};
  switch (TheDeviceAllocator().Lookup(address, &allocation)) {
    case kFreedDeviceMemory:
      return ReportError(code,
                         "%s: %s %p lies in device memory that aclrtFree already released (allocation %p of %zu "
                         "bytes): use after free",
                         call, argument, address, allocation.base, allocation.size);
    case kLiveDeviceMemory: {
      const size_t offset =
          static_cast<size_t>(static_cast<const char*>(address) - static_cast<const char*>(allocation.base));
      return ReportError(code,
                         "%s: %s range [%p, +%zu bytes) reaches byte %zu of device allocation %p, which has only "
                         "%zu bytes: out of bounds",
                         call, argument, address, bytes, offset + bytes, allocation.base, allocation.size);
    }
    case kNotDeviceMemory:
      break;
  }
  return ReportError(code,
                     "%s: %s %p is not device memory (aclrtMalloc did not return it); host memory cannot be used "
                     "where the device reads or writes",
                     call, argument, address);
}

aclError CheckNoPendingConflict(const char* call, const char* argument, const void* address, size_t bytes,
                                bool writes) {
  PendingUse use{};
  if (!FindPendingUse(address, bytes, /*writes_only=*/!writes, /*include_finished=*/true, &use)) return ACL_SUCCESS;
  if (use.finished) {
    // Here the task has already run (a small launch runs inline); on an NPU the
    // host could not know that yet, and would race with it.
    return FailWith(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: %s [%p, +%zu bytes) is %s by %s on stream %p, and the host has not synchronised with it "
                    "since: its results are pending until aclrtSynchronizeStream, aclrtSynchronizeDevice or an "
                    "event recorded after it (aclrtSynchronizeEvent) says it completed; synchronise before this %s",
                    call, argument, address, bytes, use.writes ? "written" : "read", use.name, use.stream,
                    writes ? "write" : "read");
  }
  return FailWith(ACL_ERROR_RT_PARAM_INVALID,
                  "%s: %s [%p, +%zu bytes) is %s by %s, still pending on stream %p; synchronise that stream "
                  "(aclrtSynchronizeStream) before this %s, which does not wait for streams",
                  call, argument, address, bytes, use.writes ? "written" : "read", use.name, use.stream,
                  writes ? "write" : "read");
}

}  // namespace aclcpu
