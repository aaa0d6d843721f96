// aclcpu: the aclTensor object behind CANN's opaque handle.
//
// Shared by libnnopbase (which creates and destroys tensors) and libopapi (which
// reads them in phase 1); both are built from this one definition.
#ifndef ACLCPU_META_TENSOR_H_
#define ACLCPU_META_TENSOR_H_

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclTensor {
  // Set while the object is alive; cleared by aclDestroyTensor.
  static constexpr uint64_t kLiveMagic = 0x61636c54656e7372ull;  // "aclTensr"

  uint64_t magic = kLiveMagic;
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> view_dims;
  std::vector<int64_t> strides;  // in elements, one per view dim
  int64_t offset = 0;            // in elements, from `data`
  std::vector<int64_t> storage_dims;
  void* data = nullptr;          // device address of the storage's first element
};

namespace aclcpu {

// Row-major contiguous strides of `dims` (the last stride is 1).
std::vector<int64_t> ContiguousStrides(const int64_t* dims, uint64_t count);

}  // namespace aclcpu

#endif  // ACLCPU_META_TENSOR_H_
