/*
 * aclcpu: aclnnHardsigmoid and aclnnInplaceHardsigmoid.
 *
 *   out = min(max(self + 3, 0), 6) / 6                   (elementwise, same shapes and dtypes)
 *
 * The in-place form writes the result through self's own view. Two-phase API:
 * phase 1 validates the arguments, decides how to compute and returns the
 * workspace size and an executor; phase 2 launches the executor on a stream.
 * See the aclcpu README for dtypes per SoC and the exact numerics.
 *
 * @domain aclnn_ops_infer
 */
#ifndef OP_API_INC_HARDSIGMOID_H_
#define OP_API_INC_HARDSIGMOID_H_

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                       aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnHardsigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                       const aclrtStream stream);

ACLNN_API aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);

ACLNN_API aclnnStatus aclnnInplaceHardsigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OP_API_INC_HARDSIGMOID_H_ */
