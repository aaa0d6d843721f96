/*
 * aclcpu: process-level aclnn functions. aclInit also initialises aclnn; calling
 * both is allowed.
 */
#ifndef ACLCPU_ACLNN_ACLNN_BASE_H_
#define ACLCPU_ACLNN_ACLNN_BASE_H_

#include <stdint.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* configPath may be nullptr; otherwise it must name a readable file. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACLNN_ACLNN_BASE_H_ */
