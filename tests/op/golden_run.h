// aclcpu op tests: runs aclnnHardsigmoidBackward on golden elements placed
// through arbitrary views and checks the result against the golden values.
#ifndef ACLCPU_TESTS_OP_GOLDEN_RUN_H_
#define ACLCPU_TESTS_OP_GOLDEN_RUN_H_

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "device_tensor.h"
#include "golden_file.h"

namespace aclcpu_test {

// How one operand is laid out: a DeviceTensor layout plus, optionally, the
// storage shape the aclTensor should declare (DeviceTensor always declares a
// 1-D storage of `storage_elements`, as torch_npu does; ops-nn's cases use
// shaped storages such as {3,2}).
struct Operand {
  DeviceTensor::Layout layout;
  std::vector<int64_t> storage_dims;  // empty: DeviceTensor's 1-D storage shape
};

// A contiguous row-major operand of `shape`.
Operand Contiguous(std::vector<int64_t> shape, aclFormat format = ACL_FORMAT_ND);

// Storage offset (in elements) of every element of the view, in row-major
// order of the view's indices.
std::vector<int64_t> ViewElementOffsets(const DeviceTensor::Layout& layout);

// Byte that fills out's storage before the run; every byte outside out's view
// must still hold it afterwards.
constexpr uint8_t kOutSentinel = 0xA5;
// Byte that fills the parts of input storages no view element uses: 0xFF...
// is a NaN in f32, f16 and bf16, so an implementation that reads outside the
// view shows up as a wrong value.
constexpr uint8_t kInputFiller = 0xFF;

// Builds grad, self and out with the golden file's dtypes and the given
// layouts (each view must have indices.size() elements), places golden element
// indices[k] at the k-th view position of grad and self, fills out's storage
// with kOutSentinel, runs both phases on the test stream, and checks
//   - the status is 0,
//   - out's k-th view element matches golden expected[indices[k]] bit for bit
//     (any NaN where PyTorch gives a NaN),
//   - no byte of out's storage outside its view changed.
// Views of grad/self that alias storage elements must be given indices that
// agree on the aliased values (the function refuses inconsistent set-ups).
::testing::AssertionResult RunOnGolden(const GoldenFile& golden, const std::vector<size_t>& indices,
                                       const Operand& grad, const Operand& self, const Operand& out);

// The same with contiguous row-major tensors of `shape` for all three operands.
::testing::AssertionResult RunOnGoldenContiguous(const GoldenFile& golden, const std::vector<size_t>& indices,
                                                 const std::vector<int64_t>& shape);

// `count` golden indices spread over the whole file (specials, ties and random
// values alike); `salt` varies the selection between tests.
std::vector<size_t> SpreadIndices(const GoldenFile& golden, size_t count, size_t salt = 0);

// For views whose elements alias (zero or overlapping strides): the golden
// index of view position k is picks[offset of k in `aliasing`'s storage], so
// positions that share a storage element share the golden element too.
std::vector<size_t> IndicesFollowingStorage(const DeviceTensor::Layout& aliasing, const std::vector<size_t>& picks);

}  // namespace aclcpu_test

#endif  // ACLCPU_TESTS_OP_GOLDEN_RUN_H_
