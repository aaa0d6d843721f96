#include "ops/shared/elementwise_launch.h"

#include <string>

#include "runtime/strict.h"

namespace aclcpu {
namespace {

// Launches come and go once per phase 2. malloc + free of one were ~190 of a
// tiny call's ~2,750 instructions (callgrind), so the memory of the last one
// freed is kept for the next: one exchange to take it, one compare-exchange to
// give it back (freed normally when the spare is taken). Any thread may take or
// give; the spare is a global, so leak checkers see it as reachable.
std::atomic<void*> g_spare_launch_memory{nullptr};

// Refuses bound addresses that make out overlap an input other than in place
// when phase 1 planned no staging for it (or in strict mode).
aclnnStatus CheckBoundOverlap(const ElementwiseOpInfo& info, const ElementwiseGeometry& geometry,
                              void* const device[]) {
  const auto span = [&](int op) {
    return ViewSpan(static_cast<const char*>(device[op]) + geometry.view_offset_bytes[op], geometry.span_bytes[op]);
  };
  for (int op = 1; op < info.num_operands; ++op) {
    if (!SpansMeet(span(kElementwiseOut), span(op))) continue;  // nearly every launch
    if (geometry.staging.offset[op] >= 0 ||
        ClassifyOperandOverlap(geometry, op, span(kElementwiseOut), span(op)) != Overlap::kPartial) {
      continue;
    }
    return RefusePartialOverlap(
        info.phase2_name, info.names[kElementwiseOut], info.names[op], span(kElementwiseOut), span(op),
        StrictMode() ? PartialOverlapCause::kStrictMode : PartialOverlapCause::kRebindAfterPhase1);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus ResolveBoundViewStarts(const ElementwiseOpInfo& info, const ElementwiseGeometry& geometry,
                                   void* const device[], char* view_starts[]) {
  const int n = info.num_operands;
  bool all_bound = true;
  for (int op = 0; op < n; ++op) all_bound = all_bound && device[op] != nullptr;
  if (!StrictMode() && all_bound) {
    // Outside strict mode device memory is host memory (runtime/services.h):
    // no call needed, a tenth of a tiny launch.
    for (int op = 0; op < n; ++op) view_starts[op] = static_cast<char*>(device[op]) + geometry.view_offset_bytes[op];
    return CheckBoundOverlap(info, geometry, device);
  }
  for (int op = 0; op < n; ++op) {
    if (device[op] == nullptr) {
      return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: %s has no device memory (its data address is null).",
                         info.phase2_name, info.names[op]);
    }
    char* host = static_cast<char*>(device[op]);
    if (StrictMode()) {
      host = static_cast<char*>(Runtime().device_to_host(device[op], static_cast<size_t>(geometry.extent_bytes[op]),
                                                         info.runtime_names[op]));
      if (host == nullptr) return ACLNN_ERR_PARAM_INVALID;  // the runtime recorded why
    }
    view_starts[op] = host + geometry.view_offset_bytes[op];
  }
  return CheckBoundOverlap(info, geometry, device);
}

void* TakeSpareLaunchMemory(size_t bytes) {
  if (bytes > kLaunchMemoryBytes) return ::operator new(bytes, std::nothrow);
  void* spare = nullptr;
  if (ACLCPU_REUSE_LAUNCH_MEMORY) spare = g_spare_launch_memory.exchange(nullptr, std::memory_order_acquire);
  return spare != nullptr ? spare : ::operator new(kLaunchMemoryBytes, std::nothrow);
}

void GiveBackLaunchMemory(void* memory, size_t bytes) {
  void* expected = nullptr;
  if (bytes > kLaunchMemoryBytes || !ACLCPU_REUSE_LAUNCH_MEMORY ||
      !g_spare_launch_memory.compare_exchange_strong(expected, memory, std::memory_order_release,
                                                     std::memory_order_relaxed)) {
    ::operator delete(memory);
  }
}

}  // namespace aclcpu
