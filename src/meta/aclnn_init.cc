// aclcpu: aclnnInit / aclnnFinalize. There is nothing to load on a CPU (no kernel
// packages, no op binaries); the config file, if given, must exist, as on CANN.
#include <unistd.h>

#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"

extern "C" {

aclnnStatus aclnnInit(const char* configPath) {
  if (configPath != nullptr && access(configPath, R_OK) != 0) {
    return aclcpu::ReportError(ACLNN_ERR_PARAM_INVALID, "aclnnInit: cannot read the config file \"%s\".",
                               configPath);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void) { return ACLNN_SUCCESS; }

}  // extern "C"
