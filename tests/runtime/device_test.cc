// Devices: ids, reference counting, primary contexts, device-wide sync.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

int32_t Count() {
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  return static_cast<int32_t>(count);
}

// Runs `body` on a fresh thread, which starts with no current context.
template <typename Body>
void OnFreshThread(Body body) {
  std::thread thread(body);
  thread.join();
}

TEST(Device, CountComesFromEnvironment) {
  // runtime_tests sets ACLCPU_DEVICE_COUNT=2 unless the environment already does.
  const char* configured = std::getenv("ACLCPU_DEVICE_COUNT");
  ASSERT_NE(configured, nullptr);
  EXPECT_EQ(Count(), std::atoi(configured));
}

// The count is read once per process: out-of-range values are tried in fresh
// child processes (the "threadsafe" death-test style re-executes the binary).
TEST(Device, CountOutsideOneToSixtyFourFallsBackToOne) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string saved = std::getenv("ACLCPU_DEVICE_COUNT");
  for (const char* bad : {"0", "65", "two"}) {
    setenv("ACLCPU_DEVICE_COUNT", bad, 1);
    EXPECT_EXIT(std::_Exit(Count() == 1 ? 0 : 1), ::testing::ExitedWithCode(0), "ACLCPU_DEVICE_COUNT") << bad;
  }
  setenv("ACLCPU_DEVICE_COUNT", "64", 1);
  EXPECT_EXIT(std::_Exit(Count() == 64 && aclrtSetDevice(63) == ACL_SUCCESS ? 0 : 1), ::testing::ExitedWithCode(0), "");
  setenv("ACLCPU_DEVICE_COUNT", saved.c_str(), 1);
}

TEST(Device, GetDeviceCountNullIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetDeviceCount: count is null"));
}

TEST(Device, SetInvalidIdIsInvalidDeviceId) {
  TakeMessages();
  EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSetDevice: deviceId (-1)"));
  EXPECT_EQ(aclrtSetDevice(Count()), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(TakeMessages(), HasSubstr("deviceId"));
}

TEST(Device, ResetInvalidIdIsInvalidDeviceId) {
  TakeMessages();
  EXPECT_EQ(aclrtResetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtResetDevice: deviceId (-1)"));
  EXPECT_EQ(aclrtResetDevice(Count()), ACL_ERROR_RT_INVALID_DEVICEID);
}

TEST(Device, ResetOfUnsetDeviceIsNoOpSuccess) {
  OnFreshThread([] { EXPECT_EQ(aclrtResetDevice(Count() - 1), ACL_SUCCESS); });
}

TEST(Device, GetDeviceWithoutContextIsContextNull) {
  OnFreshThread([] {
    TakeMessages();
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetDevice"));
  });
}

TEST(Device, GetDeviceNullIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetDevice: deviceId is null"));
}

TEST(Device, SetDeviceMakesItCurrent) {
  OnFreshThread([] {
    const int32_t last = Count() - 1;
    ASSERT_EQ(aclrtSetDevice(last), ACL_SUCCESS);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, last);
    aclrtContext context = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    EXPECT_NE(context, nullptr);
    EXPECT_EQ(aclrtResetDevice(last), ACL_SUCCESS);
  });
}

TEST(Device, SetDeviceTwiceSharesOnePrimaryContext) {
  OnFreshThread([] {
    aclrtContext first = nullptr, second = nullptr;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&first), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&second), ACL_SUCCESS);
    EXPECT_EQ(first, second);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
}

TEST(Device, ResetIsReferenceCounted) {
  OnFreshThread([] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);

    // One reference left: the context and its streams live on.
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    aclrtContext context = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);

    // Last reference: the primary context and the stream created in it are gone.
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    TakeMessages();
    EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(TakeMessages(), HasSubstr("is not a live stream"));
  });
}

TEST(Device, ReferencesFromSeveralThreadsAddUp) {
  aclrtContext seen = nullptr;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  OnFreshThread([&] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&seen), ACL_SUCCESS);
  });
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // the other thread's reference keeps it
  aclrtContext still = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&still), ACL_SUCCESS);
  EXPECT_EQ(still, seen);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetCurrentContext(&still), ACL_ERROR_RT_CONTEXT_NULL);
  TakeMessages();
}

TEST(Device, ResetWaitsForQueuedWork) {
  if (StrictMode()) GTEST_SKIP() << "strict mode refuses a reset with queued work (tests/strict)";
  OnFreshThread([] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    Gate gate;
    std::atomic<bool> ran{false};
    ASSERT_EQ(Launch(nullptr, [&] {
                gate.Wait();
                ran = true;
              }),
              ACL_SUCCESS);
    std::thread opener([&] { gate.Open(); });
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_TRUE(ran);
    opener.join();
  });
}

TEST(Device, SynchronizeWaitsForEveryStream) {
  OnFreshThread([] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    Gate gate;
    std::atomic<int> done{0};
    ASSERT_EQ(Launch(nullptr, [&] {
                gate.Wait();
                ++done;
              }),
              ACL_SUCCESS);
    ASSERT_EQ(Launch(stream, [&] {
                gate.Wait();
                ++done;
              }),
              ACL_SUCCESS);
    EXPECT_EQ(done.load(), 0);
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    EXPECT_EQ(done.load(), 2);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
}

TEST(Device, SynchronizeWithoutContextIsContextNull) {
  OnFreshThread([] {
    TakeMessages();
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSynchronizeDevice"));
  });
}

TEST(RunMode, IsHost) {
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  TakeMessages();
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetRunMode: runMode is null"));
}

}  // namespace
}  // namespace aclcpu_test
