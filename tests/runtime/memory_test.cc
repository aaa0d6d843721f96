// Device and host memory: alignment, sizes, policies, registries, memory info.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "c_enum_calls.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

bool IsAligned(const void* address, uintptr_t alignment) {
  return reinterpret_cast<uintptr_t>(address) % alignment == 0;
}

// Fills the first `size` bytes of device memory with `value` and reads the last
// one back, through the runtime: device memory is not host-accessible (strict
// mode maps it without access, as an NPU's is).
unsigned char FillAndReadLastByte(void* device, size_t size, unsigned char value) {
  EXPECT_EQ(aclrtMemset(device, size, value, size), ACL_SUCCESS);
  unsigned char last = 0;
  EXPECT_EQ(aclrtMemcpy(&last, 1, static_cast<char*>(device) + size - 1, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return last;
}

constexpr aclrtMemMallocPolicy kBasePolicies[] = {
    ACL_MEM_MALLOC_HUGE_FIRST,     ACL_MEM_MALLOC_HUGE_ONLY,       ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P,   ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
    ACL_MEM_MALLOC_HUGE1G_ONLY,    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
};

TEST(Malloc, Is64ByteAlignedAndUsableForItsSize) {
  for (size_t size : {1u, 31u, 32u, 33u, 64u, 1000u, 4096u, 65537u}) {
    void* memory = nullptr;
    ASSERT_EQ(aclrtMalloc(&memory, size, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS) << size;
    EXPECT_TRUE(IsAligned(memory, 64)) << size;
    EXPECT_EQ(FillAndReadLastByte(memory, size, 0xAB), 0xAB) << size;  // every byte asked for is usable
    EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  }
}

TEST(Malloc, NullDevPtrIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMalloc: devPtr is null"));
}

TEST(Malloc, ZeroSizeIsInvalidParam) {
  TakeMessages();
  void* memory = nullptr;
  EXPECT_EQ(aclrtMalloc(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMalloc: size is 0"));
}

TEST(Malloc, AcceptsEveryDocumentedPolicy) {
  for (aclrtMemMallocPolicy base : kBasePolicies) {
    for (uint32_t modifier : {0u, static_cast<uint32_t>(ACL_MEM_TYPE_LOW_BAND_WIDTH),
                              static_cast<uint32_t>(ACL_MEM_TYPE_HIGH_BAND_WIDTH),
                              static_cast<uint32_t>(ACL_MEM_ACCESS_USER_SPACE_READONLY)}) {
      const auto policy = static_cast<aclrtMemMallocPolicy>(base | modifier);
      void* memory = nullptr;
      ASSERT_EQ(aclrtMalloc(&memory, 100, policy), ACL_SUCCESS) << "policy 0x" << std::hex << policy;
      EXPECT_TRUE(IsAligned(memory, 64));
      EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
    }
  }
}

TEST(Malloc, RejectsUndocumentedPolicyBits) {
  TakeMessages();
  for (uint32_t bad : {8u, 0x200u, 0x80000000u, 0x100u | 9u}) {
    void* memory = nullptr;
    EXPECT_EQ(aclrtMalloc(&memory, 64, static_cast<aclrtMemMallocPolicy>(bad)), ACL_ERROR_INVALID_PARAM) << bad;
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMalloc: policy"));
  }
}

TEST(Malloc, HugePolicyOfTwoMiBIsHugePageAligned) {
  for (aclrtMemMallocPolicy policy : {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY,
                                      ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P}) {
    void* memory = nullptr;
    const size_t size = (size_t{4} << 20) + 100;
    ASSERT_EQ(aclrtMalloc(&memory, size, policy), ACL_SUCCESS);
    EXPECT_TRUE(IsAligned(memory, size_t{2} << 20));
    EXPECT_EQ(FillAndReadLastByte(memory, size, 1), 1);
    EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  }
}

TEST(Malloc, HugeSizeIsMemoryAllocationError) {
  TakeMessages();
  void* memory = nullptr;
  EXPECT_EQ(aclrtMalloc(&memory, SIZE_MAX - 8, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMalloc: size"));
}

TEST(MallocAlign32, IsAlignedAndChecksArguments) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMallocAlign32(&memory, 33, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_TRUE(IsAligned(memory, 64));
  EXPECT_EQ(FillAndReadLastByte(memory, 33, 0x5C), 0x5C);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  TakeMessages();
  EXPECT_EQ(aclrtMallocAlign32(&memory, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMallocAlign32: size is 0"));
  EXPECT_EQ(aclrtMallocAlign32(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMallocAlign32: devPtr is null"));
}

TEST(MallocCached, IsAlignedAndChecksArguments) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMallocCached(&memory, 100, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_TRUE(IsAligned(memory, 64));
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  TakeMessages();
  EXPECT_EQ(aclrtMallocCached(&memory, 0, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMallocCached: size is 0"));
}

TEST(Free, NullIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtFree: devPtr is null"));
}

TEST(Free, UnknownPointerIsParamInvalid) {
  TakeMessages();
  int on_stack = 0;
  EXPECT_EQ(aclrtFree(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtFree: devPtr"));
}

TEST(Free, InteriorPointerIsParamInvalid) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 256, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(static_cast<char*>(memory) + 64), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  TakeMessages();
}

TEST(Free, DoubleFreeIsParamInvalid) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(memory), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("already freed"));
}

// Freeing memory that queued work still uses never crashes the process in
// default mode: the release waits until the work queued before it has run
// (strict mode reports the free instead: tests/strict).
using FreeWithQueuedWork = DeviceTest;

// Queues a task that waits for a gate, then writes `bytes` of `memory`; calls
// `release` on another thread and checks that it returns only after the task ran.
void ExpectReleaseWaitsForQueuedWriter(void* memory, size_t bytes, const std::function<aclError()>& release) {
  Gate gate;
  std::atomic<bool> task_done{false};
  ASSERT_EQ(Launch(nullptr, [&] {
              gate.Wait();
              std::memset(memory, 0x5a, bytes);  // default mode: device memory is host memory
              task_done = true;
            }),
            ACL_SUCCESS);
  std::atomic<bool> released{false};
  std::thread releasing([&] {
    EXPECT_EQ(release(), ACL_SUCCESS);
    released = true;
  });
  // Generous wait for a "still blocked" check: the release must not overtake the task.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(released);
  gate.Open();
  releasing.join();
  EXPECT_TRUE(task_done);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

TEST_F(FreeWithQueuedWork, FreeWaitsForQueuedWorkThatUsesTheMemory) {
  if (StrictMode()) GTEST_SKIP() << "strict mode refuses the free (tests/strict)";
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  ExpectReleaseWaitsForQueuedWriter(device, 4096, [&] { return aclrtFree(device); });
}

TEST_F(FreeWithQueuedWork, FreeHostWaitsForQueuedWorkThatUsesTheMemory) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  ExpectReleaseWaitsForQueuedWriter(host, 4096, [&] { return aclrtFreeHost(host); });
}

TEST_F(FreeWithQueuedWork, FreeOfUnknownPointerDoesNotWait) {
  Gate gate;
  ASSERT_EQ(Launch(nullptr, [&] { gate.Wait(); }), ACL_SUCCESS);
  int not_device_memory = 0;
  EXPECT_NE(aclrtFree(&not_device_memory), ACL_SUCCESS);  // returns while the stream is blocked
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

TEST(MallocHost, Is64ByteAlignedAndFreeable) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMallocHost(&memory, 100), ACL_SUCCESS);
  EXPECT_TRUE(IsAligned(memory, 64));
  std::memset(memory, 7, 100);
  EXPECT_EQ(aclrtFreeHost(memory), ACL_SUCCESS);
}

TEST(MallocHost, BadArgumentsAreInvalidParam) {
  TakeMessages();
  void* memory = nullptr;
  EXPECT_EQ(aclrtMallocHost(nullptr, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMallocHost: hostPtr is null"));
  EXPECT_EQ(aclrtMallocHost(&memory, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMallocHost: size is 0"));
}

TEST(FreeHost, NullOrUnknownPointerIsRejected) {
  TakeMessages();
  EXPECT_EQ(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtFreeHost: hostPtr is null"));
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(device), ACL_ERROR_RT_PARAM_INVALID);  // device memory is not host memory
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtFreeHost: hostPtr"));
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

// Every aclrtMemAttr value CANN's headers define, the ones newer headers added
// (1 GiB pages, and the kinds without DDR/HBM) included: a program built
// against them gets the machine's memory for each.
TEST(MemInfo, AcceptsEveryAttributeNewerHeadersDefine) {
  for (aclrtMemAttr attr :
       {ACL_DDR_MEM, ACL_HBM_MEM, ACL_DDR_MEM_HUGE, ACL_DDR_MEM_NORMAL, ACL_HBM_MEM_HUGE, ACL_HBM_MEM_NORMAL,
        ACL_DDR_MEM_P2P_HUGE, ACL_DDR_MEM_P2P_NORMAL, ACL_HBM_MEM_P2P_HUGE, ACL_HBM_MEM_P2P_NORMAL, ACL_HBM_MEM_HUGE1G,
        ACL_HBM_MEM_P2P_HUGE1G, ACL_MEM_NORMAL, ACL_MEM_HUGE, ACL_MEM_HUGE1G, ACL_MEM_P2P_NORMAL, ACL_MEM_P2P_HUGE,
        ACL_MEM_P2P_HUGE1G}) {
    size_t free_bytes = 0, total_bytes = 0;
    ASSERT_EQ(aclrtGetMemInfo(attr, &free_bytes, &total_bytes), ACL_SUCCESS) << attr;
    EXPECT_GT(total_bytes, size_t{64} << 20);
    EXPECT_GT(free_bytes, 0u);
    EXPECT_LE(free_bytes, total_bytes);
  }
}

// Values CANN does not define, passed from C as a program may: refused, with
// the value in the message, and nothing written.
TEST(MemInfo, RefusesValuesCannDoesNotDefineNamingThem) {
  TakeMessages();
  for (int attr : {18, 1000, -1, INT32_MIN}) {
    size_t free_bytes = 7, total_bytes = 7;
    EXPECT_EQ(CGetMemInfo(attr, &free_bytes, &total_bytes), ACL_ERROR_INVALID_PARAM) << attr;
    EXPECT_THAT(TakeMessages(),
                HasSubstr("aclrtGetMemInfo: attr (" + std::to_string(attr) + ") is not an aclrtMemAttr"));
    EXPECT_EQ(free_bytes, 7u);
    EXPECT_EQ(total_bytes, 7u);
  }
  size_t free_bytes = 0, total_bytes = 0;
  EXPECT_EQ(CGetMemInfo(ACL_MEM_P2P_HUGE1G, &free_bytes, &total_bytes), ACL_SUCCESS);
}

TEST(MemInfo, NullOutputsAreInvalidParam) {
  TakeMessages();
  size_t free_bytes = 0, total_bytes = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total_bytes), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetMemInfo: free is null"));
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetMemInfo: total is null"));
}

}  // namespace
}  // namespace aclcpu_test
