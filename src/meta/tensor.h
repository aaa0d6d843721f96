// aclcpu: the aclTensor object behind CANN's opaque handle.
//
// Shared by libnnopbase (which creates and destroys tensors) and libopapi (which
// reads them in phase 1); both are built from this one definition.
#ifndef ACLCPU_META_TENSOR_H_
#define ACLCPU_META_TENSOR_H_

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"
#include "meta/view_geometry.h"

struct aclTensor {
  // Set while the object is alive. A destroyed tensor is kept for a while with
  // kDeadMagic (strict mode: aclcpu::kTensorQuarantine of them; default mode:
  // each thread's last few, meta/recently_destroyed_tensors.h), so that using
  // or destroying it again is reported instead of reading freed memory.
  static constexpr uint64_t kLiveMagic = 0x61636c54656e7372ull;  // "aclTensr"
  static constexpr uint64_t kDeadMagic = 0x6465616454656e73ull;  // "deadTens"

  uint64_t magic = kLiveMagic;
  // The aclDataType and aclFormat codes as given, known values or not (a C
  // caller may pass any int: common/raw_enum.h). Phase 1 judges the dtype.
  int32_t dtype = ACL_DT_UNDEFINED;
  int32_t format = ACL_FORMAT_ND;
  std::vector<int64_t> view_dims;
  std::vector<int64_t> strides;  // in elements, one per view dim
  int64_t offset = 0;            // in elements, from `data`
  std::vector<int64_t> storage_dims;
  void* data = nullptr;          // device address of the storage's first element
  // What the view above amounts to, measured whenever it is described (never
  // by the data address, which may change without the view changing).
  aclcpu::ViewGeometry geometry;
};

namespace aclcpu {

// Destroyed tensors strict mode keeps before really freeing the oldest.
constexpr size_t kTensorQuarantine = 4096;

// If `tensor` is not a live aclTensor, records why `api` cannot use it as
// argument `name` and returns ACLNN_ERR_PARAM_INVALID; otherwise 0. Every mode:
// one load and compare. A tensor destroyed long ago (memory freed and perhaps
// reused) is judged by whatever its memory holds now: a cheap check, not proof.
// (Inline: libopapi uses it too, and the libraries share no C++ symbols.)
inline aclnnStatus CheckTensorAlive(const aclTensor* tensor, const char* api, const char* name) {
  if (tensor->magic == aclTensor::kLiveMagic) return ACLNN_SUCCESS;
  if (tensor->magic == aclTensor::kDeadMagic) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s (aclTensor %p) was destroyed by aclDestroyTensor; create a new tensor instead of "
                       "reusing a destroyed one.",
                       api, name, static_cast<const void*>(tensor));
  }
  return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s (%p) is not an aclTensor made by aclCreateTensor.", api, name,
                     static_cast<const void*>(tensor));
}

// Row-major contiguous strides of `dims` (the last stride is 1).
std::vector<int64_t> ContiguousStrides(const int64_t* dims, uint64_t count);

}  // namespace aclcpu

#endif  // ACLCPU_META_TENSOR_H_
