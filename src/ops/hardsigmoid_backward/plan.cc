#include "ops/hardsigmoid_backward/plan.h"

#include <atomic>
#include <cstdio>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/env.h"
#include "common/error_report.h"
#include "common/soc.h"
#include "meta/tensor.h"
#include "ops/hardsigmoid_backward/check.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid_backward {
namespace {

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

void LogPlan(const Plan& plan, const ElementwiseOperand* operands, aclDataType promoted) {
  std::fprintf(stderr, "aclcpu: %s plan: gradOutput=%s self=%s out=%s compute=%s %s%s\n", kPhase2Name,
               DtypeName(operands[kGrad].tensor->dtype), DtypeName(operands[kSelf].tensor->dtype),
               DtypeName(operands[kOut].tensor->dtype), DtypeName(promoted),
               DescribeElementwiseGeometry(plan.geometry, operands, TargetName(plan.target)).c_str(),
               plan.streaming ? " non-temporal-stores" : "");
}

}  // namespace

const ElementwiseOpInfo kOpInfo = {
    kPhase1Name,
    kPhase2Name,
    kNumOperands,
    /*num_inputs=*/2,
    /*num_outputs=*/1,
    {"out", "gradOutput", "self"},
    {"aclnnHardsigmoidBackward: out", "aclnnHardsigmoidBackward: gradOutput", "aclnnHardsigmoidBackward: self"},
    {{true, 0}, {false, 0}, {false, 1}},
};

aclnnStatus BuildPlan(const ElementwiseOperand* operands, Plan* plan) {
  const aclTensor* const grad = operands[kGrad].tensor;
  const aclTensor* const self = operands[kSelf].tensor;
  const aclTensor* const out = operands[kOut].tensor;
  static constexpr int kApiOrder[kNumOperands] = {kGrad, kSelf, kOut};
  ElementwiseGeometry& geometry = plan->geometry;
  aclnnStatus status = MeasureElementwiseViews(kPhase1Name, operands, kNumOperands, kApiOrder, &geometry);
  // CANN answers an empty tensor before choosing kernels: workspace 0 and an
  // executor that does nothing, on every chip and for every out dtype.
  if (status != ACLNN_SUCCESS || geometry.empty) return status;

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
  status = PlanElementwiseLoops(kPhase1Name, operands, kNumOperands, &geometry);
  if (status != ACLNN_SUCCESS) return status;
  if (geometry.WorthStreamingRuns()) {
    const HardsigmoidBackwardRunFn streaming =
        SelectStreamingKernel(grad_dtype, self_dtype, promoted, out_dtype, plan->target);
    if (streaming != nullptr) {
      plan->kernel = streaming;
      plan->streaming = true;
    }
  }
  if (geometry.tiled && InputsRunAlongDim1(geometry.layout)) {
    plan->tile_kernel = SelectTileKernel(grad_dtype, self_dtype, promoted, out_dtype, plan->target);
    plan->streaming = plan->tile_kernel != nullptr && geometry.WorthStreamingTiles();
  }
  if (Verbose()) LogPlan(*plan, operands, promoted);
  return ACLNN_SUCCESS;
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
