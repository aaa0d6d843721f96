/* aclcpu: export marker of aclnn operator entry points. */
#ifndef OP_API_INC_ACLNN_UTIL_H
#define OP_API_INC_ACLNN_UTIL_H

#define ACLNN_API __attribute__((visibility("default")))

#endif /* OP_API_INC_ACLNN_UTIL_H */
