// aclcpu: the aclnn argument containers behind CANN's opaque handles — scalars,
// value arrays and lists of tensors or scalars.
#ifndef ACLCPU_META_ARRAYS_H_
#define ACLCPU_META_ARRAYS_H_

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclScalar {
  aclDataType dtype;
  alignas(16) unsigned char bytes[16];  // the value, in dtype's representation
};

struct aclIntArray {
  std::vector<int64_t> values;
};

struct aclFloatArray {
  std::vector<float> values;
};

struct aclBoolArray {
  std::vector<bool> values;
};

// Lists own their elements: destroying the list destroys them (CANN's rule).
struct aclTensorList {
  std::vector<const aclTensor*> values;
  ~aclTensorList();
};

struct aclScalarList {
  std::vector<const aclScalar*> values;
  ~aclScalarList();
};

#endif  // ACLCPU_META_ARRAYS_H_
