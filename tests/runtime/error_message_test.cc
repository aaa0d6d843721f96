// aclGetRecentErrMsg and the per-thread last runtime error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Two failing calls whose messages are easy to tell apart.
void FailTwice() {
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocHost(nullptr, 8), ACL_ERROR_INVALID_PARAM);
}

TEST(RecentErrMsg, NullptrWhenNothingRecorded) {
  TakeMessages();
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(RecentErrMsg, NewestFirstJoinedByNewline) {
  TakeMessages();
  FailTwice();
  const std::string messages = TakeMessages();
  const size_t newline = messages.find('\n');
  ASSERT_NE(newline, std::string::npos) << messages;
  EXPECT_THAT(messages.substr(0, newline), HasSubstr("aclrtMallocHost: hostPtr is null"));
  EXPECT_THAT(messages.substr(newline + 1), HasSubstr("aclrtFree: devPtr is null"));
}

TEST(RecentErrMsg, CarriesCannErrorClass) {
  TakeMessages();
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), StartsWith("EE1001"));
}

TEST(RecentErrMsg, ClearedByReading) {
  TakeMessages();
  FailTwice();
  ASSERT_NE(aclGetRecentErrMsg(), nullptr);
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

TEST(RecentErrMsg, PointerStaysValidUntilNextCall) {
  TakeMessages();
  FailTwice();
  const char* first = aclGetRecentErrMsg();
  ASSERT_NE(first, nullptr);
  const std::string copy = first;
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);  // a new message does not disturb the text
  EXPECT_EQ(std::string(first), copy);
}

TEST(RecentErrMsg, IsPerThread) {
  TakeMessages();
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  std::string other_thread_saw = "unset";
  std::thread other([&] {
    const char* text = aclGetRecentErrMsg();
    other_thread_saw = text == nullptr ? "" : text;
    EXPECT_EQ(aclrtMallocHost(nullptr, 8), ACL_ERROR_INVALID_PARAM);  // stays on the other thread
  });
  other.join();
  EXPECT_EQ(other_thread_saw, "");
  const std::string mine = TakeMessages();
  EXPECT_THAT(mine, HasSubstr("aclrtFree"));
  EXPECT_THAT(mine, ::testing::Not(HasSubstr("aclrtMallocHost")));
}

TEST(RecentErrMsg, RecordErrorServiceAppendsMessage) {
  TakeMessages();
  Services().record_error("EZ1001: from another library");
  EXPECT_EQ(TakeMessages(), "EZ1001: from another library");
}

// Verbose() is read once per process: the flag is tried in a fresh child
// process (the "threadsafe" death-test style re-executes the binary).
TEST(RecentErrMsg, VerbosePrintsEachMessageOnStderr) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("ACLCPU_VERBOSE", "1", 1);
  EXPECT_EXIT(
      {
        aclrtFree(nullptr);
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "aclcpu: EE1001: .*aclrtFree: devPtr is null");
  unsetenv("ACLCPU_VERBOSE");
}

TEST(LastError, PeekKeepsAndGetClears) {
  aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(reinterpret_cast<void*>(0x40)), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  TakeMessages();
}

TEST(LastError, SuccessDoesNotClearIt) {
  aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  TakeMessages();
}

TEST(LastError, IsPerThread) {
  aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  aclError seen_by_other = -1;
  std::thread other([&] { seen_by_other = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL); });
  other.join();
  EXPECT_EQ(seen_by_other, ACL_SUCCESS);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
  TakeMessages();
}

TEST(LastError, UnknownLevelIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtPeekAtLastError(static_cast<aclrtLastErrLevel>(7)), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtPeekAtLastError: level (7)"));
  EXPECT_EQ(aclrtGetLastError(static_cast<aclrtLastErrLevel>(7)), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetLastError: level (7)"));
}

}  // namespace
}  // namespace aclcpu_test
