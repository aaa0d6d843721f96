// aclcpu: the part of an elementwise operator's phase-1 plan that does not
// depend on what the operator computes: how its views lie in memory, how the
// loops walk them (coalesced dims, tiles, thread split) and what workspace
// overlapping inputs need. Each operator adds its kernels (ops/<op>/plan.h) and
// runs the loops through elementwise_launch.h.
//
// Operands are numbered out first, then the inputs: the iterator walks operand
// 0 fastest-first (writes are the costlier stream).
#ifndef ACLCPU_OPS_SHARED_ELEMENTWISE_PLAN_H_
#define ACLCPU_OPS_SHARED_ELEMENTWISE_PLAN_H_

#include <cstdint>
#include <string>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "iter/strided_layout.h"
#include "meta/tensor.h"
#include "ops/shared/operand_overlap.h"
#include "runtime/strict.h"

namespace aclcpu {

constexpr int kMaxElementwiseOperands = 3;
constexpr int kElementwiseOut = 0;  // operand 0 is the written view

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
inline constexpr int64_t kMinBytesPerPart = 128 * 1024;
// Launches up to this size run on the caller's thread when its stream is idle:
// they take well under a microsecond, less than waking the stream's worker.
inline constexpr int64_t kMaxInlineElements = 4096;
// Non-temporal stores pay off once the data is well beyond the last-level cache
// (measured here: +20-50% at 16M float32 elements, 2-3x slower while in cache;
// all-bf16 through the full API, medians of 25 calls, two A/B rounds: 8.6M
// elements 2 threads 29-35 -> 53-58 GB/s, 16M 1 thread 26-27 -> 28-31, 16M 2
// threads 37-39 -> 40-56; all-f16 16M 2 threads 28 -> 41; float32 [::2]
// inputs, 16M elements, bench medians: 1 thread 15.8 -> 13.8 ms, 2 threads
// 10.0-10.2 -> 6.2-8.8 ms. Step-2 views of 16-bit types computed in blocks and
// copied out gained nothing there; stored non-temporally by the step-2 kernel
// itself, whole vectors at a time, they gain: all-bf16 16M one thread against
// the step-2 roofline 0.57-0.62 -> 0.92-0.99, see the backward op's
// StreamingRun. Every contiguous run is now streamed from registers as well:
// ops/shared/simd/element_io-inl.h's StreamVectors.)
// The bar is every view together at 48 MiB, 1.5x a 32 MiB L3 (this machine's; a
// server part's per-die L3 is of that order). Not derived from sysconf: inside
// VMs it reports the host's whole L3 (320 MiB here). The bench's rooflines
// stream by the same bar (bench/roofline.cc).
inline constexpr int64_t kStreamingMinFootprintBytes = int64_t{48} << 20;

// One operand as the API passed it, with the name messages use.
struct ElementwiseOperand {
  const aclTensor* tensor;
  const char* name;
};

struct ElementwiseGeometry {
  ElementwiseGeometry() {}  // leaves `layout` unconstructed (see there)

  int num_operands = 0;
  bool empty = false;    // some dim is 0: nothing to do
  int64_t elements = 0;  // elements of each view
  bool flat = false;     // one run of `elements` with unit strides in every operand
  // The coalesced dims, read only when !flat (and !empty). A flat plan, which
  // every dense call has, never constructs it: zeroing its 264 bytes took a
  // tenth of a tiny call (~6 ns of ~60, a `rep stos`). In a union so that the
  // constructor can skip it; copying a plan copies the union's bytes, which is
  // defined whether or not the layout was constructed.
  union {
    StridedLayout layout;
  };
  int64_t element_size[kMaxElementwiseOperands] = {};
  int64_t view_offset_bytes[kMaxElementwiseOperands] = {};
  // Bytes from each tensor's data address to one past the last byte its view
  // touches: the device range phase 2 must be able to access.
  int64_t extent_bytes[kMaxElementwiseOperands] = {};
  // Bytes from each view's first element to one past the last byte it touches
  // (extent_bytes - view_offset_bytes): what overlap is judged on.
  int64_t span_bytes[kMaxElementwiseOperands] = {};
  // Whether each input puts its elements where out does (SameElementLayout): an
  // input at out's own address with this is an in-place operand.
  bool same_layout_as_out[kMaxElementwiseOperands] = {};
  // Inputs that overlap out other than in place, copied into the workspace when
  // the launch runs (ops/shared/operand_overlap.h).
  InputStaging staging;
  int64_t bytes_per_element = 0;  // the element sizes of every operand together
  int64_t footprint_bytes = 0;    // bytes every view together moves (saturated)
  bool tiled = false;           // walk the two innermost dims in tiles (transposed views)
  int parts = 1;                // pieces the launch is split into, one per thread
  // Whether phase 1 had every data address, and then each view's first element
  // (a device address): phase 2 with the same addresses (no rebinding since)
  // starts there, and need not judge the overlap phase 1 judged.
  bool addresses_planned = false;
  char* planned_view_starts[kMaxElementwiseOperands] = {};
  bool runs_inline = false;     // small enough to run on the launching thread when the stream is idle

  // Whether the run kernels can stream out (non-temporal stores) and it pays:
  // the launch is far beyond the cache, not in place, and out is written in
  // dense runs (one run, or untiled rows with unit stride) long enough that the
  // few elements each run's ends leave to ordinary stores do not matter. The
  // inputs may step ([::2] views) or repeat (a broadcast row).
  bool WorthStreamingRuns() const;
  // Whether the block kernel of a tiled launch streams out's aligned vectors:
  // each thread's plane holds enough of out (elementwise_plan.cc).
  bool WorthStreamingTiles() const;
};

// Step 1, right after CANN's checks: each view's own rules (view_checks.h), in
// strict mode that each lies in its device allocation (checked in the API's
// argument order, `api_order`: operand indices), and whether there is anything
// to do. Fills the per-operand sizes and offsets and `empty`.
inline aclnnStatus MeasureElementwiseViews(const char* api, const ElementwiseOperand* operands, int num_operands,
                                           const int* api_order, ElementwiseGeometry* geometry);

// Step 2, for a non-empty call after the operator chose its kernels: out's
// elements must be distinct memory; inputs that overlap out other than in place
// are staged (strict mode: refused); then the loops: coalesced dims, tiling,
// thread split, inline runs. The shapes are equal (CANN's checks).
inline aclnnStatus PlanElementwiseLoops(const char* api, const ElementwiseOperand* operands, int num_operands,
                                        ElementwiseGeometry* geometry);

// How out's view (at `out`) meets input `op`'s (at `input`), both non-empty and
// in the plan's geometry (operand_overlap.h's classes): ClassifyOverlap, except
// that views of one element layout whose bytes interleave without meeting
// ([0::2] and [1::2] of one buffer: ViewsOfOneLayoutProvablyDisjoint) are
// disjoint. Needs the final geometry (flat, layout).
Overlap ClassifyOperandOverlap(const ElementwiseGeometry& geometry, int op, ByteSpan out, ByteSpan input);

// "elements=... coalesced=[...] path=... isa=... threads=..." and the staged
// inputs, for the ACLCPU_VERBOSE plan line; `isa`: the SIMD target's name.
std::string DescribeElementwiseGeometry(const ElementwiseGeometry& geometry, const ElementwiseOperand* operands,
                                        const char* isa);


// Both steps are inline: an operator's plan calls each once with a constant
// operand count, and a tiny call's phase 1 is mostly fixed cost (as two
// out-of-line loops over a runtime count they were a fifth of it;
// bench/instruction_count). What only unusual calls need — reports, strict
// mode, overlapping operands, strided layouts, thread splits — stays out of line.
// Forced: the two operators' plans would otherwise share one out-of-line copy
// that loops over a runtime operand count.
#define ACLCPU_PLAN_INLINE inline __attribute__((always_inline))

namespace elementwise_plan_detail {

aclnnStatus ReportFirstViewProblem(const char* api, const ElementwiseOperand* operands, int num_operands);
aclnnStatus CheckViewsInAllocations(const char* api, const ElementwiseOperand* operands, int num_operands,
                                    const int* api_order, const ElementwiseGeometry& geometry);
// Out's bytes meet an input's: in place, staged or (strict mode) refused.
aclnnStatus PlanMeetingOperands(const char* api, const ElementwiseOperand* operands, ElementwiseGeometry* geometry);
// Coalesces the views of a call that is not one dense run, and decides tiling.
void PlanStridedLoops(const ElementwiseOperand* operands, ElementwiseGeometry* geometry);
// The thread split of a call large enough for more than one part.
int SplitParts(const ElementwiseGeometry& geometry, int threads, int64_t bytes_per_element);
// Whether a call of `footprint_bytes` may be split at all: two parts need more
// than twice (kMinBytesPerPart - bytes_per_element) bytes in all. Tested first,
// as SplitParts' two 64-bit divisions are a noticeable part of a tiny call.
inline bool MaySplit(int64_t footprint_bytes, int64_t bytes_per_element) {
  return footprint_bytes > 2 * (kMinBytesPerPart - bytes_per_element);
}
int ConfiguredThreads();

// An input whose bytes meet out's, with every data address known (a repeatable
// executor may bind them later; phase 2 decides then).
inline bool AnyInputMeetsOut(const ElementwiseGeometry& geometry) {
  if (!geometry.addresses_planned) return false;
  const auto span = [&](int op) { return ViewSpan(geometry.planned_view_starts[op], geometry.span_bytes[op]); };
  for (int op = 1; op < geometry.num_operands; ++op) {
    if (SpansMeet(span(kElementwiseOut), span(op))) return true;
  }
  return false;
}

}  // namespace elementwise_plan_detail

ACLCPU_PLAN_INLINE aclnnStatus MeasureElementwiseViews(const char* api, const ElementwiseOperand* operands,
                                                       int num_operands, const int* api_order,
                                                       ElementwiseGeometry* geometry) {
  // One pass over the operands gathers all step 2 needs too: what it reports
  // comes later in the order, but nothing here depends on it.
  geometry->num_operands = num_operands;
  bool any_problem = false;
  bool any_empty = false;
  bool all_row_major = true;
  bool all_bound = true;
  int64_t bytes_per_element = 0;
  for (int op = 0; op < num_operands; ++op) {
    const aclTensor& tensor = *operands[op].tensor;
    const ViewGeometry& view = tensor.geometry;
    any_problem |= view.problem != ViewProblem::kNone;
    any_empty |= view.empty;
    all_row_major &= view.row_major;
    all_bound &= tensor.data != nullptr;
    bytes_per_element += view.element_size;
    geometry->element_size[op] = view.element_size;
    geometry->view_offset_bytes[op] = view.offset_bytes;
    geometry->extent_bytes[op] = view.extent_bytes;
    geometry->span_bytes[op] = view.extent_bytes - view.offset_bytes;
    geometry->planned_view_starts[op] =
        tensor.data == nullptr ? nullptr : static_cast<char*>(tensor.data) + view.offset_bytes;
  }
  if (any_problem) return elementwise_plan_detail::ReportFirstViewProblem(api, operands, num_operands);
  geometry->empty = any_empty;
  geometry->flat = all_row_major;  // so far: step 2 coalesces other views, which may be flat too
  geometry->addresses_planned = all_bound;
  geometry->bytes_per_element = bytes_per_element;
  // An empty call touches no memory, so strict mode has nothing to check in it.
  if (!any_empty && StrictMode()) {
    return elementwise_plan_detail::CheckViewsInAllocations(api, operands, num_operands, api_order, *geometry);
  }
  return ACLNN_SUCCESS;
}

ACLCPU_PLAN_INLINE aclnnStatus PlanElementwiseLoops(const char* api, const ElementwiseOperand* operands,
                                                    int num_operands, ElementwiseGeometry* geometry) {
  namespace detail = elementwise_plan_detail;
  const aclTensor& out = *operands[kElementwiseOut].tensor;
  // Ours, after CANN's: out must not write one location twice, and how it meets
  // the inputs decides whether they are read in place or copied first.
  if (!out.geometry.elements_distinct) return RefuseSharedOutElements(api, operands[kElementwiseOut].name, out);
  geometry->same_layout_as_out[kElementwiseOut] = true;
  for (int op = 1; op < num_operands; ++op) {
    geometry->same_layout_as_out[op] = SameElementLayout(*operands[op].tensor, out);
  }
  // Dense views of one shape are one flat run (every dim merges into one): no
  // layout is built for them, as this is the common case. Other views are
  // coalesced; some of them turn out flat too (e.g. size-1 dims with any stride).
  if (!geometry->flat) detail::PlanStridedLoops(operands, geometry);
  if (detail::AnyInputMeetsOut(*geometry)) {
    const aclnnStatus status = detail::PlanMeetingOperands(api, operands, geometry);
    if (status != ACLNN_SUCCESS) return status;
  }
  const int64_t elements = out.geometry.elements;  // every view's: the shapes are equal
  geometry->elements = elements;
  // Bytes moved, saturated: a view of zero strides may count up to 2^63 - 1
  // elements over a tiny extent (fuzzer, UBSan: "6029383858773566500 * 6").
  const int64_t bytes_per_element = geometry->bytes_per_element;
  if (__builtin_mul_overflow(elements, bytes_per_element, &geometry->footprint_bytes)) {
    geometry->footprint_bytes = INT64_MAX;
  }
  geometry->runs_inline = elements <= kMaxInlineElements;
  geometry->parts = 1;
  if (detail::MaySplit(geometry->footprint_bytes, bytes_per_element)) {
    const int threads = detail::ConfiguredThreads();
    if (threads > 1) geometry->parts = detail::SplitParts(*geometry, threads, bytes_per_element);
  }
  return ACLNN_SUCCESS;
}

}  // namespace aclcpu


#endif  // ACLCPU_OPS_SHARED_ELEMENTWISE_PLAN_H_
