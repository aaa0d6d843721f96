// aclcpu runtime: an event — a marker recorded on a stream, complete once the
// stream reaches it.
//
// Each aclrtRecordEvent call gets the next generation number; the record task
// marks its generation complete (with a timestamp) when the stream reaches it.
// "Complete" always refers to the most recent record at the time of asking,
// which is what aclrtStreamWaitEvent, aclrtSynchronizeEvent and the queries
// need. aclrtResetEvent is also queued and, when reached, forgets the records
// made before it.
#ifndef ACLCPU_RUNTIME_EVENT_H_
#define ACLCPU_RUNTIME_EVENT_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "runtime/handle_ids.h"
#include "runtime/services.h"

namespace aclcpu {

class Stream;

class Event {
 public:
  using Clock = std::chrono::steady_clock;

  explicit Event(uint32_t flags) : flags_(flags), handle_(NewHandle(HandleKind::kEvent)) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  uint32_t flags() const { return flags_; }
  // What users hold for this event (runtime/handle_ids.h).
  void* handle() const { return handle_; }

  // Starts a record and returns its generation (> 0).
  uint64_t BeginRecord();
  // The stream `stream` (its handle) reached the record `generation`, after
  // `stream_failures` of its tasks had failed (Stream::FailureCount).
  void CompleteRecord(uint64_t generation, const void* stream, uint64_t stream_failures);
  // The latest generation at the time of the call, or 0 if there is none since
  // the last reset (or ever).
  uint64_t LatestGeneration();
  // The stream reached a reset issued when `generation` was the latest.
  void CompleteReset(uint64_t generation);

  // Blocks until record `generation` (or a later one) completed or was reset.
  void WaitFor(uint64_t generation);

  // Strict mode: the record `generation` was queued on `stream` when
  // PendingFence() was `fence` (runtime/pending_work.h).
  void SetHostFence(uint64_t generation, const void* stream, uint64_t fence);
  // Strict mode: the host has seen record `generation` complete (a wait or a
  // query returned "complete"); the work queued before it is then no longer
  // pending. Does nothing if that record was reset or is not the latest fenced one.
  void HostSawComplete(uint64_t generation);

  struct Snapshot {
    bool recorded;   // there is a record since the last reset
    bool complete;   // and it has been reached
    uint64_t generation;  // the latest record's generation
    Clock::time_point time;  // when the latest completed record was reached
    // The stream (handle) that reached the latest completed record, and how
    // many of its tasks had failed by then (aclrtSynchronizeEvent reports those).
    const void* stream;
    uint64_t stream_failures;
  };
  Snapshot Query();

  // Tasks that a stream runs for this event; they keep the event alive.
  // nullptr when memory runs out.
  // `stream` is the stream the record is queued on.
  static Task* MakeRecordTask(std::shared_ptr<Event> event, uint64_t generation, const Stream* stream);
  static Task* MakeWaitTask(std::shared_ptr<Event> event, uint64_t generation);
  static Task* MakeResetTask(std::shared_ptr<Event> event, uint64_t generation);

 private:
  bool DoneLocked(uint64_t generation) const { return completed_ >= generation || reset_ >= generation; }

  const uint32_t flags_;
  void* const handle_;
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t requested_ = 0;  // generations handed out
  uint64_t completed_ = 0;  // highest generation reached
  uint64_t reset_ = 0;      // records up to this generation were reset
  Clock::time_point completed_time_{};
  const void* completed_stream_ = nullptr;  // see Snapshot::stream
  uint64_t completed_stream_failures_ = 0;
  // Strict mode: the latest record's fence (SetHostFence).
  uint64_t fenced_generation_ = 0;
  const void* fence_stream_ = nullptr;
  uint64_t fence_ = 0;
};

// The registry of live event handles. RegisterEvent returns nullptr (having
// registered nothing) when memory runs out.
std::shared_ptr<Event> RegisterEvent(uint32_t flags);
std::shared_ptr<Event> FindEvent(const void* handle);
std::shared_ptr<Event> UnregisterEvent(const void* handle);

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_EVENT_H_
