/* See c_caller.h. Compiling this also checks that CANN's headers, as aclcpu
 * provides them, are valid C. */
#include "c_caller.h"

#include "acl/acl.h"

aclError CallGetMemInfoFromC(int attr, size_t *free, size_t *total) {
  return aclrtGetMemInfo((aclrtMemAttr)attr, free, total);
}
