#include "ops/hardsigmoid_backward/executor.h"

#include <atomic>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"
#include "common/fault_injection.h"
#include "ops/hardsigmoid_backward/check.h"
#include "parallel/thread_pool.h"
#include "runtime/strict.h"

// Under AddressSanitizer every launch gets fresh memory, so a use of a
// destroyed launch is reported instead of reading its successor.
#if defined(__SANITIZE_ADDRESS__)
#define ACLCPU_REUSE_LAUNCH_MEMORY 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ACLCPU_REUSE_LAUNCH_MEMORY 0
#endif
#endif
#ifndef ACLCPU_REUSE_LAUNCH_MEMORY
#define ACLCPU_REUSE_LAUNCH_MEMORY 1
#endif

namespace aclcpu {
namespace hardsigmoid_backward {
namespace {

// Square tiles for transposed views: 32 x 32 elements keep every operand's
// lines of a tile (at most 32 lines each) in L1 whichever dim it is contiguous in.
constexpr int64_t kTile = 32;
constexpr int64_t kNoBase[kNumOperands] = {};

// Launches come and go once per phase 2. malloc + free of one were ~190 of a
// tiny call's ~2,750 instructions (callgrind), so the memory of the last one
// freed is kept for the next: one exchange to take it, one compare-exchange to
// give it back (freed normally when the spare is taken). Any thread may take or
// give; the spare is a global, so leak checkers see it as reachable.
std::atomic<void*> g_spare_launch_memory{nullptr};

// Runs a plan over the views starting at the given host addresses. Shared by
// the queued launch and the run straight from the executor.
class PlanRunner {
 public:
  // `workspace`: host address of the launch's workspace when the plan stages
  // inputs (staged plans exist outside strict mode only, where device memory is
  // host memory), else nullptr.
  PlanRunner(const Plan& plan, char* const* view_starts, char* workspace)
      : plan_(plan), view_starts_(view_starts), workspace_(workspace) {}

  void Run() const {
    if (workspace_ != nullptr) {
      // An input overlaps out other than in place: it is copied first, once, so
      // no thread reads an element another already overwrote.
      char* starts[kNumOperands] = {view_starts_[kOut], view_starts_[kGrad], view_starts_[kSelf]};
      plan_.staging.CopyIn(workspace_, plan_.span_bytes, kNumOperands, starts);
      PlanRunner(plan_, starts, nullptr).Run();
      return;
    }
    if (plan_.flat && plan_.parts <= 1) {
      // One dense run (most launches): no iterator needed.
      plan_.kernel(view_starts_[kGrad], 1, view_starts_[kSelf], 1, view_starts_[kOut], 1, plan_.elements);
      return;
    }
    if (plan_.parts <= 1) {
      RunSlice(plan_.layout, kNoBase);
      return;
    }
    ThreadPool::Get().Run(plan_.parts, [this](int part) { RunPart(part, plan_.parts); });
  }

 private:
  // Part `part` of `parts` equal slices of the outermost dim (of the run, when flat).
  void RunPart(int part, int parts) const {
    if (plan_.flat) {
      const int64_t begin = plan_.elements * part / parts;
      const int64_t end = plan_.elements * (part + 1) / parts;
      plan_.kernel(Element(kGrad, begin), 1, Element(kSelf, begin), 1, Element(kOut, begin), 1, end - begin);
      return;
    }
    const StridedLayout& layout = plan_.layout;
    const int64_t outer = layout.rank > 0 ? layout.sizes[layout.rank - 1] : 1;
    int64_t base[kNumOperands];
    RunSlice(SliceOuterDim(layout, outer * part / parts, outer * (part + 1) / parts, base), base);
  }

  // Runs the elements of `slice`, whose operand i starts base[i] elements into its view.
  void RunSlice(const StridedLayout& slice, const int64_t* base) const {
    auto run = [&](const int64_t* offsets, int64_t length, const int64_t* strides) {
      plan_.kernel(Element(kGrad, base[kGrad] + offsets[kGrad]), strides[kGrad],
                   Element(kSelf, base[kSelf] + offsets[kSelf]), strides[kSelf],
                   Element(kOut, base[kOut] + offsets[kOut]), strides[kOut], length);
    };
    if (plan_.tile_kernel != nullptr) {
      ForEachInnerPlane(slice, [&](const int64_t* offsets, int64_t size0, int64_t size1, const int64_t* strides0,
                                   const int64_t* strides1) {
        plan_.tile_kernel(Element(kGrad, base[kGrad] + offsets[kGrad]), strides0[kGrad], strides1[kGrad],
                          Element(kSelf, base[kSelf] + offsets[kSelf]), strides0[kSelf], strides1[kSelf],
                          Element(kOut, base[kOut] + offsets[kOut]), strides0[kOut], strides1[kOut], size0, size1);
      });
    } else if (plan_.tiled) {
      ForEachTiledRun(slice, kTile, run);
    } else {
      ForEachInnerRun(slice, run);
    }
  }

  char* Element(Operand op, int64_t offset) const { return view_starts_[op] + offset * plan_.element_size[op]; }

  const Plan& plan_;
  char* const* view_starts_;  // host address of each view's element at index 0
  char* const workspace_;
};

// The work a launch queues on a stream: a copy of the plan and the translated
// addresses, so it depends on neither the executor nor the aclTensor objects.
class Launch final : public Task {
 public:
  static void* operator new(size_t size, const std::nothrow_t&) noexcept {
    void* spare = nullptr;
    if (ACLCPU_REUSE_LAUNCH_MEMORY) spare = g_spare_launch_memory.exchange(nullptr, std::memory_order_acquire);
    return spare != nullptr ? spare : ::operator new(size, std::nothrow);
  }
  static void operator delete(void* memory) noexcept {
    void* expected = nullptr;
    if (!ACLCPU_REUSE_LAUNCH_MEMORY ||
        !g_spare_launch_memory.compare_exchange_strong(expected, memory, std::memory_order_release,
                                                       std::memory_order_relaxed)) {
      ::operator delete(memory);
    }
  }

  Launch(const Plan& plan, char* const view_starts[kNumOperands], void* const device[kNumOperands], char* workspace)
      : plan_(plan), workspace_(workspace) {
    for (int op = 0; op < kNumOperands; ++op) {
      view_starts_[op] = view_starts[op];
      device_[op] = device[op];
    }
  }

  void Run() override { PlanRunner(plan_, view_starts_, workspace_).Run(); }
  const char* Name() const override { return kPhase2Name; }
  bool RunsWhereSubmitted() const override { return true; }
  bool IsTiny() const override { return plan_.runs_inline; }

  // For strict mode: out is written, the inputs are read, each over its extent.
  size_t Accesses(MemoryAccess* accesses, size_t max) const override {
    for (int op = 0; op < kNumOperands && static_cast<size_t>(op) < max; ++op) {
      accesses[op] = MemoryAccess{device_[op], static_cast<size_t>(plan_.extent_bytes[op]), op == kOut};
    }
    return kNumOperands;
  }

 private:
  const Plan plan_;
  char* view_starts_[kNumOperands];  // host address of each view's element at index 0
  void* device_[kNumOperands];       // each operand's data address, as the user bound it
  char* workspace_;                  // for staged inputs (PlanRunner), else nullptr
};

// The workspace PlanRunner copies staged inputs into, or nullptr.
char* StagingWorkspace(const Plan& plan, void* workspace) {
  return plan.staging.any() ? static_cast<char*>(workspace) : nullptr;
}

// run_if_idle's callback: `context` is a PlanRunner.
void RunPlanRunner(const void* context) { static_cast<const PlanRunner*>(context)->Run(); }

}  // namespace

Executor::Executor() : aclOpExecutor(kPhase2Name, 2, 1) {}

void Executor::BoundAddresses(void* device[kNumOperands]) const {
  device[kOut] = outputs[0];
  device[kGrad] = inputs[0];
  device[kSelf] = inputs[1];
}

aclnnStatus Executor::ViewStarts(char* view_starts[kNumOperands]) const {
  void* device[kNumOperands];
  BoundAddresses(device);
  if (!StrictMode() && device[kOut] != nullptr && device[kGrad] != nullptr && device[kSelf] != nullptr) {
    // Outside strict mode device memory is host memory (runtime/services.h):
    // no call needed, a tenth of a tiny launch.
    for (int op = 0; op < kNumOperands; ++op) {
      view_starts[op] = static_cast<char*>(device[op]) + plan_.view_offset_bytes[op];
    }
    return CheckOverlap(device);
  }
  static constexpr const char* kNames[kNumOperands] = {"out", "gradOutput", "self"};
  // What the runtime's message names when an address is unusable.
  static constexpr const char* kWhat[kNumOperands] = {"aclnnHardsigmoidBackward: out",
                                                      "aclnnHardsigmoidBackward: gradOutput",
                                                      "aclnnHardsigmoidBackward: self"};
  for (int op = 0; op < kNumOperands; ++op) {
    if (device[op] == nullptr) {
      return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: %s has no device memory (its data address is null).",
                         kPhase2Name, kNames[op]);
    }
    char* host = static_cast<char*>(device[op]);
    if (StrictMode()) {
      host = static_cast<char*>(
          Runtime().device_to_host(device[op], static_cast<size_t>(plan_.extent_bytes[op]), kWhat[op]));
      if (host == nullptr) return ACLNN_ERR_PARAM_INVALID;  // the runtime recorded why
    }
    view_starts[op] = host + plan_.view_offset_bytes[op];
  }
  return CheckOverlap(device);
}

aclnnStatus Executor::CheckOverlap(void* const device[kNumOperands]) const {
  const auto span = [&](int op) {
    return ViewSpan(static_cast<const char*>(device[op]) + plan_.view_offset_bytes[op], plan_.span_bytes[op]);
  };
  static constexpr const char* kInputNames[kNumOperands] = {nullptr, "gradOutput", "self"};
  for (const int op : {kGrad, kSelf}) {
    if (!SpansMeet(span(kOut), span(op))) continue;  // nearly every launch
    if (plan_.staging.offset[op] >= 0 ||
        ClassifyOverlap(span(kOut), span(op), plan_.same_layout_as_out[op]) == Overlap::kSameElements) {
      continue;
    }
    return RefusePartialOverlap(
        kPhase2Name, "out", kInputNames[op], span(kOut), span(op),
        StrictMode() ? PartialOverlapCause::kStrictMode : PartialOverlapCause::kRebindAfterPhase1);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus Executor::MakeLaunch(void* workspace, std::unique_ptr<Task>* task) const {
  task->reset();
  if (plan_.empty) return ACLNN_SUCCESS;
  char* view_starts[kNumOperands];
  const aclnnStatus status = ViewStarts(view_starts);
  if (status != ACLNN_SUCCESS) return status;
  void* device[kNumOperands];
  BoundAddresses(device);
  if (!InjectFault(FaultSite::kLaunchCreate)) task->reset(new (std::nothrow) Launch(plan_, view_starts, device, StagingWorkspace(plan_, workspace)));
  if (*task == nullptr) return ReportError(ACLNN_ERR_INNER, "%s: out of memory.", kPhase2Name);
  return ACLNN_SUCCESS;
}

aclnnStatus Executor::RunIfIdle(void* workspace, aclrtStream stream, bool* ran) const {
  *ran = false;
  if (plan_.empty || !plan_.runs_inline) return ACLNN_SUCCESS;
  char* view_starts[kNumOperands];
  const aclnnStatus status = ViewStarts(view_starts);
  if (status != ACLNN_SUCCESS) return status;
  const PlanRunner runner(plan_, view_starts, StagingWorkspace(plan_, workspace));
  int ran_here = 0;
  if (Runtime().run_if_idle(stream, kPhase2Name, &RunPlanRunner, &runner, &ran_here) != ACL_SUCCESS) {
    return ReportError(ACLNN_ERR_RUNTIME_ERROR, "%s: could not run the launch on the stream (see above).",
                       kPhase2Name);
  }
  *ran = ran_here != 0;
  return ACLNN_SUCCESS;
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
