// Copies and fills: every kind, argument checks, asynchronous forms.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

constexpr size_t kBytes = 256;

class MemcpyTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtMalloc(&device_a_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&device_b_, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    host_in_.resize(kBytes);
    std::iota(host_in_.begin(), host_in_.end(), static_cast<unsigned char>(1));
    host_out_.assign(kBytes, 0);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtFree(device_a_), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(device_b_), ACL_SUCCESS);
    DeviceTest::TearDown();
  }

  void* device_a_ = nullptr;
  void* device_b_ = nullptr;
  std::vector<unsigned char> host_in_;
  std::vector<unsigned char> host_out_;
};

TEST_F(MemcpyTest, RoundTripsThroughEveryDeviceKind) {
  // host -> A (each host-to-device kind), A -> B (each device-to-device kind), B -> host.
  for (aclrtMemcpyKind to_device : {ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, ACL_MEMCPY_DEFAULT}) {
    for (aclrtMemcpyKind across : {ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
                                   ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT}) {
      for (aclrtMemcpyKind to_host : {ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_DEFAULT}) {
        host_out_.assign(kBytes, 0);
        ASSERT_EQ(aclrtMemset(device_b_, kBytes, 0, kBytes), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(device_a_, kBytes, host_in_.data(), kBytes, to_device), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(device_b_, kBytes, device_a_, kBytes, across), ACL_SUCCESS);
        ASSERT_EQ(aclrtMemcpy(host_out_.data(), kBytes, device_b_, kBytes, to_host), ACL_SUCCESS);
        EXPECT_EQ(host_out_, host_in_) << to_device << " " << across << " " << to_host;
      }
    }
  }
}

TEST_F(MemcpyTest, HostToHostCopies) {
  ASSERT_EQ(aclrtMemcpy(host_out_.data(), kBytes, host_in_.data(), kBytes, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host_out_, host_in_);
}

TEST_F(MemcpyTest, CopiesOnlyCountBytes) {
  ASSERT_EQ(aclrtMemcpy(host_out_.data(), kBytes, host_in_.data(), 10, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host_out_[9], host_in_[9]);
  EXPECT_EQ(host_out_[10], 0);
}

TEST_F(MemcpyTest, CountAboveDestMaxIsInvalidParam) {
  EXPECT_EQ(aclrtMemcpy(device_a_, 64, host_in_.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpy: count (100) exceeds destMax (64)"));
}

TEST_F(MemcpyTest, CountZeroSucceedsWithoutTouchingMemory) {
  ASSERT_EQ(aclrtMemcpy(host_out_.data(), kBytes, host_in_.data(), 0, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host_out_, std::vector<unsigned char>(kBytes, 0));
  ASSERT_EQ(aclrtMemcpy(host_out_.data(), 0, host_in_.data(), 0, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host_out_, std::vector<unsigned char>(kBytes, 0));
}

TEST_F(MemcpyTest, NullDstOrSrcIsInvalidParam) {
  EXPECT_EQ(aclrtMemcpy(nullptr, kBytes, host_in_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpy: dst is null"));
  EXPECT_EQ(aclrtMemcpy(device_a_, kBytes, nullptr, kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpy: src is null"));
}

TEST_F(MemcpyTest, KindOutsideTheEnumIsInvalidParam) {
  for (int kind : {-1, 8, 100}) {
    EXPECT_EQ(aclrtMemcpy(device_a_, kBytes, host_in_.data(), kBytes, static_cast<aclrtMemcpyKind>(kind)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpy: kind (" + std::to_string(kind) + ")"));
  }
}

TEST_F(MemcpyTest, SynchronousCopyDoesNotWaitForStreams) {
  Gate gate;
  ASSERT_EQ(Launch(nullptr, [&] { gate.Wait(); }), ACL_SUCCESS);
  // Returns although the default stream is blocked: synchronous copies do not
  // synchronise with streams.
  EXPECT_EQ(aclrtMemcpy(device_a_, kBytes, host_in_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(device_b_, kBytes, 3, kBytes), ACL_SUCCESS);
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

TEST_F(MemcpyTest, MemsetFillsCountBytesWithTheLowByte) {
  ASSERT_EQ(aclrtMemset(device_a_, kBytes, 0, kBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device_a_, kBytes, 0x1A5, 100), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(host_out_.data(), kBytes, device_a_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host_out_[0], 0xA5);
  EXPECT_EQ(host_out_[99], 0xA5);
  EXPECT_EQ(host_out_[100], 0);
}

TEST_F(MemcpyTest, MemsetCountAboveMaxCountIsInvalidParam) {
  EXPECT_EQ(aclrtMemset(device_a_, 16, 0, 17), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemset: count (17) exceeds maxCount (16)"));
}

TEST_F(MemcpyTest, MemsetNullIsInvalidParamAndCountZeroIsNoOp) {
  EXPECT_EQ(aclrtMemset(nullptr, 16, 0, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemset: devPtr is null"));
  ASSERT_EQ(aclrtMemcpy(device_a_, kBytes, host_in_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(device_a_, kBytes, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(host_out_.data(), kBytes, device_a_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host_out_, host_in_);
}

TEST_F(MemcpyTest, AsyncCopyRunsInStreamOrder) {
  Gate gate;
  ASSERT_EQ(Launch(nullptr, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(device_a_, kBytes, host_in_.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(host_out_.data(), kBytes, device_a_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
            ACL_SUCCESS);
  // Queued behind the blocked task: nothing copied yet.
  EXPECT_EQ(host_out_, std::vector<unsigned char>(kBytes, 0));
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(host_out_, host_in_);
}

TEST_F(MemcpyTest, AsyncCopyChecksArgumentsAtCallTime) {
  EXPECT_EQ(aclrtMemcpyAsync(device_a_, 8, host_in_.data(), 9, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpyAsync: count (9) exceeds destMax (8)"));
  EXPECT_EQ(aclrtMemcpyAsync(nullptr, 8, host_in_.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpyAsync: dst is null"));
  EXPECT_EQ(aclrtMemcpyAsync(device_a_, 8, host_in_.data(), 8, static_cast<aclrtMemcpyKind>(9), nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpyAsync: kind (9)"));
  int not_a_stream = 0;
  EXPECT_EQ(aclrtMemcpyAsync(device_a_, 8, host_in_.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE, &not_a_stream),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpyAsync: stream"));
}

TEST_F(MemcpyTest, AsyncMemsetRunsOnTheGivenStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(Launch(stream, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device_a_, kBytes, 0, kBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device_a_, kBytes, 0x5A, kBytes, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(host_out_.data(), kBytes, device_a_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream),
            ACL_SUCCESS);
  EXPECT_EQ(host_out_, std::vector<unsigned char>(kBytes, 0));
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(host_out_, std::vector<unsigned char>(kBytes, 0x5A));
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(MemcpyTest, AsyncMemsetChecksArgumentsAtCallTime) {
  EXPECT_EQ(aclrtMemsetAsync(device_a_, 4, 0, 5, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemsetAsync: count (5) exceeds maxCount (4)"));
  EXPECT_EQ(aclrtMemsetAsync(nullptr, 4, 0, 4, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemsetAsync: devPtr is null"));
}

TEST(MemcpyAsync, NullStreamWithoutContextIsContextNull) {
  std::thread([] {
    TakeMessages();
    unsigned char source[4] = {1, 2, 3, 4}, target[4] = {};
    EXPECT_EQ(aclrtMemcpyAsync(target, 4, source, 4, ACL_MEMCPY_HOST_TO_HOST, nullptr), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpyAsync"));
  }).join();
}

}  // namespace
}  // namespace aclcpu_test
