// aclcpu: phase 2 of an elementwise operator — the executor phase 1 returns, the
// launch it queues, and the loops that run a plan's kernels over the views —
// written once for every operator. An operator supplies:
//
//   - an ElementwiseOpInfo: its phase-2 name, operand names (out first) and
//     which executor slot (aclSetInputTensorAddr / aclSetOutputTensorAddr
//     index) holds each operand's address;
//   - a Plan type derived from ElementwisePlan<its run kernel type> with
//       void Run(char* const* starts, const int64_t* strides, int64_t count) const;
//     and, if it sets kHasTileKernel, a `tile_kernel` member (used when set) and
//       void RunTile(char* const* starts, const int64_t* strides0, const int64_t* strides1,
//                    int64_t size0, int64_t size1) const;
//     where starts[i] is operand i's first element (host address) and strides
//     are in elements (see elementwise_plan.h for the operand order).
#ifndef ACLCPU_OPS_SHARED_ELEMENTWISE_LAUNCH_H_
#define ACLCPU_OPS_SHARED_ELEMENTWISE_LAUNCH_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"
#include "common/fault_injection.h"
#include "hwy/cache_control.h"
#include "meta/executor.h"
#include "meta/tensor.h"
#include "ops/shared/elementwise_plan.h"
#include "ops/shared/meta_services.h"
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

// What phase 1 decides for every elementwise operator: the geometry and the
// run kernel chosen for a SIMD target.
template <class RunFn>
struct ElementwisePlan {
  static constexpr bool kHasTileKernel = false;  // two-dimensional block kernels for transposed views

  ElementwiseGeometry geometry;
  int64_t target = 0;      // the SIMD target the kernel was chosen for
  bool streaming = false;  // the kernel uses non-temporal stores (huge launches), which the runner fences
  RunFn kernel = nullptr;
};

// Which executor slot holds an operand's device address.
struct OperandSlot {
  bool output;  // outputs[index], else inputs[index]
  int index;
};

struct ElementwiseOpInfo {
  const char* phase1_name;  // e.g. "aclnnHardsigmoidGetWorkspaceSize"
  const char* phase2_name;  // e.g. "aclnnHardsigmoid"
  int num_operands;
  int num_inputs;   // executor slots, as aclSetInputTensorAddr counts them
  int num_outputs;  // as aclSetOutputTensorAddr counts them
  const char* names[kMaxElementwiseOperands];           // operand order, out first
  const char* runtime_names[kMaxElementwiseOperands];   // "<phase 2>: <name>", named by the runtime's messages
  OperandSlot slots[kMaxElementwiseOperands];
};

// Checks the bound addresses (strict mode: translated to host addresses by the
// runtime, which reports unusable ones) and stores the host address of each
// view's first element; then refuses addresses that make out overlap an input
// other than in place where phase 1 planned no staging for it (or in strict
// mode): addresses may be rebound after phase 1 (operand_overlap.h).
aclnnStatus ResolveBoundViewStarts(const ElementwiseOpInfo& info, const ElementwiseGeometry& geometry,
                                   void* const device[], char* view_starts[]);

// Memory for launches, the last one freed kept for the next (see
// ElementwiseLaunch). Launches of every operator share the spare, so it has
// room for the largest; a larger object is allocated and freed as usual.
constexpr size_t kLaunchMemoryBytes = 1024;
void* TakeSpareLaunchMemory(size_t bytes);
void GiveBackLaunchMemory(void* memory, size_t bytes);

// Runs a plan over the views starting at the given host addresses. Shared by the
// queued launch and the run straight from the executor.
template <class Plan>
class ElementwiseRunner {
 public:
  // `workspace`: host address of the launch's workspace when the plan stages
  // inputs (staged plans exist outside strict mode only, where device memory is
  // host memory), else nullptr.
  ElementwiseRunner(const Plan& plan, char* const* view_starts, char* workspace)
      : plan_(plan), geometry_(plan.geometry), view_starts_(view_starts), workspace_(workspace) {}

  void Run() const {
    if (workspace_ != nullptr) {
      // An input overlaps out other than in place: it is copied first, once, so
      // no thread reads an element another already overwrote.
      char* starts[kMaxElementwiseOperands] = {};
      for (int op = 0; op < geometry_.num_operands; ++op) starts[op] = view_starts_[op];
      geometry_.staging.CopyIn(workspace_, geometry_.span_bytes, geometry_.num_operands, starts);
      ElementwiseRunner(plan_, starts, nullptr).Run();
      return;
    }
    if (geometry_.flat && geometry_.parts <= 1) {
      // One dense run (most launches): no iterator needed.
      static constexpr int64_t kUnitStrides[kMaxElementwiseOperands] = {1, 1, 1};
      plan_.Run(view_starts_, kUnitStrides, geometry_.elements);
      FenceStreamedStores();
      return;
    }
    if (geometry_.parts <= 1) {
      static constexpr int64_t kNoBase[kMaxElementwiseOperands] = {};
      RunSlice(geometry_.layout, kNoBase);
      FenceStreamedStores();
      return;
    }
    ThreadPool::Get().Run(geometry_.parts, [this](int part) {
      RunPart(part, geometry_.parts);
      FenceStreamedStores();
    });
  }

 private:
  // Non-temporal stores are weakly ordered: each thread that made them fences
  // once, after its part and before it reports the part done, so they are
  // visible when the launch completes. Here and not in the streaming kernels
  // (run and block kernels alike), which would fence after every run or
  // plane, and a launch with rows of out makes one run a row (backward,
  // float32 gradOutput broadcast along the rows, 16M elements, one core, AMD
  // Zen 5 VM, a fence a row -> one a part: 4 KiB rows 4.3-4.5 -> 2.9-3.1 ms a
  // call, 16 KiB rows 3.1-3.3 -> 2.9-3.2).
  void FenceStreamedStores() const {
    if (plan_.streaming) hwy::FlushStream();
  }

  // Square tiles for transposed views: 32 x 32 elements keep every operand's
  // lines of a tile (at most 32 lines each) in L1 whichever dim it is contiguous in.
  static constexpr int64_t kTile = 32;

  // Part `part` of `parts` equal slices of the outermost dim (of the run, when flat).
  void RunPart(int part, int parts) const {
    if (geometry_.flat) {
      const int64_t begin = geometry_.elements * part / parts;
      const int64_t end = geometry_.elements * (part + 1) / parts;
      char* starts[kMaxElementwiseOperands] = {};
      for (int op = 0; op < geometry_.num_operands; ++op) starts[op] = Element(op, begin);
      static constexpr int64_t kUnitStrides[kMaxElementwiseOperands] = {1, 1, 1};
      plan_.Run(starts, kUnitStrides, end - begin);
      return;
    }
    const StridedLayout& layout = geometry_.layout;
    const int64_t outer = layout.rank > 0 ? layout.sizes[layout.rank - 1] : 1;
    int64_t base[kMaxLayoutOperands];
    RunSlice(SliceOuterDim(layout, outer * part / parts, outer * (part + 1) / parts, base), base);
  }

  // Runs the elements of `slice`, whose operand i starts base[i] elements into its view.
  void RunSlice(const StridedLayout& slice, const int64_t* base) const {
    const int n = geometry_.num_operands;
    auto run = [&](const int64_t* offsets, int64_t length, const int64_t* strides) {
      char* starts[kMaxElementwiseOperands] = {};
      for (int op = 0; op < n; ++op) starts[op] = Element(op, base[op] + offsets[op]);
      plan_.Run(starts, strides, length);
    };
    if constexpr (Plan::kHasTileKernel) {
      if (plan_.tile_kernel != nullptr) {
        ForEachInnerPlane(slice, [&](const int64_t* offsets, int64_t size0, int64_t size1, const int64_t* strides0,
                                     const int64_t* strides1) {
          char* starts[kMaxElementwiseOperands] = {};
          for (int op = 0; op < n; ++op) starts[op] = Element(op, base[op] + offsets[op]);
          plan_.RunTile(starts, strides0, strides1, size0, size1);
        });
        return;
      }
    }
    if (geometry_.tiled) {
      ForEachTiledRun(slice, kTile, run);
    } else {
      ForEachInnerRun(slice, run);
    }
  }

  char* Element(int op, int64_t offset) const { return view_starts_[op] + offset * geometry_.element_size[op]; }

  const Plan& plan_;
  const ElementwiseGeometry& geometry_;
  char* const* view_starts_;  // host address of each view's element at index 0
  char* const workspace_;
};

// The workspace the runner copies staged inputs into, or nullptr.
inline char* StagingWorkspace(const ElementwiseGeometry& geometry, void* workspace) {
  return geometry.staging.any() ? static_cast<char*>(workspace) : nullptr;
}

// The work a launch queues on a stream: a copy of the plan and the translated
// addresses, so it depends on neither the executor nor the aclTensor objects.
template <class Plan>
class ElementwiseLaunch final : public Task {
 public:
  // Launches come and go once per phase 2. malloc + free of one were ~190 of a
  // tiny call's ~2,750 instructions (callgrind), so the memory of the last one
  // freed is kept for the next (elementwise_launch.cc).
  static void* operator new(size_t size, const std::nothrow_t&) noexcept { return TakeSpareLaunchMemory(size); }
  static void operator delete(void* memory, size_t size) noexcept { GiveBackLaunchMemory(memory, size); }

  ElementwiseLaunch(const ElementwiseOpInfo& info, const Plan& plan, char* const* view_starts,
                    void* const device[], char* workspace)
      : info_(info), plan_(plan), workspace_(workspace) {
    for (int op = 0; op < info.num_operands; ++op) {
      view_starts_[op] = view_starts[op];
      device_[op] = device[op];
    }
  }

  bool Run() override {
    ElementwiseRunner<Plan>(plan_, view_starts_, workspace_).Run();
    return true;
  }
  const char* Name() const override { return info_.phase2_name; }
  bool RunsWhereSubmitted() const override { return true; }
  bool IsTiny() const override { return plan_.geometry.runs_inline; }

  // For strict mode: out is written, the inputs are read, each over its extent.
  size_t Accesses(MemoryAccess* accesses, size_t max) const override {
    const int n = info_.num_operands;
    for (int op = 0; op < n && static_cast<size_t>(op) < max; ++op) {
      accesses[op] = MemoryAccess{device_[op], static_cast<size_t>(plan_.geometry.extent_bytes[op]),
                                  op == kElementwiseOut};
    }
    return static_cast<size_t>(n);
  }

 private:
  const ElementwiseOpInfo& info_;
  const Plan plan_;
  char* view_starts_[kMaxElementwiseOperands] = {};  // host address of each view's element at index 0
  void* device_[kMaxElementwiseOperands] = {};       // each operand's data address, as the user bound it
  char* workspace_;                                  // for staged inputs, else nullptr
};

// run_if_idle's callback: `context` is an ElementwiseRunner<Plan>.
template <class Plan>
void RunElementwiseRunner(const void* context) {
  static_cast<const ElementwiseRunner<Plan>*>(context)->Run();
}

// The executor phase 1 returns. Its input and output slots hold the bound
// device addresses (info.slots says which operand each is).
template <class Plan>
class ElementwiseExecutor final : public aclOpExecutor {
 public:
  explicit ElementwiseExecutor(const ElementwiseOpInfo& info)
      : aclOpExecutor(info.phase2_name, static_cast<size_t>(info.num_inputs), static_cast<size_t>(info.num_outputs)),
        info_(info) {}

  // Phase 1 builds the plan in place, before the executor is adopted (a tiny
  // call's phase 1 is mostly fixed cost; a copy of the plan was a tenth of it).
  Plan* mutable_plan() { return &plan_; }

  aclnnStatus MakeLaunch(void* workspace, std::unique_ptr<Task>* task) const override {
    task->reset();
    if (plan_.geometry.empty) return ACLNN_SUCCESS;
    void* device[kMaxElementwiseOperands] = {};
    char* resolved[kMaxElementwiseOperands] = {};
    char* const* view_starts = nullptr;
    const aclnnStatus status = ResolveViewStarts(&view_starts, resolved, device);
    if (status != ACLNN_SUCCESS) return status;
    BoundAddresses(device);  // the launch keeps them for strict mode's access checks
    if (!InjectFault(FaultSite::kLaunchCreate)) {
      task->reset(new (std::nothrow) ElementwiseLaunch<Plan>(info_, plan_, view_starts, device,
                                                             StagingWorkspace(plan_.geometry, workspace)));
    }
    if (*task == nullptr) return ReportError(ACLNN_ERR_INNER, "%s: out of memory.", info_.phase2_name);
    return ACLNN_SUCCESS;
  }

  // Launches of at most a few thousand elements run straight from the plan.
  aclnnStatus RunIfIdle(void* workspace, aclrtStream stream, bool* ran) const override {
    *ran = false;
    if (plan_.geometry.empty || !plan_.geometry.runs_inline) return ACLNN_SUCCESS;
    void* device[kMaxElementwiseOperands] = {};
    char* resolved[kMaxElementwiseOperands] = {};
    char* const* view_starts = nullptr;
    const aclnnStatus status = ResolveViewStarts(&view_starts, resolved, device);
    if (status != ACLNN_SUCCESS) return status;
    const ElementwiseRunner<Plan> runner(plan_, view_starts, StagingWorkspace(plan_.geometry, workspace));
    int ran_here = 0;
    if (Runtime().run_if_idle(stream, info_.phase2_name, &RunElementwiseRunner<Plan>, &runner, &ran_here) !=
        ACL_SUCCESS) {
      return ReportError(ACLNN_ERR_RUNTIME_ERROR, "%s: could not run the launch on the stream (see above).",
                         info_.phase2_name);
    }
    *ran = ran_here != 0;
    return ACLNN_SUCCESS;
  }

 private:
  // Each operand's device address as bound now (operand order).
  void BoundAddresses(void* device[]) const {
    for (int op = 0; op < info_.num_operands; ++op) {
      const OperandSlot slot = info_.slots[op];
      device[op] = slot.output ? outputs[slot.index] : inputs[slot.index];
    }
  }

  // The host address of each view's first element, in *view_starts; from phase
  // 1's plan when nothing changed since (the common case: no call into the
  // runtime, no second overlap judgement), else from the addresses bound now.
  aclnnStatus ResolveViewStarts(char* const** view_starts, char* resolved[], void* device[]) const {
    const ElementwiseGeometry& geometry = plan_.geometry;
    if (geometry.addresses_planned && !rebound && !StrictMode()) {
      // Outside strict mode device memory is host memory (runtime/services.h).
      *view_starts = geometry.planned_view_starts;
      return ACLNN_SUCCESS;
    }
    BoundAddresses(device);
    *view_starts = resolved;
    return ResolveBoundViewStarts(info_, geometry, device, resolved);
  }

  const ElementwiseOpInfo& info_;
  Plan plan_;
};

// Phase 1's common tail: `build(plan)` builds the operator's plan (after CANN's
// checks passed); on success an executor holding it and the operands' data
// addresses (operand order) is adopted and returned with its workspace size.
// Nothing is left behind on failure.
template <class Plan, class BuildPlan>
aclnnStatus CreateElementwiseExecutor(const ElementwiseOpInfo& info, const ElementwiseOperand* operands,
                                      BuildPlan&& build, uint64_t* workspace_size, aclOpExecutor** executor) {
  using Executor = ElementwiseExecutor<Plan>;
  static_assert(sizeof(Executor) <= kMaxExecutorBytes, "Executor must fit an executor slot");
  void* memory = Meta().allocate_executor(sizeof(Executor));
  if (memory == nullptr) {
    // Arguments the plan refuses are reported as such, whatever the memory.
    Plan plan;
    const aclnnStatus status = build(&plan);
    if (status != ACLNN_SUCCESS) return status;
    return ReportError(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory creating the executor.",
                       info.phase1_name);
  }
  Executor* created = new (memory) Executor(info);
  Plan* plan = created->mutable_plan();
  const aclnnStatus status = build(plan);
  if (status != ACLNN_SUCCESS) {
    created->~Executor();
    Meta().abandon_executor(memory);
    return status;
  }
  const uint64_t workspace = plan->geometry.staging.workspace_bytes;
  created->workspace_size = workspace;
  for (int op = 0; op < info.num_operands; ++op) {
    void** slot = info.slots[op].output ? created->outputs : created->inputs;
    slot[info.slots[op].index] = operands[op].tensor->data;
  }
  *workspace_size = workspace;
  *executor = Meta().adopt_executor(created);
  return ACLNN_SUCCESS;
}

}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_ELEMENTWISE_LAUNCH_H_
