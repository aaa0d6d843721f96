#include "ops/hardsigmoid_backward/plan.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/dims_string.h"
#include "common/dtype.h"
#include "common/env.h"
#include "common/error_report.h"
#include "common/soc.h"
#include "meta/tensor.h"
#include "ops/hardsigmoid_backward/check.h"
#include "parallel/thread_pool.h"
#include "runtime/strict.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid_backward {
namespace {

// A launch is split only into parts that each move at least this many bytes
// (grad + self + out element sizes per element): below that, handing part of
// the work to another thread costs more than it saves. Measured here through
// the full API (phase 1 + phase 2 + synchronise, 2 cores, launches on the
// calling thread), unsplit -> split in two, microseconds per call: float32 16K
// elements (96 KiB a part) 2.7 -> 2.1-2.3 (noisy), 32K 4.8 -> 2.9-3.0, 64K
// 8.6 -> 4.9; f16 16K (48 KiB a part) 1.4 -> 1.3-1.5, 32K 2.6 -> 1.9-2.8,
// 64K 5.2 -> 3.3; f16 grad + f32 self/out 16K (80 KiB a part) 1.8 -> 1.6-1.7,
// 32K 3.4 -> 2.6. So about 128 KiB a part: float32 splits from ~22K
// elements, f16 from ~44K. (Before launches ran on the calling thread, the
// hand-off to the stream's worker put the float32 bar at ~96K elements a part.)
constexpr int64_t kMinBytesPerPart = 128 * 1024;
// Launches up to this size run on the caller's thread when its stream is idle:
// they take well under a microsecond, less than waking the stream's worker.
constexpr int64_t kMaxInlineElements = 4096;

// Non-temporal stores pay off once the data is well beyond the last-level cache
// (measured here: +20-50% at 16M float32 elements, 2-3x slower while in cache;
// all-bf16 through the full API, medians of 25 calls, two A/B rounds: 8.6M
// elements 2 threads 29-35 -> 53-58 GB/s, 16M 1 thread 26-27 -> 28-31, 16M 2
// threads 37-39 -> 40-56; all-f16 16M 2 threads 28 -> 41; float32 [::2]
// inputs, 16M elements, bench medians: 1 thread 15.8 -> 13.8 ms, 2 threads
// 10.0-10.2 -> 6.2-8.8 ms. Step-2 views of 16-bit types computed in blocks and
// copied out gained nothing there, so they keep ordinary stores.)
// The bar is the three views together at 48 MiB, 1.5x a 32 MiB L3 (this
// machine's; a server part's per-die L3 is of that order). Not derived from
// sysconf: inside VMs it reports the host's whole L3 (320 MiB here).
constexpr int64_t kStreamingMinFootprintBytes = int64_t{48} << 20;

// Reports the first rule `tensor`'s view breaks (measured when the tensor was
// described, meta/view_geometry.h): CANN documents negative dims, strides and
// offsets as invalid, an extent must fit in 64 bits and lie inside the storage
// shape given to aclCreateTensor.
aclnnStatus ReportViewProblem(const aclTensor* tensor, const char* name) {
  const ViewGeometry& geometry = tensor->geometry;
  const int dim = geometry.problem_dim;
  switch (geometry.problem) {
    case ViewProblem::kNone:
      break;
    case ViewProblem::kNegativeOffset:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has a negative view offset (%" PRId64 ").", kPhase1Name,
                         name, tensor->offset);
    case ViewProblem::kNegativeSize:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has a negative size (%" PRId64 ") in dim %d.", kPhase1Name,
                         name, tensor->view_dims[dim], dim);
    case ViewProblem::kNegativeStride:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has a negative stride (%" PRId64 ") in dim %d.",
                         kPhase1Name, name, tensor->strides[dim], dim);
    case ViewProblem::kExtentOverflow:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the extent of %s's view does not fit in 64 bits.",
                         kPhase1Name, name);
    case ViewProblem::kElementCountOverflow:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the element count of %s's view does not fit in 64 bits.",
                         kPhase1Name, name);
    case ViewProblem::kInvalidStorageShape:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has an invalid storage shape (negative or overflowing).",
                         kPhase1Name, name);
    case ViewProblem::kOutsideStorage:
      return ReportError(ACLNN_ERR_PARAM_INVALID,
                         "%s: %s's view (offset %" PRId64 ") reaches element %" PRId64
                         " of its storage, but its storage shape holds %" PRId64 " elements.",
                         kPhase1Name, name, tensor->offset, geometry.last_index, geometry.storage_elements);
    case ViewProblem::kByteExtentOverflow:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the extent of %s's view in bytes does not fit in 64 bits.",
                         kPhase1Name, name);
  }
  return ReportError(ACLNN_ERR_INNER, "%s: %s's view has an unknown problem (%d).", kPhase1Name, name,
                     static_cast<int>(geometry.problem));
}

// Strict mode: a non-empty view must lie inside one live device allocation, as
// the NPU would otherwise read or write memory the tensor does not own (or fault
// on a host address). A null data address is left to phase 2, which reports it
// (repeatable executors may bind addresses only after phase 1).
aclnnStatus CheckViewInAllocation(const aclTensor* tensor, const char* name, int64_t extent_bytes) {
  if (tensor->data == nullptr) return ACLNN_SUCCESS;
  DeviceRange allocation{};
  const DeviceAddressState state = Runtime().find_allocation(tensor->data, &allocation);
  if (state == kNotDeviceMemory) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s's data address %p is not device memory (aclrtMalloc did not return it); a host "
                       "pointer cannot be used as tensor data.",
                       kPhase1Name, name, tensor->data);
  }
  if (state == kFreedDeviceMemory) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s's data address %p lies in device memory that aclrtFree already released "
                       "(allocation %p of %zu bytes): use after free.",
                       kPhase1Name, name, tensor->data, allocation.base, allocation.size);
  }
  const uint64_t start = static_cast<uint64_t>(static_cast<const char*>(tensor->data) -
                                               static_cast<const char*>(allocation.base));
  const uint64_t end = start + static_cast<uint64_t>(extent_bytes);  // both far below 2^63
  if (end > allocation.size) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s's view (shape %s, strides %s, offset %" PRId64 ", dtype %s) reaches byte %" PRIu64
                       " of device allocation %p, which has only %zu bytes (data address %p): out of bounds.",
                       kPhase1Name, name, DimsString(tensor->view_dims).c_str(), DimsString(tensor->strides).c_str(),
                       tensor->offset, DtypeName(tensor->dtype), end, allocation.base, allocation.size,
                       tensor->data);
  }
  return ACLNN_SUCCESS;
}

// Ours, after CANN's checks: how out meets the inputs in memory
// (ops/shared/operand_overlap.h). An input that overlaps out other than in place
// is staged through workspace, or refused in strict mode. Without every data
// address (a repeatable executor may bind them later) phase 2 decides alone.
aclnnStatus PlanOperandOverlap(const aclTensor* const tensors[kNumOperands], Plan* plan) {
  static constexpr const char* kNames[kNumOperands] = {"out", "gradOutput", "self"};
  for (int op = 0; op < kNumOperands; ++op) {
    if (tensors[op]->data == nullptr) return ACLNN_SUCCESS;
  }
  const auto span = [&](int op) {
    return ViewSpan(static_cast<const char*>(tensors[op]->data) + plan->view_offset_bytes[op], plan->span_bytes[op]);
  };
  for (const int op : {kGrad, kSelf}) {
    if (ClassifyOverlap(span(kOut), span(op), plan->same_layout_as_out[op]) != Overlap::kPartial) continue;
    if (StrictMode()) {
      return RefusePartialOverlap(kPhase1Name, kNames[kOut], kNames[op], span(kOut), span(op),
                                  PartialOverlapCause::kStrictMode);
    }
    plan->staging.Reserve(op, plan->span_bytes[op]);
  }
  plan->workspace_size = plan->staging.workspace_bytes;
  return ACLNN_SUCCESS;
}

void LogPlan(const Plan& plan, const aclTensor* grad, const aclTensor* self, const aclTensor* out,
             aclDataType promoted) {
  std::string sizes;
  if (plan.flat) {
    sizes = std::to_string(plan.elements);
  } else {
    for (int dim = plan.layout.rank; dim-- > 0;) {
      sizes += (sizes.empty() ? "" : "x") + std::to_string(plan.layout.sizes[dim]);
    }
  }
  std::fprintf(stderr,
               "aclcpu: %s plan: gradOutput=%s self=%s out=%s compute=%s elements=%" PRId64
               " coalesced=[%s] path=%s isa=%s threads=%d%s%s%s%s\n",
               kPhase2Name, DtypeName(grad->dtype), DtypeName(self->dtype), DtypeName(out->dtype),
               DtypeName(promoted), plan.elements, sizes.c_str(),
               plan.flat ? "contiguous" : plan.tiled ? "tiled" : "strided",
               TargetName(plan.target), plan.parts, plan.runs_inline ? " inline-when-idle" : "",
               plan.streaming ? " non-temporal-stores" : "",
               plan.staging.offset[kGrad] >= 0 ? " gradOutput-staged" : "",
               plan.staging.offset[kSelf] >= 0 ? " self-staged" : "");
}

// Index of a compute dtype (FLOAT, FLOAT16, BF16) or, for out, also DOUBLE; -1
// for any other dtype.
int KernelCacheIndex(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT: return 0;
    case ACL_FLOAT16: return 1;
    case ACL_BF16: return 2;
    case ACL_DOUBLE: return 3;
    default: return -1;
  }
}

// The kernel of the process's target (ChosenTarget, fixed per process) for
// (grad, self, out); promoted follows from grad and self. Selecting walks the
// target table and three nested dtype switches, about 100 instructions of a
// tiny call's ~2,800 (callgrind), so each answer is remembered. Racing threads
// store the same pointer; relaxed atomics suffice, code does not change.
HardsigmoidBackwardRunFn ChosenTargetKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                            aclDataType out) {
  const int64_t target = ChosenTarget();
  static std::atomic<HardsigmoidBackwardRunFn> cache[4 * 4 * 4];
  const int g = KernelCacheIndex(grad), s = KernelCacheIndex(self), o = KernelCacheIndex(out);
  if (g < 0 || g > 2 || s < 0 || s > 2 || o < 0) return SelectKernel(grad, self, promoted, out, target);
  std::atomic<HardsigmoidBackwardRunFn>& entry = cache[(g * 4 + s) * 4 + o];
  HardsigmoidBackwardRunFn kernel = entry.load(std::memory_order_relaxed);
  if (kernel == nullptr) {
    kernel = SelectKernel(grad, self, promoted, out, target);
    entry.store(kernel, std::memory_order_relaxed);
  }
  return kernel;
}

}  // namespace

aclnnStatus BuildPlan(const aclTensor* grad, const aclTensor* self, const aclTensor* out, Plan* plan) {
  const aclTensor* tensors[kNumOperands] = {out, grad, self};
  static constexpr const char* kNames[kNumOperands] = {"out", "gradOutput", "self"};
  bool any_empty = false;
  bool all_row_major = true;
  for (int op = 0; op < kNumOperands; ++op) {
    const ViewGeometry& geometry = tensors[op]->geometry;
    if (geometry.problem != ViewProblem::kNone) return ReportViewProblem(tensors[op], kNames[op]);
    plan->element_size[op] = geometry.element_size;
    plan->view_offset_bytes[op] = geometry.offset_bytes;
    plan->extent_bytes[op] = geometry.extent_bytes;
    any_empty = any_empty || geometry.empty;
    all_row_major = all_row_major && geometry.row_major;
  }
  // Every view's count: CheckParams made the shapes equal.
  const int64_t elements = self->geometry.elements;
  // An empty call touches no memory, so strict mode has nothing to check in it.
  if (!any_empty && StrictMode()) {
    for (const int op : {kGrad, kSelf, kOut}) {  // the API's argument order
      const aclnnStatus status = CheckViewInAllocation(tensors[op], kNames[op], plan->extent_bytes[op]);
      if (status != ACLNN_SUCCESS) return status;
    }
  }
  // CANN answers an empty tensor before choosing kernels: workspace 0 and an
  // executor that does nothing, on every chip and for every out dtype.
  if (any_empty) {
    plan->empty = true;
    return ACLNN_SUCCESS;
  }

  const SocInfo& soc = *CurrentSoc();  // CheckParams refused an unknown SoC
  if (soc.family == SocFamily::kAscend310B) {
    return ReportError(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                       "%s: %s (%s) has no HardSigmoidGrad kernel; aclnnHardsigmoidBackward is not supported on "
                       "this product.",
                       kPhase1Name, soc.name, soc.product);
  }
  // CheckParams accepted grad's and self's dtypes, so their codes are aclDataType
  // values; out's code may be anything CANN's cast rule lets through, values the
  // enum does not have included (common/raw_enum.h), and no kernel writes those.
  const aclDataType grad_dtype = static_cast<aclDataType>(grad->dtype);
  const aclDataType self_dtype = static_cast<aclDataType>(self->dtype);
  const aclDataType promoted = PromoteFloatingTypes(grad_dtype, self_dtype);
  const bool out_dtype_known = IsKnownDtype(out->dtype);
  const aclDataType out_dtype = out_dtype_known ? static_cast<aclDataType>(out->dtype) : ACL_DT_UNDEFINED;
  plan->target = ChosenTarget();
  plan->kernel = out_dtype_known ? ChosenTargetKernel(grad_dtype, self_dtype, promoted, out_dtype) : nullptr;
  if (plan->kernel == nullptr) {
    // Allowed by CANN's cast rule (e.g. COMPLEX64) but CANN has no cast kernel to
    // it either; refuse rather than write something wrong.
    return ReportError(ACLNN_ERR_INNER_NULLPTR,
                       "%s: out has dtype %s, which the result (%s) cannot be converted to; out must be DT_FLOAT, "
                       "DT_FLOAT16, DT_BF16 or DT_DOUBLE.",
                       kPhase1Name, DtypeName(out->dtype), DtypeName(promoted));
  }
  // Ours, after CANN's: out must not write one location twice, and how it meets
  // the inputs decides whether they are read in place or copied first.
  if (!out->geometry.elements_distinct) return RefuseSharedOutElements(kPhase1Name, "out", *out);
  for (int op = 0; op < kNumOperands; ++op) {
    plan->span_bytes[op] = plan->extent_bytes[op] - plan->view_offset_bytes[op];
  }
  plan->same_layout_as_out[kGrad] = SameElementLayout(*grad, *out);
  plan->same_layout_as_out[kSelf] = SameElementLayout(*self, *out);
  const aclnnStatus overlap_status = PlanOperandOverlap(tensors, plan);
  if (overlap_status != ACLNN_SUCCESS) return overlap_status;

  // Three dense views of one shape are one flat run (every dim merges into one):
  // no layout is built for them, as a tiny call's phase 1 is mostly fixed cost
  // and this is the common case. Other views are coalesced; some of them turn
  // out flat too (e.g. size-1 dims with any stride).
  plan->flat = all_row_major;
  if (!all_row_major) {
    const int64_t* strides[kNumOperands] = {out->strides.data(), grad->strides.data(), self->strides.data()};
    plan->layout = MakeStridedLayout(static_cast<int>(self->view_dims.size()), self->view_dims.data(), kNumOperands,
                                     strides);
    plan->flat = plan->layout.IsFlatContiguous();
  }
  plan->elements = elements;
  // Bytes moved, saturated: a view of zero strides may count up to 2^63 - 1
  // elements over a tiny extent (fuzzer, UBSan: "6029383858773566500 * 6").
  int64_t footprint = 0;
  const int64_t bytes_per_element = plan->element_size[kGrad] + plan->element_size[kSelf] + plan->element_size[kOut];
  if (__builtin_mul_overflow(elements, bytes_per_element, &footprint)) {
    footprint = INT64_MAX;
  }
  // Out written as one dense run (the inputs may step, as [::2] views do): the
  // streaming kernels store it non-temporally where they can.
  const bool out_is_one_dense_run =
      plan->flat || (plan->layout.rank == 1 && plan->layout.strides[kOut][0] == 1);
  if (out_is_one_dense_run && footprint >= kStreamingMinFootprintBytes) {
    const HardsigmoidBackwardRunFn streaming =
        SelectStreamingKernel(grad_dtype, self_dtype, promoted, out_dtype, plan->target);
    if (streaming != nullptr) {
      plan->kernel = streaming;
      plan->streaming = true;
    }
  }
  plan->tiled = !plan->flat && BenefitsFromTiling(plan->layout);
  if (plan->tiled && InputsRunAlongDim1(plan->layout)) {
    plan->tile_kernel = SelectTileKernel(grad_dtype, self_dtype, promoted, out_dtype, plan->target);
  }
  plan->runs_inline = elements <= kMaxInlineElements;
  // Split along the outermost dim (the whole run when flat), never finer than
  // kMinBytesPerPart per piece. Two parts need more than twice
  // (kMinBytesPerPart - bytes_per_element) bytes in all, which is tested first:
  // the two 64-bit divisions are a noticeable part of a tiny call.
  plan->parts = 1;
  const int threads = ThreadPool::ConfiguredThreads();
  if (threads > 1 && footprint > 2 * (kMinBytesPerPart - bytes_per_element)) {
    const int64_t outer =
        plan->flat ? elements : plan->layout.rank > 0 ? plan->layout.sizes[plan->layout.rank - 1] : 1;
    const int64_t min_elements_per_part = std::max<int64_t>(1, kMinBytesPerPart / bytes_per_element);
    const int64_t parts = std::min<int64_t>({threads, elements / min_elements_per_part, outer});
    plan->parts = parts > 1 ? static_cast<int>(parts) : 1;
  }
  if (Verbose()) LogPlan(*plan, grad, self, out, promoted);
  return ACLNN_SUCCESS;
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
