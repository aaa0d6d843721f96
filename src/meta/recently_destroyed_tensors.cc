#include "meta/recently_destroyed_tensors.h"

#include <cstdint>

namespace aclcpu {
namespace {

// Trivially destroyed and initial-exec (one load to reach it, as the executor
// slots' per-thread spare): aclDestroyTensor runs three times in a tiny call.
enum class RingState : uint8_t { kUnused, kArmed, kThreadExited };
struct DestroyedRing {
  aclTensor* tensors[kRecentlyDestroyedTensors];
  uint32_t next;
  RingState state;
};
thread_local DestroyedRing this_thread_ring __attribute__((tls_model("initial-exec")));

// Frees the ring's tensors when its thread exits (armed by the thread's first
// destroy), so exited threads leave nothing behind for leak checkers.
struct RingFlusher {
  bool armed = false;
  ~RingFlusher();
};
thread_local RingFlusher this_thread_ring_flusher;

RingFlusher::~RingFlusher() {
  if (!armed) return;
  DestroyedRing& ring = this_thread_ring;
  ring.state = RingState::kThreadExited;  // later destroys on this thread free at once
  for (aclTensor*& tensor : ring.tensors) {
    delete tensor;
    tensor = nullptr;
  }
}

}  // namespace

void KeepRecentlyDestroyed(aclTensor* tensor) {
  DestroyedRing& ring = this_thread_ring;
  if (ring.state != RingState::kArmed) {
    if (ring.state == RingState::kThreadExited) {
      delete tensor;
      return;
    }
    this_thread_ring_flusher.armed = true;  // first use: registers its destructor
    ring.state = RingState::kArmed;
  }
  aclTensor* const evicted = ring.tensors[ring.next];
  ring.tensors[ring.next] = tensor;
  ring.next = ring.next + 1 == kRecentlyDestroyedTensors ? 0 : ring.next + 1;
  delete evicted;
}

}  // namespace aclcpu
