#include "ops/shared/elementwise_plan.h"

#include <algorithm>

#include "aclnn/opdev/op_errno.h"
#include "meta/tensor.h"
#include "ops/shared/view_checks.h"
#include "parallel/thread_pool.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

// A launch is split only into parts that each move at least this many bytes
// (the element sizes of every operand, per element): below that, handing part
// of the work to another thread costs more than it saves. Measured here on
// hardsigmoid backward through the full API (phase 1 + phase 2 + synchronise,
// 2 cores, launches on the calling thread), unsplit -> split in two,
// microseconds per call: float32 16K elements (96 KiB a part) 2.7 -> 2.1-2.3
// (noisy), 32K 4.8 -> 2.9-3.0, 64K 8.6 -> 4.9; f16 16K (48 KiB a part) 1.4 ->
// 1.3-1.5, 32K 2.6 -> 1.9-2.8, 64K 5.2 -> 3.3; f16 grad + f32 self/out 16K (80
// KiB a part) 1.8 -> 1.6-1.7, 32K 3.4 -> 2.6. So about 128 KiB a part: float32
// splits from ~22K elements, f16 from ~44K. (Before launches ran on the calling
// thread, the hand-off to the stream's worker put the float32 bar at ~96K
// elements a part.)
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
// The bar is every view together at 48 MiB, 1.5x a 32 MiB L3 (this machine's; a
// server part's per-die L3 is of that order). Not derived from sysconf: inside
// VMs it reports the host's whole L3 (320 MiB here).
constexpr int64_t kStreamingMinFootprintBytes = int64_t{48} << 20;

// Ours, after CANN's checks: how out meets the inputs in memory
// (operand_overlap.h). An input that overlaps out other than in place is staged
// through workspace, or refused in strict mode. Without every data address (a
// repeatable executor may bind them later) phase 2 decides alone.
aclnnStatus PlanOperandOverlap(const char* api, const ElementwiseOperand* operands, ElementwiseGeometry* geometry) {
  const int n = geometry->num_operands;
  for (int op = 0; op < n; ++op) {
    if (operands[op].tensor->data == nullptr) return ACLNN_SUCCESS;
  }
  const auto span = [&](int op) {
    return ViewSpan(static_cast<const char*>(operands[op].tensor->data) + geometry->view_offset_bytes[op],
                    geometry->span_bytes[op]);
  };
  for (int op = 1; op < n; ++op) {
    if (ClassifyOverlap(span(kElementwiseOut), span(op), geometry->same_layout_as_out[op]) != Overlap::kPartial) {
      continue;
    }
    if (StrictMode()) {
      return RefusePartialOverlap(api, operands[kElementwiseOut].name, operands[op].name, span(kElementwiseOut),
                                  span(op), PartialOverlapCause::kStrictMode);
    }
    geometry->staging.Reserve(op, geometry->span_bytes[op]);
  }
  return ACLNN_SUCCESS;
}

}  // namespace

bool ElementwiseGeometry::WorthStreaming() const { return footprint_bytes >= kStreamingMinFootprintBytes; }

aclnnStatus MeasureElementwiseViews(const char* api, const ElementwiseOperand* operands, int num_operands,
                                    const int* api_order, ElementwiseGeometry* geometry) {
  geometry->num_operands = num_operands;
  bool any_empty = false;
  for (int op = 0; op < num_operands; ++op) {
    const ViewGeometry& view = operands[op].tensor->geometry;
    if (view.problem != ViewProblem::kNone) return ReportViewProblem(api, operands[op].tensor, operands[op].name);
    geometry->element_size[op] = view.element_size;
    geometry->view_offset_bytes[op] = view.offset_bytes;
    geometry->extent_bytes[op] = view.extent_bytes;
    any_empty = any_empty || view.empty;
  }
  // An empty call touches no memory, so strict mode has nothing to check in it.
  if (!any_empty && StrictMode()) {
    for (int i = 0; i < num_operands; ++i) {
      const int op = api_order[i];
      const aclnnStatus status =
          CheckViewInAllocation(api, operands[op].tensor, operands[op].name, geometry->extent_bytes[op]);
      if (status != ACLNN_SUCCESS) return status;
    }
  }
  geometry->empty = any_empty;
  return ACLNN_SUCCESS;
}

aclnnStatus PlanElementwiseLoops(const char* api, const ElementwiseOperand* operands, int num_operands,
                                 ElementwiseGeometry* geometry) {
  const aclTensor& out = *operands[kElementwiseOut].tensor;
  // Ours, after CANN's: out must not write one location twice, and how it meets
  // the inputs decides whether they are read in place or copied first.
  if (!out.geometry.elements_distinct) return RefuseSharedOutElements(api, operands[kElementwiseOut].name, out);
  bool all_row_major = true;
  for (int op = 0; op < num_operands; ++op) {
    geometry->span_bytes[op] = geometry->extent_bytes[op] - geometry->view_offset_bytes[op];
    geometry->same_layout_as_out[op] = op == kElementwiseOut || SameElementLayout(*operands[op].tensor, out);
    all_row_major = all_row_major && operands[op].tensor->geometry.row_major;
  }
  const aclnnStatus overlap_status = PlanOperandOverlap(api, operands, geometry);
  if (overlap_status != ACLNN_SUCCESS) return overlap_status;

  // Dense views of one shape are one flat run (every dim merges into one): no
  // layout is built for them, as a tiny call's phase 1 is mostly fixed cost and
  // this is the common case. Other views are coalesced; some of them turn out
  // flat too (e.g. size-1 dims with any stride).
  geometry->flat = all_row_major;
  if (!all_row_major) {
    const int64_t* strides[kMaxElementwiseOperands] = {};
    for (int op = 0; op < num_operands; ++op) strides[op] = operands[op].tensor->strides.data();
    geometry->layout = MakeStridedLayout(static_cast<int>(out.view_dims.size()), out.view_dims.data(), num_operands,
                                         strides);
    geometry->flat = geometry->layout.IsFlatContiguous();
  }
  const int64_t elements = out.geometry.elements;  // every view's: the shapes are equal
  geometry->elements = elements;
  // Bytes moved, saturated: a view of zero strides may count up to 2^63 - 1
  // elements over a tiny extent (fuzzer, UBSan: "6029383858773566500 * 6").
  int64_t bytes_per_element = 0;
  for (int op = 0; op < num_operands; ++op) bytes_per_element += geometry->element_size[op];
  if (__builtin_mul_overflow(elements, bytes_per_element, &geometry->footprint_bytes)) {
    geometry->footprint_bytes = INT64_MAX;
  }
  geometry->tiled = !geometry->flat && BenefitsFromTiling(geometry->layout);
  geometry->runs_inline = elements <= kMaxInlineElements;
  // Split along the outermost dim (the whole run when flat), never finer than
  // kMinBytesPerPart per piece. Two parts need more than twice
  // (kMinBytesPerPart - bytes_per_element) bytes in all, which is tested first:
  // the two 64-bit divisions are a noticeable part of a tiny call.
  geometry->parts = 1;
  const int threads = ThreadPool::ConfiguredThreads();
  if (threads > 1 && geometry->footprint_bytes > 2 * (kMinBytesPerPart - bytes_per_element)) {
    const int64_t outer = geometry->flat                 ? elements
                          : geometry->layout.rank > 0 ? geometry->layout.sizes[geometry->layout.rank - 1]
                                                       : 1;
    const int64_t min_elements_per_part = std::max<int64_t>(1, kMinBytesPerPart / bytes_per_element);
    const int64_t parts = std::min<int64_t>({threads, elements / min_elements_per_part, outer});
    geometry->parts = parts > 1 ? static_cast<int>(parts) : 1;
  }
  return ACLNN_SUCCESS;
}

std::string DescribeElementwiseGeometry(const ElementwiseGeometry& geometry, const ElementwiseOperand* operands,
                                        const char* isa) {
  std::string sizes;
  if (geometry.flat) {
    sizes = std::to_string(geometry.elements);
  } else {
    for (int dim = geometry.layout.rank; dim-- > 0;) {
      sizes += (sizes.empty() ? "" : "x") + std::to_string(geometry.layout.sizes[dim]);
    }
  }
  std::string text = "elements=" + std::to_string(geometry.elements) + " coalesced=[" + sizes +
                     "] path=" + (geometry.flat ? "contiguous" : geometry.tiled ? "tiled" : "strided") +
                     " isa=" + isa + " threads=" + std::to_string(geometry.parts);
  if (geometry.runs_inline) text += " inline-when-idle";
  for (int op = 1; op < geometry.num_operands; ++op) {
    if (geometry.staging.offset[op] >= 0) text += std::string(" ") + operands[op].name + "-staged";
  }
  return text;
}

}  // namespace aclcpu
