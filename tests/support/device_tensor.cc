#include "device_tensor.h"

#include "aclnnop/aclnn_hardsigmoid_backward.h"

namespace aclcpu_test {

aclnnStatus RunHardsigmoidBackward(const aclTensor* grad, const aclTensor* self, aclTensor* out,
                                   aclrtStream stream) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  aclnnStatus status = aclnnHardsigmoidBackwardGetWorkspaceSize(grad, self, out, &workspace_size, &executor);
  if (status != 0) return status;
  void* workspace = nullptr;
  if (workspace_size > 0 && aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return -1;
  }
  status = aclnnHardsigmoidBackward(workspace, workspace_size, executor, stream);
  const aclError sync = aclrtSynchronizeStream(stream);
  if (workspace != nullptr) aclrtFree(workspace);
  if (status != 0) return status;
  return sync;
}

}  // namespace aclcpu_test
