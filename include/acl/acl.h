/*
 * aclcpu: umbrella header of the CANN ACL API (process init/finalize, version,
 * recent error messages) plus the runtime.
 *
 * <stdio.h> is included on purpose: CANN's published aclnn examples call printf
 * after including only <iostream>, <vector> and this header.
 */
#ifndef ACLCPU_ACL_ACL_H_
#define ACLCPU_ACL_ACL_H_

#include <stdio.h>

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the ACL interface aclcpu implements (CANN 8.1's values). */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 13
#define ACL_PATCH_VERSION 0

/* configPath may be nullptr; otherwise it must name a readable file. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

/* Returns and clears the error descriptions recorded by failed calls on the
 * calling thread, newest first; nullptr when there are none. The pointer stays
 * valid until the thread's next call of this function. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACL_ACL_H_ */
