// aclcpu runtime: event state, the tasks streams run for events, and the
// registry of event handles.
#include "runtime/event.h"

#include <algorithm>
#include <new>
#include <unordered_map>
#include <utility>

#include "common/fault_injection.h"
#include "common/static_storage.h"
#include "runtime/live_objects.h"
#include "runtime/pending_work.h"
#include "runtime/release_all.h"
#include "runtime/stream.h"

namespace aclcpu {
namespace {

class EventTask : public Task {
 public:
  enum class Kind { kRecord, kWait, kReset };

  // `stream`: for a record, the stream it is queued on (alive while the task
  // runs: a stream runs its tasks before it is destroyed).
  EventTask(Kind kind, std::shared_ptr<Event> event, uint64_t generation, const Stream* stream)
      : kind_(kind), event_(std::move(event)), generation_(generation), stream_(stream) {}

  bool Run() override {
    switch (kind_) {
      case Kind::kRecord:
        // Tasks run in order: every task queued before this record has run, so
        // the stream's failures so far are the ones this record comes after
        // (aclrtSynchronizeEvent reports them).
        event_->CompleteRecord(generation_, stream_->handle(), stream_->FailureCount());
        break;
      case Kind::kWait:
        event_->WaitFor(generation_);
        break;
      case Kind::kReset:
        event_->CompleteReset(generation_);
        break;
    }
    return true;
  }

  const char* Name() const override {
    switch (kind_) {
      case Kind::kRecord:
        return "aclrtRecordEvent";
      case Kind::kWait:
        return "aclrtStreamWaitEvent";
      case Kind::kReset:
        break;
    }
    return "aclrtResetEvent";
  }

 private:
  const Kind kind_;
  const std::shared_ptr<Event> event_;
  const uint64_t generation_;
  const Stream* const stream_;  // records only
};

struct EventRegistry {
  std::mutex mutex;
  std::unordered_map<const void*, std::shared_ptr<Event>> events;
};

EventRegistry& Registry() {
  return ProcessObject<EventRegistry>();  // never destroyed: see context.cc
}

// nullptr when memory runs out.
Task* MakeTask(EventTask::Kind kind, std::shared_ptr<Event> event, uint64_t generation,
               const Stream* stream = nullptr) {
  if (InjectFault(FaultSite::kEventTask)) return nullptr;
  return new (std::nothrow) EventTask(kind, std::move(event), generation, stream);
}

}  // namespace

uint64_t Event::BeginRecord() {
  std::lock_guard<std::mutex> lock(mutex_);
  return ++requested_;
}

void Event::CompleteRecord(uint64_t generation, const void* stream, uint64_t stream_failures) {
  const Clock::time_point now = Clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  // Records on different streams may be reached out of order; only the newest
  // one reached counts (an older one arriving late changes nothing).
  if (generation > completed_) {
    completed_ = generation;
    completed_time_ = now;
    completed_stream_ = stream;
    completed_stream_failures_ = stream_failures;
  }
  changed_.notify_all();
}

uint64_t Event::LatestGeneration() {
  std::lock_guard<std::mutex> lock(mutex_);
  return requested_ > reset_ ? requested_ : 0;
}

void Event::CompleteReset(uint64_t generation) {
  std::lock_guard<std::mutex> lock(mutex_);
  reset_ = std::max(reset_, generation);
  changed_.notify_all();
}

void Event::WaitFor(uint64_t generation) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return DoneLocked(generation); });
}

void Event::SetHostFence(uint64_t generation, const void* stream, uint64_t fence) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (generation < fenced_generation_) return;  // a newer record got there first
  fenced_generation_ = generation;
  fence_stream_ = stream;
  fence_ = fence;
}

void Event::HostSawComplete(uint64_t generation) {
  const void* stream = nullptr;
  uint64_t fence = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Reached, not reset (a wait also ends when the record is reset).
    if (generation == 0 || completed_ < generation || reset_ >= generation) return;
    if (fenced_generation_ != generation) return;
    stream = fence_stream_;
    fence = fence_;
  }
  MarkSynchronised(stream, fence);
}

Event::Snapshot Event::Query() {
  std::lock_guard<std::mutex> lock(mutex_);
  Snapshot snapshot;
  snapshot.generation = requested_;
  snapshot.recorded = requested_ > reset_;
  snapshot.complete = snapshot.recorded && completed_ >= requested_;
  snapshot.time = completed_time_;
  snapshot.stream = completed_stream_;
  snapshot.stream_failures = completed_stream_failures_;
  return snapshot;
}

Task* Event::MakeRecordTask(std::shared_ptr<Event> event, uint64_t generation, const Stream* stream) {
  return MakeTask(EventTask::Kind::kRecord, std::move(event), generation, stream);
}

Task* Event::MakeWaitTask(std::shared_ptr<Event> event, uint64_t generation) {
  return MakeTask(EventTask::Kind::kWait, std::move(event), generation);
}

Task* Event::MakeResetTask(std::shared_ptr<Event> event, uint64_t generation) {
  return MakeTask(EventTask::Kind::kReset, std::move(event), generation);
}

std::shared_ptr<Event> RegisterEvent(uint32_t flags) {
  try {
    if (InjectFault(FaultSite::kEventCreate)) throw std::bad_alloc();
    auto event = std::make_shared<Event>(flags);
    EventRegistry& registry = Registry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (InjectFault(FaultSite::kEventCreate)) throw std::bad_alloc();
    registry.events.emplace(event->handle(), event);
    return event;
  } catch (const std::bad_alloc&) {  // the event, or its registry entry (then the event is released)
    return nullptr;
  }
}

size_t UnregisterAllEvents() {
  EventRegistry& registry = Registry();
  std::unordered_map<const void*, std::shared_ptr<Event>> events;
  {
    std::lock_guard<std::mutex> lock(registry.mutex);
    events.swap(registry.events);
  }
  return events.size();  // released here, outside the lock
}

size_t LiveEventCount() {
  EventRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.events.size();
}

std::shared_ptr<Event> FindEvent(const void* handle) {
  EventRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.events.find(handle);
  return it == registry.events.end() ? nullptr : it->second;
}

std::shared_ptr<Event> UnregisterEvent(const void* handle) {
  EventRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.events.find(handle);
  if (it == registry.events.end()) return nullptr;
  std::shared_ptr<Event> event = std::move(it->second);
  registry.events.erase(it);
  return event;
}

}  // namespace aclcpu
