// Strict mode, device memory and bounds: device addresses cannot be
// dereferenced by the host (it faults, as on an NPU) while copies, fills and
// the operator work; host memory passed as device memory, and views or copies
// reaching past an allocation, are reported at the faulty call.
#include <csignal>
#include <cstdlib>

#include "strict_test_util.h"

namespace aclcpu_strict_test {
namespace {

// ---- Device memory is not host memory: the host dereference itself ---------

// Runs in a death-test child: makes device memory holding 0x5A and reads (or
// writes) one byte of it through the device pointer on the host. Exits 0 if the
// access worked and saw the data; strict mode kills the process with SIGSEGV
// at the access instead.
// The default action for SIGSEGV, so that the process dies of the signal even
// under a sanitizer that would otherwise catch it and exit with a report.
void DieOnSegv() { std::signal(SIGSEGV, SIG_DFL); }

[[noreturn]] void TouchDeviceMemoryFromHost(const char* strict, bool write) {
  DieOnSegv();
  setenv("ACLCPU_STRICT", strict, 1);  // before the runtime's first (and only) read of it
  aclrtSetDevice(0);
  void* device = nullptr;
  if (aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::_Exit(2);
  if (aclrtMemset(device, 64, 0x5A, 64) != ACL_SUCCESS) std::_Exit(3);
  volatile unsigned char* bytes = static_cast<volatile unsigned char*>(device);
  if (write) {
    bytes[1] = 0x11;
    std::_Exit(0);
  }
  std::_Exit(bytes[0] == 0x5A ? 0 : 4);
}

// Same, through a pointer aclrtFree already released.
[[noreturn]] void ReadFreedDeviceMemoryFromHost() {
  DieOnSegv();
  setenv("ACLCPU_STRICT", "1", 1);
  aclrtSetDevice(0);
  void* device = nullptr;
  if (aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::_Exit(2);
  if (aclrtFree(device) != ACL_SUCCESS) std::_Exit(3);
  std::_Exit(static_cast<volatile unsigned char*>(device)[0] == 0x7F ? 5 : 6);
}

// The child re-runs the test binary for just this test ("threadsafe"), so it
// starts with a runtime that has not read ACLCPU_STRICT yet.
class DeviceMemoryDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(DeviceMemoryDeathTest, HostReadThroughDevicePointerDiesWithSigsegvInStrictMode) {
  EXPECT_EXIT(TouchDeviceMemoryFromHost("1", /*write=*/false), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST_F(DeviceMemoryDeathTest, HostWriteThroughDevicePointerDiesWithSigsegvInStrictMode) {
  EXPECT_EXIT(TouchDeviceMemoryFromHost("1", /*write=*/true), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST_F(DeviceMemoryDeathTest, HostReadThroughDevicePointerWorksOutsideStrictMode) {
  EXPECT_EXIT(TouchDeviceMemoryFromHost("0", /*write=*/false), ::testing::ExitedWithCode(0), "");
}

TEST_F(DeviceMemoryDeathTest, HostReadThroughFreedDevicePointerDiesWithSigsegvInStrictMode) {
  EXPECT_EXIT(ReadFreedDeviceMemoryFromHost(), ::testing::KilledBySignal(SIGSEGV), "");
}

// ---- ... while the runtime's own accesses work ------------------------------

using DeviceMemory = StrictTest;

TEST_F(DeviceMemory, CopiesFillsAndTheOperatorWork) {
  FloatOperands operands(1000);
  ASSERT_EQ(aclcpu_test::RunHardsigmoidBackward(operands.grad.get(), operands.self.get(), operands.out.get(), stream_),
            ACLNN_SUCCESS)
      << TakeMessages();
  EXPECT_EQ(operands.out.DownloadElements<float>(), FloatOperands::Expected(1000));

  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(aclrtMalloc(&a, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  std::vector<unsigned char> host(256, 0);
  ASSERT_EQ(aclrtMemset(a, 256, 0x42, 256), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(b, 256, a, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(host.data(), 256, b, 256, ACL_MEMCPY_DEVICE_TO_HOST, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(host, std::vector<unsigned char>(256, 0x42));
  EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
  EXPECT_EQ(TakeMessages(), "");
}

// ---- Host memory where device memory is expected ----------------------------

TEST_F(DeviceMemory, HostPointerAsTensorDataIsRejectedInPhase1) {
  FloatOperands operands;
  std::vector<float> host(64, 1.0f);
  const int64_t dims[1] = {64};
  aclTensor* self = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, host.data());
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(Phase1(operands.grad.get(), self, operands.out.get(), &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(executor, nullptr);
  EXPECT_THAT(message_, AllOf(HasSubstr("EZ1001"), HasSubstr("aclnnHardsigmoidBackwardGetWorkspaceSize: self's data "
                                                             "address " + Hex(host.data())),
                              HasSubstr("is not device memory"), HasSubstr("host pointer cannot be used")));
  aclDestroyTensor(self);
}

TEST_F(DeviceMemory, HostPointerAsDeviceSideOfCopyOrFillIsRejected) {
  std::vector<unsigned char> host_a(64, 1), host_b(64, 2);
  EXPECT_EQ(aclrtMemcpy(host_a.data(), 64, host_b.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("EE1001"), HasSubstr("aclrtMemcpy: dst " + Hex(host_a.data())),
                                    HasSubstr("is not device memory")));
  EXPECT_EQ(aclrtMemcpy(host_a.data(), 64, host_b.data(), 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpy: src " + Hex(host_b.data()) + " is not device memory"));
  EXPECT_EQ(aclrtMemcpyAsync(host_a.data(), 64, host_b.data(), 64, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpyAsync: dst " + Hex(host_a.data()) + " is not device memory"));
  EXPECT_EQ(aclrtMemset(host_a.data(), 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemset: devPtr " + Hex(host_a.data()) + " is not device memory"));
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(host_a, std::vector<unsigned char>(64, 1));  // nothing was written
}

TEST_F(DeviceMemory, DevicePointerAsHostSideOfCopyIsRejected) {
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* other = nullptr;
  ASSERT_EQ(aclrtMalloc(&other, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  // The kind says src is host memory; reading it on the host would fault.
  EXPECT_EQ(aclrtMemcpy(device, 64, other, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclrtMemcpy: src " + Hex(other) + " is device memory"),
                                    HasSubstr("kind 1 says it is host memory")));
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(other), ACL_SUCCESS);
}

// ---- Bounds -----------------------------------------------------------------

using Bounds = StrictTest;

TEST_F(Bounds, ViewReachingPastItsAllocationIsRejectedInPhase1) {
  FloatOperands operands(100);
  void* small = nullptr;  // 64 bytes asked: 96 usable (rounded to 32, plus 32), far short of 100 floats
  ASSERT_EQ(aclrtMalloc(&small, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t dims[1] = {100};
  aclTensor* out = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, small);
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(Phase1(operands.grad.get(), operands.self.get(), out, &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(message_, AllOf(HasSubstr("aclnnHardsigmoidBackwardGetWorkspaceSize: out's view (shape [100], strides "
                                        "[1], offset 0, dtype DT_FLOAT) reaches byte 400 of device allocation " +
                                        Hex(small) + ", which has only 96 bytes"),
                              HasSubstr("out of bounds")));
  aclDestroyTensor(out);
  EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
}

TEST_F(Bounds, OffsetOrStridesPushingAViewPastItsAllocationAreRejected) {
  FloatOperands operands(8);  // each 8 floats: 32 bytes asked, 64 usable
  const int64_t dims[1] = {8};
  const int64_t storage[1] = {64};
  // In its storage shape, but 40 floats past the data address of a 64-byte allocation.
  aclTensor* offset_self = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 32, ACL_FORMAT_ND, storage, 1,
                                           operands.self.device());
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(Phase1(operands.grad.get(), offset_self, operands.out.get(), &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(message_, AllOf(HasSubstr("self's view (shape [8], strides [1], offset 32, dtype DT_FLOAT) reaches "
                                        "byte 160"),
                              HasSubstr("out of bounds")));
  const int64_t strides[1] = {8};
  aclTensor* strided_grad = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1,
                                            operands.grad.device());
  EXPECT_EQ(Phase1(strided_grad, operands.self.get(), operands.out.get(), &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(message_, HasSubstr("gradOutput's view (shape [8], strides [8], offset 0, dtype DT_FLOAT) reaches "
                                  "byte 228"));
  aclDestroyTensor(offset_self);
  aclDestroyTensor(strided_grad);
}

TEST_F(Bounds, CopiesAndFillsPastAnAllocationAreParamInvalid) {
  void* device = nullptr;  // 100 bytes asked: 160 usable
  ASSERT_EQ(aclrtMalloc(&device, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<unsigned char> host(4096, 9);
  ASSERT_EQ(aclrtMemcpy(device, 4096, host.data(), 160, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);  // exactly fits
  EXPECT_EQ(aclrtMemcpy(device, 4096, host.data(), 161, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclrtMemcpy: dst range [" + Hex(device) + ", +161 bytes) reaches "
                                              "byte 161 of device allocation " + Hex(device) +
                                              ", which has only 160 bytes"),
                                    HasSubstr("out of bounds")));
  char* inside = static_cast<char*>(device) + 128;
  EXPECT_EQ(aclrtMemcpy(host.data(), 4096, inside, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpy: src range [" + Hex(inside) + ", +64 bytes) reaches byte 192"));
  EXPECT_EQ(aclrtMemset(device, 4096, 0, 200), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemset: devPtr range"));
  EXPECT_EQ(aclrtMemsetAsync(inside, 4096, 0, 33, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemsetAsync: devPtr range"));
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(Bounds, RebindingAnExecutorToASmallerAllocationIsRejectedInPhase2) {
  FloatOperands operands(100);
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  void* small = nullptr;
  ASSERT_EQ(aclrtMalloc(&small, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(executor, 1, operands.self.get(), small), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclnnHardsigmoidBackward: self: device address range [" + Hex(small) +
                                              ", +400 bytes)"),
                                    HasSubstr("out of bounds")));
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
}

// ---- Every report also goes to stderr ---------------------------------------

TEST_F(DeviceMemory, ReportsGoToStderrAsWellAsToAclGetRecentErrMsg) {
  int on_stack = 0;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(aclrtFree(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  const std::string recorded = TakeMessages();
  EXPECT_THAT(recorded, HasSubstr("aclrtFree: devPtr " + Hex(&on_stack) + " was not returned by aclrtMalloc"));
  EXPECT_EQ(printed, "aclcpu: " + recorded + "\n");
}

}  // namespace
}  // namespace aclcpu_strict_test
