// ACLCPU_FAULT_INJECT=<site>:<n>, read when libascendcl.so is loaded: CTest
// runs this with ACLCPU_FAULT_INJECT=DeviceAllocate:2 (tests/fault/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "fault_sequence.h"

namespace {

TEST(FaultInjectionEnvironment, ArmsTheNthPassOfTheNamedSite) {
  ASSERT_STREQ(std::getenv("ACLCPU_FAULT_INJECT"), "DeviceAllocate:2");
  void* first = nullptr;
  void* second = nullptr;
  void* third = nullptr;
  EXPECT_EQ(aclrtMalloc(&first, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclcpuFaultInjectionFired(), 0);
  EXPECT_EQ(aclrtMalloc(&second, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(second, nullptr);
  EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("aclrtMalloc"), std::string::npos) << message;
  EXPECT_EQ(aclrtMalloc(&third, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // fired once, then disarmed
  EXPECT_EQ(aclcpuLiveObjectCount("device_memory"), 2);
  aclrtFree(first);
  aclrtFree(third);
}

}  // namespace
