/* Calls made from C, as a program built against CANN's headers makes them: C
 * passes any int where an enumeration is expected, which C++ test code cannot
 * do without undefined behaviour (an out-of-range value in a C++ enum). */
#ifndef ACLCPU_TESTS_RUNTIME_C_CALLER_H_
#define ACLCPU_TESTS_RUNTIME_C_CALLER_H_

#include <stddef.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclrtGetMemInfo((aclrtMemAttr)attr, free, total). */
aclError CallGetMemInfoFromC(int attr, size_t *free, size_t *total);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_TESTS_RUNTIME_C_CALLER_H_ */
