#include "ops/hardsigmoid/plan.h"

#include <atomic>
#include <cstdio>

#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/env.h"
#include "common/error_report.h"
#include "meta/tensor.h"
#include "ops/hardsigmoid/check.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid {
namespace {

// The kernel of the process's target (fixed per process) for a dtype. Selecting
// walks the target table; each answer is remembered, as a tiny call is mostly
// fixed cost. Racing threads store the same pointer; relaxed atomics suffice.
RunFn ChosenTargetKernel(aclDataType dtype, int64_t target) {
  static std::atomic<RunFn> cache[4];
  const int index = dtype == ACL_FLOAT ? 0 : dtype == ACL_FLOAT16 ? 1 : dtype == ACL_BF16 ? 2 : 3;
  RunFn kernel = cache[index].load(std::memory_order_relaxed);
  if (kernel == nullptr) {
    kernel = SelectKernel(dtype, target);
    cache[index].store(kernel, std::memory_order_relaxed);
  }
  return kernel;
}

}  // namespace

const ElementwiseOpInfo kOpInfo = {
    kOutOfPlace.phase1,
    kOutOfPlace.phase2,
    kNumOperands,
    /*num_inputs=*/1,
    /*num_outputs=*/1,
    {"out", "self"},
    {"aclnnHardsigmoid: out", "aclnnHardsigmoid: self"},
    {{true, 0}, {false, 0}},
};

const ElementwiseOpInfo kInplaceOpInfo = {
    kInPlace.phase1,
    kInPlace.phase2,
    kNumOperands,
    /*num_inputs=*/1,
    /*num_outputs=*/1,
    {"self", "self"},
    {"aclnnInplaceHardsigmoid: self", "aclnnInplaceHardsigmoid: self"},
    {{true, 0}, {false, 0}},
};

aclnnStatus BuildPlan(const ElementwiseOpInfo& info, const ElementwiseOperand* operands, Plan* plan) {
  const aclTensor* const self = operands[kSelf].tensor;
  static constexpr int kApiOrder[kNumOperands] = {kSelf, kOut};
  ElementwiseGeometry& geometry = plan->geometry;
  aclnnStatus status = MeasureElementwiseViews(info.phase1_name, operands, kNumOperands, kApiOrder, &geometry);
  // An empty tensor: workspace 0 and an executor that does nothing.
  if (status != ACLNN_SUCCESS || geometry.empty) return status;
  // CheckParams accepted self's dtype and made out's equal.
  const aclDataType dtype = static_cast<aclDataType>(self->dtype);
  plan->target = ChosenTarget();
  plan->kernel = ChosenTargetKernel(dtype, plan->target);
  if (plan->kernel == nullptr) {
    return ReportError(ACLNN_ERR_INNER_NULLPTR, "%s: no kernel for dtype %s on target %s.", info.phase1_name,
                       DtypeName(dtype), TargetName(plan->target));
  }
  status = PlanElementwiseLoops(info.phase1_name, operands, kNumOperands, &geometry);
  if (status != ACLNN_SUCCESS) return status;
  if (geometry.WorthStreamingRuns()) {
    const RunFn streaming = SelectStreamingKernel(dtype, plan->target);
    if (streaming != nullptr) {
      plan->kernel = streaming;
      plan->streaming = true;
    }
  }
  // self read along its rows, out written along its own: the block kernel.
  if (geometry.tiled && InputsRunAlongDim1(geometry.layout)) {
    plan->tile_kernel = SelectTileKernel(dtype, plan->target);
    plan->streaming = plan->tile_kernel != nullptr && geometry.WorthStreamingTiles();
  }
  if (Verbose()) {
    std::fprintf(stderr, "aclcpu: %s plan: self=%s out=%s %s%s\n", info.phase2_name, DtypeName(self->dtype),
                 DtypeName(operands[kOut].tensor->dtype),
                 DescribeElementwiseGeometry(geometry, operands, TargetName(plan->target)).c_str(),
                 plan->streaming ? " non-temporal-stores" : "");
  }
  return ACLNN_SUCCESS;
}

}  // namespace hardsigmoid
}  // namespace aclcpu
