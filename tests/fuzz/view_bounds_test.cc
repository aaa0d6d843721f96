// Targeted tests for hostile views (issue "Reliability", clause 2): negative,
// huge and overflowing dims, strides and offsets, and views that reach outside
// the storage shape given to aclCreateTensor, must be refused in phase 1 with
// 161002 and a message, before anything is read or written; and the executor API
// must refuse stale handles without touching freed memory.
//
// Some of these tests only fail under the sanitizers (signed overflow in the
// library's own size arithmetic, a read of a freed executor): the plain build
// sees the right status by luck. scripts/ci/10-sanitizers.sh runs them there.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "fuzz_support.h"

namespace aclcpu_fuzz {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr uint8_t kSentinel = 0xA5;

struct Spec {
  Spec(std::vector<int64_t> dims_in, std::vector<int64_t> strides_in = {}, int64_t offset_in = 0,
       std::vector<int64_t> storage_in = {})
      : dims(std::move(dims_in)), strides(std::move(strides_in)), offset(offset_in), storage_dims(std::move(storage_in)) {}
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;  // empty: row-major
  int64_t offset = 0;
  std::vector<int64_t> storage_dims;  // empty: {elements the buffer holds}
  bool no_storage_shape = false;      // storageDimsNum = 0: nothing to check the view against
  int dtype = ACL_FLOAT;
};

class ViewBounds : public ::testing::Test {
 protected:
  void SetUp() override {
    SharedStream();
    ClearMessages();
  }

  // Phase 1 with the three operands described by `specs` (out, gradOutput, self),
  // each backed by `buffer_elements` elements of guarded memory filled with
  // kSentinel. Destroys any executor it gets (never launches it). Returns the status
  // and stores the recorded message.
  aclnnStatus Phase1(const Spec& out, const Spec& grad, const Spec& self, int64_t buffer_elements = 64) {
    const Spec* specs[3] = {&out, &grad, &self};
    aclTensor* tensors[3] = {};
    for (int op = 0; op < 3; ++op) {
      buffers_[op].Allocate(static_cast<size_t>(buffer_elements) * 8, true);
      std::memset(buffers_[op].data(), kSentinel, buffers_[op].bytes());
      const Spec& s = *specs[op];
      const std::vector<int64_t> strides = s.strides.empty() ? RowMajor(s.dims) : s.strides;
      const std::vector<int64_t> storage = s.storage_dims.empty() ? std::vector<int64_t>{buffer_elements} : s.storage_dims;
      tensors[op] = aclCreateTensor(s.dims.data(), s.dims.size(), static_cast<aclDataType>(s.dtype), strides.data(),
                                    s.offset, ACL_FORMAT_ND, s.no_storage_shape ? nullptr : storage.data(),
                                    s.no_storage_shape ? 0 : storage.size(), buffers_[op].data());
      EXPECT_NE(tensors[op], nullptr);
    }
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status =
        aclnnHardsigmoidBackwardGetWorkspaceSize(tensors[1], tensors[2], tensors[0], &workspace_size, &executor);
    const char* message = aclGetRecentErrMsg();
    message_ = message != nullptr ? message : "";
    if (status != ACLNN_SUCCESS) {
      EXPECT_EQ(executor, nullptr);
    }
    if (executor != nullptr) {
      EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    }
    for (aclTensor* tensor : tensors) aclDestroyTensor(tensor);
    return status;
  }

  // Phase 1 with the same spec for all three operands.
  aclnnStatus Phase1(const Spec& all, int64_t buffer_elements = 64) { return Phase1(all, all, all, buffer_elements); }

  bool NothingWritten() const {
    for (const auto& buffer : buffers_) {
      for (size_t b = 0; b < buffer.bytes(); ++b) {
        if (buffer.data()[b] != kSentinel) return false;
      }
    }
    return true;
  }

  GuardedBuffer buffers_[3];
  std::string message_;
};

// ---- negative values (CANN documents dims, strides and offset as non-negative) ----

TEST_F(ViewBounds, NegativeDimInAnyOperandIsRejectedWith161002AndAMessage) {
  const Spec good{{2, 3}};
  const Spec bad{{2, -3}, {3, 1}};
  EXPECT_EQ(Phase1(bad), ACLNN_ERR_PARAM_INVALID);  // equal shapes: reaches the view check
  EXPECT_NE(message_.find("negative"), std::string::npos) << message_;
  EXPECT_EQ(Phase1(Spec{{-1}, {1}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Phase1(Spec{{std::numeric_limits<int64_t>::min()}, {1}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
  EXPECT_EQ(Phase1(good), ACLNN_SUCCESS) << message_;
}

TEST_F(ViewBounds, NegativeStrideInAnyOperandIsRejectedWith161002AndAMessage) {
  const Spec good{{2, 3}};
  const Spec bad{{2, 3}, {3, -1}, 5};
  EXPECT_EQ(Phase1(bad, good, good), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message_.find("out"), std::string::npos) << message_;
  EXPECT_EQ(Phase1(good, bad, good), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message_.find("gradOutput"), std::string::npos) << message_;
  EXPECT_EQ(Phase1(good, good, bad), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message_.find("self"), std::string::npos) << message_;
  EXPECT_EQ(Phase1(good, good, Spec{{2, 3}, {std::numeric_limits<int64_t>::min(), 1}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

TEST_F(ViewBounds, NegativeOffsetInAnyOperandIsRejectedWith161002AndAMessage) {
  const Spec good{{4}};
  for (int64_t offset : {int64_t{-1}, std::numeric_limits<int64_t>::min()}) {
    EXPECT_EQ(Phase1(Spec{{4}, {}, offset}, good, good), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1(good, Spec{{4}, {}, offset}, good), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Phase1(good, good, Spec{{4}, {}, offset}), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(message_.find("offset"), std::string::npos) << message_;
  }
  EXPECT_TRUE(NothingWritten());
}

// ---- extents that do not fit in 64 bits ----------------------------------------------

TEST_F(ViewBounds, ExtentOverflowingInt64ElementsIsRejectedWith161002AndAMessage) {
  // (2^62 - 1) * 4 + 3 + 1 = 2^64 elements.
  EXPECT_EQ(Phase1(Spec{{INT64_C(1) << 62, 4}, {4, 1}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(message_.find("out"), std::string::npos) << "the message names the operand: " << message_;
  // Each term fits, their sum does not.
  EXPECT_EQ(Phase1(Spec{{2, 2}, {kMax / 2 + 1, kMax / 2 + 1}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Phase1(Spec{{kMax}, {2}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Phase1(Spec{{4}, {1}, kMax - 2}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

TEST_F(ViewBounds, ExtentOverflowingInt64BytesIsRejectedWith161002) {
  // 2^62 float32 elements fit in int64 as a count but not as bytes.
  EXPECT_EQ(Phase1(Spec{{INT64_C(1) << 62}, {1}}), ACLNN_ERR_PARAM_INVALID);
  // Only the offset is absurd: offset * itemsize overflows.
  EXPECT_EQ(Phase1(Spec{{1}, {1}, INT64_C(1) << 62}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

// The view's last element is at INT64_MAX: "last index + 1" must not itself overflow.
// With a storage shape the storage check refuses these first; without one
// (storageDimsNum = 0) plan.cc MeasureView computes last_index + 1 in int64_t,
// which UBSan reports.
TEST_F(ViewBounds, OffsetAtInt64MaxIsRejectedWithoutSignedOverflow) {
  EXPECT_EQ(Phase1(Spec{{}, {}, kMax}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Phase1(Spec{{1}, {1}, kMax}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Phase1(Spec{{2}, {kMax - 5}, 5}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

TEST_F(ViewBounds, OffsetAtInt64MaxWithoutStorageShapeIsRejectedWithoutSignedOverflow) {
  Spec last_at_max{{}, {}, kMax};
  last_at_max.no_storage_shape = true;
  EXPECT_EQ(Phase1(last_at_max), ACLNN_ERR_PARAM_INVALID);
  Spec sum_at_max{{2}, {kMax - 5}, 5};
  sum_at_max.no_storage_shape = true;
  EXPECT_EQ(Phase1(sum_at_max), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

// A view whose element count does not fit in 64 bits (zero strides keep its extent
// at one element): phase 2 would loop 2^64 times and the library's element count
// (iter/strided_layout.cc NumElements, MakeStridedLayout's merged sizes) overflows.
TEST_F(ViewBounds, ElementCountOverflowingInt64IsRejectedWith161002) {
  const Spec broadcast{{INT64_C(1) << 32, INT64_C(1) << 32}, {0, 0}};
  EXPECT_EQ(Phase1(broadcast), ACLNN_ERR_PARAM_INVALID) << message_;
  EXPECT_TRUE(NothingWritten());
}

// stride == nullptr asks aclCreateTensor for row-major strides; for absurd dims
// that product overflows (meta/tensor.cc ContiguousStrides multiplies in int64_t;
// UBSan reports it). The view is then refused in phase 1 like any other.
TEST_F(ViewBounds, NullStridesWithHugeDimsAreComputedWithoutSignedOverflow) {
  const int64_t dims[2] = {INT64_C(1) << 62, 4};
  const int64_t storage[1] = {16};
  GuardedBuffer buffer(64, true);
  aclTensor* tensor = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, buffer.data());
  ASSERT_NE(tensor, nullptr);
  int64_t* strides = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclGetViewStrides(tensor, &strides, &count), ACLNN_SUCCESS);
  ASSERT_EQ(count, 2u);
  EXPECT_EQ(strides[1], 1);
  EXPECT_EQ(strides[0], 4);
  delete[] strides;
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(tensor, tensor, tensor, &workspace_size, &executor),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(executor, nullptr);
  aclDestroyTensor(tensor);
}

// ---- views outside the storage shape ------------------------------------------------------
// (checked by phase 1 since commit f092109 when a storage shape is given)

TEST_F(ViewBounds, ViewReachingPastOneDimensionalStorageShapeIsRejectedWith161002) {
  // Storage of 6 elements; the view's last element is at 1 + 1*3 + 2*1 = 6.
  const Spec past{{2, 3}, {3, 1}, 1, {6}};
  const Spec fits{{2, 3}, {3, 1}, 0, {6}};
  EXPECT_EQ(Phase1(fits), ACLNN_SUCCESS) << message_;
  EXPECT_EQ(Phase1(past, fits, fits), ACLNN_ERR_PARAM_INVALID) << "out overruns its storage";
  EXPECT_EQ(Phase1(fits, past, fits), ACLNN_ERR_PARAM_INVALID) << "gradOutput overruns its storage";
  EXPECT_EQ(Phase1(fits, fits, past), ACLNN_ERR_PARAM_INVALID) << "self overruns its storage";
  EXPECT_TRUE(NothingWritten());
}

TEST_F(ViewBounds, ViewReachingPastMultiDimensionalStorageShapeIsRejectedWith161002) {
  // Storage shape {2,3} holds 6 elements; a transposed {3,2} view of it fits, a
  // {3,3} view with row stride 3 does not.
  const Spec transposed{{3, 2}, {1, 3}, 0, {2, 3}};
  EXPECT_EQ(Phase1(transposed), ACLNN_SUCCESS) << message_;
  const Spec past{{3, 3}, {3, 1}, 0, {2, 3}};
  EXPECT_EQ(Phase1(past), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

TEST_F(ViewBounds, HugeInBoundsLookingViewOverTinyStorageIsRejectedWith161002) {
  // 2^40 float32 elements: representable, nowhere near the 1-element storage.
  EXPECT_EQ(Phase1(Spec{{INT64_C(1) << 40}, {1}, 0, {1}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

TEST_F(ViewBounds, NegativeOrOverflowingStorageShapeIsRejectedWith161002) {
  EXPECT_EQ(Phase1(Spec{{2}, {1}, 0, {-4}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Phase1(Spec{{2}, {1}, 0, {INT64_C(1) << 32, INT64_C(1) << 32}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Phase1(Spec{{2}, {1}, 0, {4, std::numeric_limits<int64_t>::min()}}), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NothingWritten());
}

TEST_F(ViewBounds, EmptyViewNeedsNoStorage) {
  // An empty view reaches nothing, whatever its offset or storage shape.
  EXPECT_EQ(Phase1(Spec{{0, 5}, {5, 1}, 3, {0}}), ACLNN_SUCCESS) << message_;
}

// ---- stale executor handles -----------------------------------------------------------

class StaleExecutor : public ViewBounds {
 protected:
  aclOpExecutor* DestroyedExecutor(aclTensor** tensor) {
    const int64_t dims[1] = {8};
    buffers_[0].Allocate(32, true);
    *tensor = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, buffers_[0].data());
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(*tensor, *tensor, *tensor, &workspace_size, &executor),
              ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
    return executor;
  }
};

TEST_F(StaleExecutor, DestroyedExecutorIsRefusedBySetInputAndOutputTensorAddrWith161002) {
  aclTensor* tensor = nullptr;
  aclOpExecutor* executor = DestroyedExecutor(&tensor);
  EXPECT_EQ(aclSetInputTensorAddr(executor, 0, tensor, buffers_[0].data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetOutputTensorAddr(executor, 0, tensor, buffers_[0].data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensor(tensor);
}

// aclSetTensorAddr reads executor->num_inputs before asking the registry whether
// the executor is live (meta/executor.cc aclSetTensorAddr): a heap-use-after-free
// that ASan reports.
TEST_F(StaleExecutor, DestroyedExecutorIsRefusedBySetTensorAddrWithoutReadingIt) {
  aclTensor* tensor = nullptr;
  aclOpExecutor* executor = DestroyedExecutor(&tensor);
  EXPECT_EQ(aclSetTensorAddr(executor, 0, tensor, buffers_[0].data()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetTensorAddr(executor, 2, tensor, buffers_[0].data()), ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensor(tensor);
}

}  // namespace
}  // namespace aclcpu_fuzz
