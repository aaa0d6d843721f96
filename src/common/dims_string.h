// aclcpu: dims and strides as our error messages print them: "[2,3,4]" ("[]"
// for a 0-d tensor).
#ifndef ACLCPU_COMMON_DIMS_STRING_H_
#define ACLCPU_COMMON_DIMS_STRING_H_

#include <cstdint>
#include <string>
#include <vector>

namespace aclcpu {

inline std::string DimsString(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_DIMS_STRING_H_
