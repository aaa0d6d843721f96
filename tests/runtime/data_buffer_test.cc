// aclDataBuffer: CANN's signatures and return conventions (acl/acl_base.h),
// and refusal of null, destroyed and foreign buffers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "runtime/live_objects.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(DataBuffer, CreateDescribesTheCallersMemoryWhichDestroyLeavesAllocated) {
  const int64_t live = aclcpuLiveObjectCount("data_buffers");
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclDataBuffer* buffer = aclCreateDataBuffer(device, 256);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclcpuLiveObjectCount("data_buffers"), live + 1);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), device);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 256u);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  EXPECT_EQ(aclcpuLiveObjectCount("data_buffers"), live);
  // The memory is still the caller's: usable, and freed by them.
  EXPECT_EQ(aclrtMemset(device, 256, 0, 256), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST(DataBuffer, NullDataWithSizeZeroIsAnEmptyBuffer) {
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

// CANN documents that a buffer without memory has size 0.
TEST(DataBuffer, NullDataWithANonZeroSizeIsRefused) {
  TakeMessages();
  const int64_t live = aclcpuLiveObjectCount("data_buffers");
  EXPECT_EQ(aclCreateDataBuffer(nullptr, 64), nullptr);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclCreateDataBuffer: data is null but size is 64"));
  EXPECT_EQ(aclcpuLiveObjectCount("data_buffers"), live);

  int host[4] = {};
  aclDataBuffer* buffer = aclCreateDataBuffer(host, sizeof host);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclUpdateDataBuffer(buffer, nullptr, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclUpdateDataBuffer: data is null but size is 8"));
  EXPECT_EQ(aclGetDataBufferAddr(buffer), host);  // unchanged
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof host);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

TEST(DataBuffer, UpdateReplacesAddressAndSize) {
  int first[4] = {};
  double second[8] = {};
  aclDataBuffer* buffer = aclCreateDataBuffer(first, sizeof first);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclUpdateDataBuffer(buffer, second, sizeof second), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), second);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof second);
  EXPECT_EQ(aclUpdateDataBuffer(buffer, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

// Each call refuses `buffer` as CANN does a null one — INVALID_PARAM, nullptr,
// 0 — and records a message naming the call and saying `why`.
void ExpectRefused(aclDataBuffer* buffer, const std::string& why) {
  TakeMessages();
  auto names = [&why](const char* call) {
    return AllOf(HasSubstr(std::string(call) + ": dataBuffer"), HasSubstr(why));
  };
  int host = 0;
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), names("aclDestroyDataBuffer"));
  EXPECT_EQ(aclUpdateDataBuffer(buffer, &host, sizeof host), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), names("aclUpdateDataBuffer"));
  EXPECT_EQ(aclGetDataBufferAddr(buffer), nullptr);
  EXPECT_THAT(TakeMessages(), names("aclGetDataBufferAddr"));
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 0u);
  EXPECT_THAT(TakeMessages(), names("aclGetDataBufferSizeV2"));
}

TEST(DataBuffer, NullBufferGetsInvalidParamNullAndZero) { ExpectRefused(nullptr, "is null"); }

// A destroyed buffer (and anything aclCreateDataBuffer did not return) is
// refused like a null one, without being read or freed again.
TEST(DataBuffer, DestroyedOrForeignBufferIsRefusedWithoutBeingTouched) {
  int host = 0;
  aclDataBuffer* buffer = aclCreateDataBuffer(&host, sizeof host);
  ASSERT_NE(buffer, nullptr);
  ASSERT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  ExpectRefused(buffer, "is not a live data buffer");
  alignas(16) unsigned char foreign_bytes[64] = {};
  ExpectRefused(reinterpret_cast<aclDataBuffer*>(foreign_bytes), "is not a live data buffer");
  for (unsigned char byte : foreign_bytes) EXPECT_EQ(byte, 0);
}

// Buffers made, read, updated and destroyed on several threads at once are
// each seen whole by their own thread, and none is left behind.
TEST(DataBuffer, ThreadsCreateAndDestroyConcurrently) {
  const int64_t live = aclcpuLiveObjectCount("data_buffers");
  constexpr int kThreads = 4;
  constexpr int kRounds = 2000;
  std::vector<std::thread> threads;
  std::vector<int> mismatches(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &mismatches] {
      char memory[65];  // sizes up to 64, from memory + 1
      for (int i = 0; i < kRounds; ++i) {
        const size_t size = static_cast<size_t>(i % 64);
        aclDataBuffer* buffer = aclCreateDataBuffer(memory, size);
        if (buffer == nullptr) {
          ++mismatches[t];
          continue;
        }
        if (aclGetDataBufferAddr(buffer) != memory || aclGetDataBufferSizeV2(buffer) != size) ++mismatches[t];
        if (aclUpdateDataBuffer(buffer, memory + 1, size + 1) != ACL_SUCCESS ||
            aclGetDataBufferAddr(buffer) != memory + 1 || aclGetDataBufferSizeV2(buffer) != size + 1) {
          ++mismatches[t];
        }
        if (aclDestroyDataBuffer(buffer) != ACL_SUCCESS) ++mismatches[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
  EXPECT_EQ(aclcpuLiveObjectCount("data_buffers"), live);
}

}  // namespace
}  // namespace aclcpu_test
