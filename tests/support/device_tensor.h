// aclcpu tests: device memory plus an aclTensor describing a view of it, made
// only through the public CANN API (the tests are black-box users of aclcpu).
#ifndef ACLCPU_TESTS_SUPPORT_DEVICE_TENSOR_H_
#define ACLCPU_TESTS_SUPPORT_DEVICE_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace aclcpu_test {

inline std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

inline int64_t NumElements(const std::vector<int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>());
}

// Elements a view reaches in its storage: 1 + offset + sum((dim-1)*stride), or 0
// for an empty view.
inline int64_t StorageExtent(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                             int64_t offset) {
  int64_t last = offset;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return 0;
    last += (shape[i] - 1) * strides[i];
  }
  return last + 1;
}

// A view (shape, strides, offset in elements) of device storage of
// `storage_elements` elements of `dtype`. Storage is filled with `fill_byte`.
class DeviceTensor {
 public:
  struct Layout {
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;  // empty: row-major contiguous
    int64_t offset = 0;
    int64_t storage_elements = -1;  // -1: just enough for the view
    aclFormat format = ACL_FORMAT_ND;
  };

  DeviceTensor(aclDataType dtype, Layout layout, uint8_t fill_byte = 0) : dtype_(dtype), layout_(std::move(layout)) {
    if (layout_.strides.empty()) layout_.strides = RowMajorStrides(layout_.shape);
    if (layout_.storage_elements < 0) {
      layout_.storage_elements = StorageExtent(layout_.shape, layout_.strides, layout_.offset);
    }
    bytes_ = static_cast<size_t>(layout_.storage_elements) * aclDataTypeSize(dtype);
    if (aclrtMalloc(&device_, bytes_ == 0 ? 1 : bytes_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      throw std::runtime_error("aclrtMalloc failed");
    }
    std::vector<uint8_t> fill(bytes_, fill_byte);
    Upload(fill.data(), bytes_);
    const int64_t storage_dims[1] = {layout_.storage_elements};
    tensor_ = aclCreateTensor(layout_.shape.data(), layout_.shape.size(), dtype, layout_.strides.data(),
                              layout_.offset, layout_.format, storage_dims, 1, device_);
    if (tensor_ == nullptr) throw std::runtime_error("aclCreateTensor failed");
  }
  // Shorthand for a contiguous tensor of `shape`.
  DeviceTensor(aclDataType dtype, std::vector<int64_t> shape)
      : DeviceTensor(dtype, Layout{std::move(shape), {}, 0, -1, ACL_FORMAT_ND}) {}

  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
  ~DeviceTensor() {
    aclDestroyTensor(tensor_);
    aclrtFree(device_);
  }

  // Copies `bytes` of host data to the start of the storage.
  void Upload(const void* host, size_t bytes) {
    if (bytes == 0) return;
    if (aclrtMemcpy(device_, bytes_, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
      throw std::runtime_error("aclrtMemcpy H2D failed");
    }
  }
  template <typename T>
  void UploadElements(const std::vector<T>& values) { Upload(values.data(), values.size() * sizeof(T)); }

  // The whole storage, copied back to the host.
  std::vector<uint8_t> DownloadStorage() const {
    std::vector<uint8_t> host(bytes_);
    if (bytes_ != 0 && aclrtMemcpy(host.data(), bytes_, device_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
      throw std::runtime_error("aclrtMemcpy D2H failed");
    }
    return host;
  }
  template <typename T>
  std::vector<T> DownloadElements() const {
    std::vector<uint8_t> raw = DownloadStorage();
    std::vector<T> values(raw.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), raw.data(), values.size() * sizeof(T));
    return values;
  }

  aclTensor* get() const { return tensor_; }
  void* device() const { return device_; }
  size_t storage_bytes() const { return bytes_; }
  aclDataType dtype() const { return dtype_; }
  const Layout& layout() const { return layout_; }

 private:
  aclDataType dtype_;
  Layout layout_;
  size_t bytes_ = 0;
  void* device_ = nullptr;
  aclTensor* tensor_ = nullptr;
};

// Process-wide runtime set-up for a test binary: aclInit, device 0, one stream.
class RuntimeFixture {
 public:
  static aclrtStream Stream() { return Instance().stream_; }

 private:
  RuntimeFixture() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream_);
  }
  static RuntimeFixture& Instance() {
    static RuntimeFixture fixture;
    return fixture;
  }
  aclrtStream stream_ = nullptr;
};

// Runs both phases of aclnnHardsigmoidBackward on `stream` and waits. Returns the
// first non-zero status, or 0.
aclnnStatus RunHardsigmoidBackward(const aclTensor* grad, const aclTensor* self, aclTensor* out,
                                   aclrtStream stream);

}  // namespace aclcpu_test

#endif  // ACLCPU_TESTS_SUPPORT_DEVICE_TENSOR_H_
