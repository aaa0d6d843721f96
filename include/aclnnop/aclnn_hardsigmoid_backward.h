/*
 * aclcpu: aclnnHardsigmoidBackward, the backward of hardsigmoid.
 *
 *   out = (-3 < self < 3) ? gradOutput * (1/6) : 0        (elementwise, same shapes)
 *
 * Two-phase API: phase 1 validates the arguments, decides how to compute and
 * returns the workspace size and an executor; phase 2 launches the executor on a
 * stream. See docs in the aclcpu README for dtypes per SoC and the exact numerics.
 *
 * @domain aclnn_ops_train
 */
#ifndef OP_API_INC_HARDSIGMOID_BACKWARD_H_
#define OP_API_INC_HARDSIGMOID_BACKWARD_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardsigmoidBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                               aclTensor *out, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnHardsigmoidBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_HARDSIGMOID_BACKWARD_H_ */
