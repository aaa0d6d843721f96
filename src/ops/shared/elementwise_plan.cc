#include "ops/shared/elementwise_plan.h"

#include <algorithm>

#include "aclnn/opdev/op_errno.h"
#include "meta/tensor.h"
#include "ops/shared/view_checks.h"
#include "parallel/thread_pool.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace {

// Rows of out (a broadcast input, a sliced or permuted batch) are streamed one
// by one, each run's first and last elements up to a vector boundary by
// ordinary stores; that costs per row, so only long rows gain. Backward, float32
// gradOutput broadcast along the rows, 16M elements, one core, AMD Zen 5 VM,
// ordinary -> streamed rows, ms a call (three alternated runs each): 64-byte
// rows 5.6 -> 10.9, 256 B 3.2-4.0 -> 3.2-4.6, 400 B 3.1-3.3 -> 8.4-10.7, 800 B
// 3.3 -> 4.7-6.0, 2000 B 3.9-4.1 -> 3.2-3.8, 2 KiB 3.4-3.5 -> 2.9-3.3, 4 KiB
// 3.5-4.1 -> 2.9-3.2, 16 KiB 3.5-4.8 -> 2.9-3.2; two threads, 2 KiB and 16 KiB
// rows 3.0-3.2 -> 2.3-2.4. So from 2 KiB.
constexpr int64_t kStreamingMinRowBytes = 2048;
// The block kernel (transposed planes) streams out's aligned vectors from 16
// MiB of out per plane and thread: with the inputs at least 32-48 MiB in all,
// of the order of the runs' footprint bar, far beyond L2 and most of the L3
// share. Backward float32 4096^2 bench 41 -> 31-37 ms.
constexpr int64_t kStreamingMinPlaneBytes = int64_t{16} << 20;

}  // namespace

bool ElementwiseGeometry::WorthStreamingRuns() const {
  if (footprint_bytes < kStreamingMinFootprintBytes) return false;
  // In place, out's lines are read as an input before they are written, so a
  // non-temporal store saves no read, and it evicts the line just read:
  // forward in place, 16M elements, AMD Zen 5 VM, streamed -> ordinary stores,
  // alternated: f32 one core 2.49-2.67 -> 1.86-2.14 ms (PyTorch 2.1-2.5), two
  // threads 1.13-1.47 -> 0.75-1.12; bf16 one core 1.00-1.03 -> 0.81-1.13, two
  // 0.44-0.49 -> 0.35-0.44. (Addresses bound in place only after phase 1 keep
  // the streaming kernel: right either way.)
  if (addresses_planned) {
    const auto span = [&](int op) { return ViewSpan(planned_view_starts[op], span_bytes[op]); };
    for (int op = 1; op < num_operands; ++op) {
      if (ClassifyOverlap(span(kElementwiseOut), span(op), same_layout_as_out[op]) == Overlap::kSameElements) {
        return false;
      }
    }
  }
  if (flat) return true;
  if (tiled || layout.strides[kElementwiseOut][0] != 1) return false;
  return layout.rank == 1 || layout.sizes[0] * element_size[kElementwiseOut] >= kStreamingMinRowBytes;
}

bool ElementwiseGeometry::WorthStreamingTiles() const {
  if (!tiled) return false;
  // Threads split a rank-2 layout's one plane along dim 1 (SliceOuterDim), a
  // higher rank's by whole planes: what each thread's block walk sees.
  const int64_t cols = layout.rank == 2 ? layout.sizes[1] / parts : layout.sizes[1];
  // Out's elements are distinct memory within an extent that fits in int64_t,
  // so the product does not overflow.
  return layout.sizes[0] * cols * element_size[kElementwiseOut] >= kStreamingMinPlaneBytes;
}

namespace elementwise_plan_detail {

aclnnStatus ReportFirstViewProblem(const char* api, const ElementwiseOperand* operands, int num_operands) {
  for (int op = 0; op < num_operands; ++op) {
    if (operands[op].tensor->geometry.problem != ViewProblem::kNone) {
      return ReportViewProblem(api, operands[op].tensor, operands[op].name);
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckViewsInAllocations(const char* api, const ElementwiseOperand* operands, int num_operands,
                                    const int* api_order, const ElementwiseGeometry& geometry) {
  for (int i = 0; i < num_operands; ++i) {
    const int op = api_order[i];
    const aclnnStatus status =
        CheckViewInAllocation(api, operands[op].tensor, operands[op].name, geometry.extent_bytes[op]);
    if (status != ACLNN_SUCCESS) return status;
  }
  return ACLNN_SUCCESS;
}

// Ours, after CANN's checks: how out meets the inputs in memory
// (operand_overlap.h). An input that overlaps out other than in place is staged
// through workspace, or refused in strict mode.
aclnnStatus PlanMeetingOperands(const char* api, const ElementwiseOperand* operands, ElementwiseGeometry* geometry) {
  const auto span = [&](int op) { return ViewSpan(geometry->planned_view_starts[op], geometry->span_bytes[op]); };
  for (int op = 1; op < geometry->num_operands; ++op) {
    if (ClassifyOperandOverlap(*geometry, op, span(kElementwiseOut), span(op)) != Overlap::kPartial) {
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

void PlanStridedLoops(const ElementwiseOperand* operands, ElementwiseGeometry* geometry) {
  const aclTensor& out = *operands[kElementwiseOut].tensor;
  const int64_t* strides[kMaxElementwiseOperands] = {};
  for (int op = 0; op < geometry->num_operands; ++op) strides[op] = operands[op].tensor->strides.data();
  geometry->layout = MakeStridedLayout(static_cast<int>(out.view_dims.size()), out.view_dims.data(),
                                       geometry->num_operands, strides);
  geometry->flat = geometry->layout.IsFlatContiguous();
  geometry->tiled = !geometry->flat && BenefitsFromTiling(geometry->layout);
}

// Split along the outermost dim (the whole run when flat), never finer than
// kMinBytesPerPart per piece.
int SplitParts(const ElementwiseGeometry& geometry, int threads, int64_t bytes_per_element) {
  const int64_t outer = geometry.flat                 ? geometry.elements
                        : geometry.layout.rank > 0 ? geometry.layout.sizes[geometry.layout.rank - 1]
                                                    : 1;
  const int64_t min_elements_per_part = std::max<int64_t>(1, kMinBytesPerPart / bytes_per_element);
  const int64_t parts = std::min<int64_t>({threads, geometry.elements / min_elements_per_part, outer});
  return parts > 1 ? static_cast<int>(parts) : 1;
}

int ConfiguredThreads() { return ThreadPool::ConfiguredThreads(); }

}  // namespace elementwise_plan_detail

Overlap ClassifyOperandOverlap(const ElementwiseGeometry& geometry, int op, ByteSpan out, ByteSpan input) {
  const Overlap overlap = ClassifyOverlap(out, input, geometry.same_layout_as_out[op]);
  // A flat geometry is one dense run per operand: meeting ranges share bytes.
  if (overlap != Overlap::kPartial || !geometry.same_layout_as_out[op] || geometry.flat) return overlap;
  const uint64_t distance = out.begin > input.begin ? out.begin - input.begin : input.begin - out.begin;
  const StridedLayout& layout = geometry.layout;  // the input's strides are out's (same layout)
  return ViewsOfOneLayoutProvablyDisjoint(layout.sizes, layout.strides[kElementwiseOut],
                                          static_cast<size_t>(layout.rank), geometry.element_size[kElementwiseOut],
                                          distance)
             ? Overlap::kDisjoint
             : Overlap::kPartial;
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
