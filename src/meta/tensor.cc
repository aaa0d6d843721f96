// aclcpu: aclTensor creation, description and destruction (CANN's acl_meta.h).
//
// aclCreateTensor validates only what it must to build the object (CANN does the
// same): shapes, strides and offsets are judged by the operator in phase 1, where
// the status and message can name the operator's argument.
#include <cstdint>
#include <deque>
#include <mutex>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/error_report.h"
#include "common/fault_injection.h"
#include "common/raw_enum.h"
#include "meta/recently_destroyed_tensors.h"
#include "meta/tensor.h"
#include "runtime/strict.h"

namespace aclcpu {

std::vector<int64_t> ContiguousStrides(const int64_t* dims, uint64_t count) {
  std::vector<int64_t> strides(count, 1);
  int64_t stride = 1;
  for (uint64_t i = count; i-- > 0;) {
    strides[i] = stride;
    // Absurd dims would overflow the product: saturate instead, so the stride
    // stays defined and phase 1 refuses the view (its extent cannot fit).
    if (__builtin_mul_overflow(stride, dims[i] > 0 ? dims[i] : 1, &stride)) stride = INT64_MAX;
  }
  return strides;
}

namespace {

// Strict mode: destroyed tensors, oldest first, marked dead but not freed yet,
// so that a later use finds kDeadMagic rather than recycled memory.
class TensorQuarantine {
 public:
  static TensorQuarantine& Get() {
    static TensorQuarantine* const quarantine = new TensorQuarantine;  // never destroyed: used at exit
    return *quarantine;
  }

  // Returns false (changing nothing) if the tensor is already dead.
  bool Retire(aclTensor* tensor) {
    aclTensor* evicted = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (tensor->magic == aclTensor::kDeadMagic) return false;
      tensor->magic = aclTensor::kDeadMagic;
      try {
        dead_.push_back(tensor);
      } catch (const std::bad_alloc&) {
        // No room to keep it: freed at once, unreported if used again. A
        // destroy must not fail for want of memory to remember it.
        evicted = tensor;
      }
      if (evicted == nullptr && dead_.size() > kTensorQuarantine) {
        evicted = dead_.front();
        dead_.pop_front();
      }
    }
    delete evicted;
    return true;
  }

 private:
  std::mutex mutex_;
  std::deque<aclTensor*> dead_;
};

// Fills `tensor` from the arguments of aclCreateTensor/aclInitTensor. Returns 0 or
// a status after recording a message naming `api`.
aclnnStatus Describe(aclTensor* tensor, const char* api, const int64_t* view_dims, uint64_t view_dims_num,
                     int32_t dtype, const int64_t* stride, int64_t offset, int32_t format,
                     const int64_t* storage_dims, uint64_t storage_dims_num, void* data) {
  if (view_dims == nullptr && view_dims_num > 0) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: viewDims is null but viewDimsNum is %llu.", api,
                       static_cast<unsigned long long>(view_dims_num));
  }
  if (storage_dims == nullptr && storage_dims_num > 0) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: storageDims is null but storageDimsNum is %llu.", api,
                       static_cast<unsigned long long>(storage_dims_num));
  }
  // Built aside and swapped in only once all three exist: a failure half-way
  // must leave an aclInitTensor'ed tensor as it was.
  std::vector<int64_t> new_view_dims;
  std::vector<int64_t> new_strides;
  std::vector<int64_t> new_storage_dims;
  try {
    if (InjectFault(FaultSite::kTensorCreate)) throw std::bad_alloc();
    new_view_dims.assign(view_dims, view_dims + view_dims_num);
    new_strides = stride != nullptr ? std::vector<int64_t>(stride, stride + view_dims_num)
                                    : ContiguousStrides(view_dims, view_dims_num);
    new_storage_dims.assign(storage_dims, storage_dims + storage_dims_num);
  } catch (const std::exception&) {  // absurd dim counts or no memory: std::bad_alloc or std::length_error
    return ReportError(ACLNN_ERR_INNER, "%s: cannot hold %llu view dims and %llu storage dims.", api,
                       static_cast<unsigned long long>(view_dims_num),
                       static_cast<unsigned long long>(storage_dims_num));
  }
  tensor->view_dims.swap(new_view_dims);
  tensor->strides.swap(new_strides);
  tensor->storage_dims.swap(new_storage_dims);
  tensor->dtype = dtype;
  tensor->format = format;
  tensor->offset = offset;
  tensor->data = data;
  tensor->geometry = MeasureViewGeometry(tensor->view_dims.data(), tensor->strides.data(), tensor->view_dims.size(),
                                         offset, tensor->storage_dims.data(), tensor->storage_dims.size(),
                                         static_cast<int64_t>(DtypeSize(dtype)));
  return ACLNN_SUCCESS;
}

// Copies `values` into a new[] array owned by the caller, as CANN's getters do.
aclnnStatus CopyOut(const std::vector<int64_t>& values, int64_t** array, uint64_t* count, const char* api) {
  int64_t* copy = new (std::nothrow) int64_t[values.size()];
  if (copy == nullptr) return ReportError(ACLNN_ERR_INNER, "%s: out of memory.", api);
  for (size_t i = 0; i < values.size(); ++i) copy[i] = values[i];
  *array = copy;
  *count = values.size();
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace aclcpu

using aclcpu::ReportError;

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                           uint64_t storageDimsNum, void* tensorData) {
  aclTensor* tensor = aclcpu::InjectFault(aclcpu::FaultSite::kTensorCreate) ? nullptr : new (std::nothrow) aclTensor;
  if (tensor == nullptr) {
    ReportError(ACLNN_ERR_INNER, "aclCreateTensor: out of memory.");
    return nullptr;
  }
  if (aclcpu::Describe(tensor, "aclCreateTensor", viewDims, viewDimsNum, aclcpu::RawEnum(dataType), stride, offset,
                       aclcpu::RawEnum(format), storageDims, storageDimsNum, tensorData) != ACLNN_SUCCESS) {
    delete tensor;
    return nullptr;
  }
  return tensor;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  if (tensor == nullptr) return ACLNN_SUCCESS;
  aclTensor* const dying = const_cast<aclTensor*>(tensor);
  if (aclcpu::StrictMode()) {
    if (!aclcpu::TensorQuarantine::Get().Retire(dying)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "aclDestroyTensor: tensor %p was already destroyed.",
                         static_cast<const void*>(tensor));
    }
    return ACLNN_SUCCESS;
  }
  // A tensor destroyed a moment ago is still ours, marked dead
  // (meta/recently_destroyed_tensors.h): destroying it again is reported, not a
  // double free.
  const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclDestroyTensor", "tensor");
  if (alive != ACLNN_SUCCESS) return alive;
  dying->magic = aclTensor::kDeadMagic;
  aclcpu::KeepRecentlyDestroyed(dying);
  return ACLNN_SUCCESS;
}

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                          uint64_t storageDimsNum, void* tensorDataAddr) {
  if (tensor == nullptr) return ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclInitTensor: tensor is null.");
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclInitTensor", "tensor")) return alive;
  return aclcpu::Describe(tensor, "aclInitTensor", viewDims, viewDimsNum, aclcpu::RawEnum(dataType), stride, offset,
                          aclcpu::RawEnum(format), storageDims, storageDimsNum, tensorDataAddr);
}

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  if (tensor == nullptr || viewDims == nullptr || viewDimsNum == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewShape: tensor, viewDims and viewDimsNum must not be null.");
  }
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclGetViewShape", "tensor")) return alive;
  return aclcpu::CopyOut(tensor->view_dims, viewDims, viewDimsNum, "aclGetViewShape");
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
  if (tensor == nullptr || storageDims == nullptr || storageDimsNum == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR,
                       "aclGetStorageShape: tensor, storageDims and storageDimsNum must not be null.");
  }
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclGetStorageShape", "tensor")) return alive;
  return aclcpu::CopyOut(tensor->storage_dims, storageDims, storageDimsNum, "aclGetStorageShape");
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
  if (tensor == nullptr || stridesValue == nullptr || stridesNum == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR,
                       "aclGetViewStrides: tensor, stridesValue and stridesNum must not be null.");
  }
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclGetViewStrides", "tensor")) return alive;
  return aclcpu::CopyOut(tensor->strides, stridesValue, stridesNum, "aclGetViewStrides");
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  if (tensor == nullptr || offset == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewOffset: tensor and offset must not be null.");
  }
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclGetViewOffset", "tensor")) return alive;
  *offset = tensor->offset;
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  if (tensor == nullptr || format == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclGetFormat: tensor and format must not be null.");
  }
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclGetFormat", "tensor")) return alive;
  aclcpu::StoreRawEnum(tensor->format, format);  // the code as given, known or not
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  if (tensor == nullptr || dataType == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclGetDataType: tensor and dataType must not be null.");
  }
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclGetDataType", "tensor")) return alive;
  aclcpu::StoreRawEnum(tensor->dtype, dataType);
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
  if (tensor == nullptr) return ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclSetRawTensorAddr: tensor is null.");
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclSetRawTensorAddr", "tensor")) return alive;
  tensor->data = addr;
  return ACLNN_SUCCESS;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) {
  if (tensor == nullptr || addr == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclGetRawTensorAddr: tensor and addr must not be null.");
  }
  if (const aclnnStatus alive = aclcpu::CheckTensorAlive(tensor, "aclGetRawTensorAddr", "tensor")) return alive;
  *addr = tensor->data;
  return ACLNN_SUCCESS;
}

}  // extern "C"
