#include "ops/shared/view_checks.h"

#include <cinttypes>

#include "aclnn/opdev/op_errno.h"
#include "common/dims_string.h"
#include "common/dtype.h"
#include "common/error_report.h"
#include "runtime/strict.h"

namespace aclcpu {

aclnnStatus ReportViewProblem(const char* api, const aclTensor* tensor, const char* name) {
  const ViewGeometry& geometry = tensor->geometry;
  const int dim = geometry.problem_dim;
  switch (geometry.problem) {
    case ViewProblem::kNone:
      break;
    case ViewProblem::kNegativeOffset:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has a negative view offset (%" PRId64 ").", api, name,
                         tensor->offset);
    case ViewProblem::kNegativeSize:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has a negative size (%" PRId64 ") in dim %d.", api, name,
                         tensor->view_dims[dim], dim);
    case ViewProblem::kNegativeStride:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has a negative stride (%" PRId64 ") in dim %d.", api,
                         name, tensor->strides[dim], dim);
    case ViewProblem::kExtentOverflow:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the extent of %s's view does not fit in 64 bits.", api, name);
    case ViewProblem::kElementCountOverflow:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the element count of %s's view does not fit in 64 bits.",
                         api, name);
    case ViewProblem::kInvalidStorageShape:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has an invalid storage shape (negative or overflowing).",
                         api, name);
    case ViewProblem::kOutsideStorage:
      return ReportError(ACLNN_ERR_PARAM_INVALID,
                         "%s: %s's view (offset %" PRId64 ") reaches element %" PRId64
                         " of its storage, but its storage shape holds %" PRId64 " elements.",
                         api, name, tensor->offset, geometry.last_index, geometry.storage_elements);
    case ViewProblem::kByteExtentOverflow:
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the extent of %s's view in bytes does not fit in 64 bits.",
                         api, name);
  }
  return ReportError(ACLNN_ERR_INNER, "%s: %s's view has an unknown problem (%d).", api, name,
                     static_cast<int>(geometry.problem));
}

aclnnStatus CheckViewInAllocation(const char* api, const aclTensor* tensor, const char* name, int64_t extent_bytes) {
  if (tensor->data == nullptr) return ACLNN_SUCCESS;
  DeviceRange allocation{};
  const DeviceAddressState state = Runtime().find_allocation(tensor->data, &allocation);
  if (state == kNotDeviceMemory) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s's data address %p is not device memory (aclrtMalloc did not return it); a host "
                       "pointer cannot be used as tensor data.",
                       api, name, tensor->data);
  }
  if (state == kFreedDeviceMemory) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s's data address %p lies in device memory that aclrtFree already released "
                       "(allocation %p of %zu bytes): use after free.",
                       api, name, tensor->data, allocation.base, allocation.size);
  }
  const uint64_t start = static_cast<uint64_t>(static_cast<const char*>(tensor->data) -
                                               static_cast<const char*>(allocation.base));
  const uint64_t end = start + static_cast<uint64_t>(extent_bytes);  // both far below 2^63
  if (end > allocation.size) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: %s's view (shape %s, strides %s, offset %" PRId64 ", dtype %s) reaches byte %" PRIu64
                       " of device allocation %p, which has only %zu bytes (data address %p): out of bounds.",
                       api, name, DimsString(tensor->view_dims).c_str(), DimsString(tensor->strides).c_str(),
                       tensor->offset, DtypeName(tensor->dtype), end, allocation.base, allocation.size,
                       tensor->data);
  }
  return ACLNN_SUCCESS;
}

}  // namespace aclcpu
