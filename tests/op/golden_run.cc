#include "golden_run.h"

#include <cstring>
#include <memory>
#include <string>

namespace aclcpu_test {
namespace {

std::string ShapeText(const std::vector<int64_t>& dims) {
  std::string text = "{";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "}";
}

std::string LayoutText(const DeviceTensor::Layout& layout) {
  return "view " + ShapeText(layout.shape) + " strides " + ShapeText(layout.strides) + " offset " +
         std::to_string(layout.offset) + " storage " + std::to_string(layout.storage_elements);
}

// An aclTensor over `tensor`'s device memory that declares `storage_dims`
// instead of DeviceTensor's 1-D storage shape.
struct ReshapedStorageTensor {
  explicit ReshapedStorageTensor(const DeviceTensor& tensor, const std::vector<int64_t>& storage_dims) {
    const DeviceTensor::Layout& layout = tensor.layout();
    handle = aclCreateTensor(layout.shape.data(), layout.shape.size(), tensor.dtype(), layout.strides.data(),
                             layout.offset, layout.format, storage_dims.data(), storage_dims.size(), tensor.device());
  }
  ~ReshapedStorageTensor() { aclDestroyTensor(handle); }
  aclTensor* handle = nullptr;
};

// Writes golden input elements into a host image of an input's storage.
::testing::AssertionResult PlaceInput(const char* role, const DeviceTensor& tensor, const std::vector<uint8_t>& values,
                                      std::vector<uint8_t>* storage) {
  const size_t bytes = DtypeBytes(tensor.dtype());
  storage->assign(tensor.storage_bytes(), kInputFiller);
  std::vector<bool> written(tensor.layout().storage_elements, false);
  const std::vector<int64_t> offsets = ViewElementOffsets(tensor.layout());
  if (offsets.size() * bytes != values.size()) {
    return ::testing::AssertionFailure() << "test set-up: " << role << " view has " << offsets.size()
                                         << " elements, got " << values.size() / bytes << " values";
  }
  for (size_t k = 0; k < offsets.size(); ++k) {
    uint8_t* slot = storage->data() + offsets[k] * bytes;
    const uint8_t* value = values.data() + k * bytes;
    if (written[offsets[k]] && std::memcmp(slot, value, bytes) != 0) {
      return ::testing::AssertionFailure() << "test set-up: aliased " << role << " element at storage offset "
                                           << offsets[k] << " given two different golden values";
    }
    std::memcpy(slot, value, bytes);
    written[offsets[k]] = true;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

Operand Contiguous(std::vector<int64_t> shape, aclFormat format) {
  Operand operand;
  operand.layout.shape = std::move(shape);
  operand.layout.format = format;
  return operand;
}

std::vector<int64_t> ViewElementOffsets(const DeviceTensor::Layout& layout) {
  const std::vector<int64_t>& shape = layout.shape;
  const std::vector<int64_t> strides = layout.strides.empty() ? RowMajorStrides(shape) : layout.strides;
  const int64_t count = NumElements(shape);
  std::vector<int64_t> offsets;
  if (count == 0) return offsets;
  offsets.reserve(count);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t k = 0; k < count; ++k) {
    int64_t offset = layout.offset;
    for (size_t d = 0; d < shape.size(); ++d) offset += index[d] * strides[d];
    offsets.push_back(offset);
    for (size_t d = shape.size(); d-- > 0;) {  // row-major increment, last dim fastest
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return offsets;
}

::testing::AssertionResult RunOnGolden(const GoldenFile& golden, const std::vector<size_t>& indices,
                                       const Operand& grad_operand, const Operand& self_operand,
                                       const Operand& out_operand) {
  DeviceTensor grad(golden.grad_dtype(), grad_operand.layout, kInputFiller);
  DeviceTensor self(golden.self_dtype(), self_operand.layout, kInputFiller);
  DeviceTensor out(golden.out_dtype(), out_operand.layout, kOutSentinel);

  std::vector<uint8_t> grad_storage, self_storage;
  ::testing::AssertionResult placed = PlaceInput("grad", grad, golden.GradBytes(indices), &grad_storage);
  if (!placed) return placed;
  placed = PlaceInput("self", self, golden.SelfBytes(indices), &self_storage);
  if (!placed) return placed;
  grad.Upload(grad_storage.data(), grad_storage.size());
  self.Upload(self_storage.data(), self_storage.size());

  const std::vector<int64_t> out_offsets = ViewElementOffsets(out.layout());
  if (out_offsets.size() != indices.size()) {
    return ::testing::AssertionFailure() << "test set-up: out view has " << out_offsets.size() << " elements";
  }
  std::vector<bool> in_out_view(out.layout().storage_elements, false);
  for (int64_t offset : out_offsets) {
    if (in_out_view[offset]) return ::testing::AssertionFailure() << "test set-up: out view overlaps itself";
    in_out_view[offset] = true;
  }

  // Operands with a declared storage shape get an extra aclTensor over the same memory.
  std::unique_ptr<ReshapedStorageTensor> grad_alias, self_alias, out_alias;
  if (!grad_operand.storage_dims.empty()) grad_alias.reset(new ReshapedStorageTensor(grad, grad_operand.storage_dims));
  if (!self_operand.storage_dims.empty()) self_alias.reset(new ReshapedStorageTensor(self, self_operand.storage_dims));
  if (!out_operand.storage_dims.empty()) out_alias.reset(new ReshapedStorageTensor(out, out_operand.storage_dims));
  const aclTensor* grad_handle = grad_alias ? grad_alias->handle : grad.get();
  const aclTensor* self_handle = self_alias ? self_alias->handle : self.get();
  aclTensor* out_handle = out_alias ? out_alias->handle : out.get();

  const aclnnStatus status = RunHardsigmoidBackward(grad_handle, self_handle, out_handle, RuntimeFixture::Stream());
  if (status != 0) {
    const char* message = aclGetRecentErrMsg();
    return ::testing::AssertionFailure() << "aclnnHardsigmoidBackward failed with status " << status << " ("
                                         << (message ? message : "no message") << ") for out "
                                         << LayoutText(out.layout());
  }

  const std::vector<uint8_t> out_storage = out.DownloadStorage();
  const size_t out_bytes = DtypeBytes(golden.out_dtype());
  std::vector<uint8_t> in_view_values(indices.size() * out_bytes);
  for (size_t k = 0; k < out_offsets.size(); ++k) {
    std::memcpy(in_view_values.data() + k * out_bytes, out_storage.data() + out_offsets[k] * out_bytes, out_bytes);
  }
  std::string failures = CompareWithGolden(golden, indices, in_view_values);

  size_t clobbered = 0;
  std::string clobber_report;
  for (size_t byte = 0; byte < out_storage.size(); ++byte) {
    if (in_out_view[byte / out_bytes] || out_storage[byte] == kOutSentinel) continue;
    if (clobbered++ < 5) clobber_report += " " + std::to_string(byte);
  }
  if (clobbered != 0) {
    failures += (failures.empty() ? "" : "\n") + std::to_string(clobbered) +
                " bytes of out's storage outside its view were written (storage bytes" + clobber_report + " ...)";
  }
  if (failures.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failures << "\n  out " << LayoutText(out.layout()) << ", grad "
                                       << LayoutText(grad.layout()) << ", self " << LayoutText(self.layout());
}

::testing::AssertionResult RunOnGoldenContiguous(const GoldenFile& golden, const std::vector<size_t>& indices,
                                                 const std::vector<int64_t>& shape) {
  return RunOnGolden(golden, indices, Contiguous(shape), Contiguous(shape), Contiguous(shape));
}

std::vector<size_t> SpreadIndices(const GoldenFile& golden, size_t count, size_t salt) {
  // A prime step visits the file in a scattered order; it repeats elements
  // only once count exceeds the file's size (no file size is a multiple of 7919).
  std::vector<size_t> indices(count);
  for (size_t k = 0; k < count; ++k) indices[k] = (k * 7919 + salt * 104729) % golden.count();
  return indices;
}

std::vector<size_t> IndicesFollowingStorage(const DeviceTensor::Layout& aliasing, const std::vector<size_t>& picks) {
  std::vector<size_t> indices;
  for (int64_t offset : ViewElementOffsets(aliasing)) indices.push_back(picks.at(offset));
  return indices;
}

}  // namespace aclcpu_test
