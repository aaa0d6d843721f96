// ACLCPU_NUM_THREADS, read once per process: CTest runs this binary with the
// variable set to each value in tests/unit/CMakeLists.txt, and each test here
// checks what that value must give — a value that is not a positive integer
// is named in one line on stderr and every core is used.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

#include "parallel/thread_pool.h"

namespace aclcpu {
namespace {

using ::testing::HasSubstr;

int EveryCore() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

TEST(ThreadCountEnvironment, NotAPositiveIntegerIsNamedOnStderrAndTheDefaultIsUsed) {
  const char* value = std::getenv("ACLCPU_NUM_THREADS");
  ASSERT_NE(value, nullptr) << "run by CTest with ACLCPU_NUM_THREADS set";
  testing::internal::CaptureStderr();
  const int threads = ThreadPool::ConfiguredThreads();
  const int again = ThreadPool::ConfiguredThreads();
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(threads, EveryCore());
  EXPECT_EQ(again, threads);
  EXPECT_THAT(printed, HasSubstr("ACLCPU_NUM_THREADS=" + std::string(value) + ": not a positive integer"));
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 1) << printed;
  EXPECT_EQ(printed.back(), '\n');
}

TEST(ThreadCountEnvironment, PositiveIntegerIsUsedWithoutAWord) {
  const char* value = std::getenv("ACLCPU_NUM_THREADS");
  ASSERT_NE(value, nullptr) << "run by CTest with ACLCPU_NUM_THREADS set";
  testing::internal::CaptureStderr();
  const int threads = ThreadPool::ConfiguredThreads();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(threads, std::min(std::atoi(value), 256));
}

}  // namespace
}  // namespace aclcpu
