// Contexts: creation, current context per thread, destruction, handles.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

aclrtContext Current() {
  aclrtContext context = nullptr;
  return aclrtGetCurrentContext(&context) == ACL_SUCCESS ? context : nullptr;
}

TEST(Context, CreateMakesItCurrent) {
  std::thread([] {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    EXPECT_EQ(Current(), context);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 0);
    EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  }).join();
}

TEST(Context, CreateNullIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtCreateContext(nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateContext: context is null"));
}

TEST(Context, CreateOnInvalidDeviceIsInvalidDeviceId) {
  TakeMessages();
  aclrtContext context = nullptr;
  EXPECT_EQ(aclrtCreateContext(&context, -3), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateContext: deviceId (-3)"));
}

TEST(Context, CreateOnSecondDeviceReportsThatDevice) {
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  ASSERT_GE(count, 2u) << "runtime_tests runs with ACLCPU_DEVICE_COUNT=2";
  std::thread([] {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 1), ACL_SUCCESS);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 1);
    EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  }).join();
}

TEST(Context, GetCurrentWithoutContextIsContextNull) {
  std::thread([] {
    TakeMessages();
    aclrtContext context = nullptr;
    EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetCurrentContext"));
  }).join();
}

TEST(Context, GetCurrentNullIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetCurrentContext: context is null"));
}

TEST(Context, CurrentContextIsPerThread) {
  aclrtContext context = nullptr;
  std::thread([&] { ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS); }).join();
  std::thread([&] {
    EXPECT_EQ(Current(), nullptr);  // created elsewhere: not current here
    ASSERT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
    EXPECT_EQ(Current(), context);
  }).join();
  EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  TakeMessages();
}

TEST(Context, SetCurrentNullIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtSetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSetCurrentContext: context is null"));
}

TEST(Context, SetCurrentUnknownHandleIsParamInvalid) {
  TakeMessages();
  int not_a_context = 0;
  EXPECT_EQ(aclrtSetCurrentContext(&not_a_context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSetCurrentContext: context"));
}

TEST(Context, DestroyUnknownHandleIsParamInvalid) {
  TakeMessages();
  int not_a_context = 0;
  EXPECT_EQ(aclrtDestroyContext(&not_a_context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtDestroyContext: context"));
  EXPECT_EQ(aclrtDestroyContext(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtDestroyContext: context is null"));
}

TEST(Context, DestroyTwiceIsParamInvalid) {
  std::thread([] {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    TakeMessages();
    EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(TakeMessages(), HasSubstr("is not a live context"));
  }).join();
}

// Handles are never reused (runtime/handle_ids.h): a destroyed context's handle
// names no later context, and one from before aclrtResetDevice none after it.
TEST(Context, DestroyedHandleNamesNoLaterContext) {
  std::thread([] {
    aclrtContext first = nullptr;
    ASSERT_EQ(aclrtCreateContext(&first, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(first), ACL_SUCCESS);
    aclrtContext second = nullptr;
    ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
    EXPECT_NE(second, first);
    TakeMessages();
    EXPECT_EQ(aclrtSetCurrentContext(first), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(Current(), second);
    EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
  }).join();
}

TEST(Context, PrimaryHandleFromBeforeResetDeviceNamesNoContextAfter) {
  std::thread([] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    const aclrtContext before = Current();
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_NE(Current(), before);
    TakeMessages();
    EXPECT_EQ(aclrtSetCurrentContext(before), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }).join();
}

TEST(Context, DestroyPrimaryContextIsParamInvalid) {
  std::thread([] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtContext primary = Current();
    TakeMessages();
    EXPECT_EQ(aclrtDestroyContext(primary), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtResetDevice"));
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }).join();
}

TEST(Context, DestroyingTheCurrentContextLeavesNone) {
  std::thread([] {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    EXPECT_EQ(Current(), nullptr);
    TakeMessages();
  }).join();
}

TEST(Context, DestroyedOnAnotherThreadIsNoLongerCurrent) {
  std::thread([] {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    std::thread([&] { EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS); }).join();
    EXPECT_EQ(Current(), nullptr);
    TakeMessages();
  }).join();
}

TEST(Context, DestroyDestroysItsStreams) {
  std::thread([] {
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    TakeMessages();
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtDestroyStream: stream"));
  }).join();
}

TEST(Context, HasItsOwnDefaultStream) {
  std::thread([] {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* primary_default = nullptr;
    ASSERT_EQ(Services().resolve_stream(nullptr, &primary_default), ACL_SUCCESS);
    aclrtContext context = nullptr;
    ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
    void* own_default = nullptr;
    ASSERT_EQ(Services().resolve_stream(nullptr, &own_default), ACL_SUCCESS);
    EXPECT_NE(own_default, primary_default);
    EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }).join();
}

}  // namespace
}  // namespace aclcpu_test
