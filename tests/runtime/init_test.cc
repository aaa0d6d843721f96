// aclInit / aclFinalize, version, SoC name and the acl_base.h helpers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

// Leaves the process uninitialised whatever state a previous test left.
void EnsureFinalized() {
  aclFinalize();
  TakeMessages();
}

TEST(Init, NullConfigPathSucceeds) {
  EnsureFinalized();
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, EmptyConfigPathMeansNoConfig) {
  EnsureFinalized();
  EXPECT_EQ(aclInit(""), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, ReadableConfigFileSucceeds) {
  EnsureFinalized();
  char path[] = "/tmp/aclcpu_init_config_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "{}", 2), 2);
  close(fd);
  EXPECT_EQ(aclInit(path), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  std::remove(path);
}

TEST(Init, MissingConfigFileIsInvalidFile) {
  EnsureFinalized();
  EXPECT_EQ(aclInit("/nonexistent/aclcpu/acl.json"), ACL_ERROR_INVALID_FILE);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclInit: configPath \"/nonexistent/aclcpu/acl.json\""));
  // A failed init leaves the process uninitialised.
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(Init, DirectoryAsConfigIsInvalidFile) {
  EnsureFinalized();
  EXPECT_EQ(aclInit("/tmp"), ACL_ERROR_INVALID_FILE);
  EXPECT_THAT(TakeMessages(), HasSubstr("configPath"));
}

TEST(Init, RepeatIsRepeatInitialize) {
  EnsureFinalized();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclInit: already initialized"));
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, WithoutInitIsRepeatFinalize) {
  EnsureFinalized();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclFinalize: not initialized"));
}

TEST(Finalize, TwiceIsRepeatFinalize) {
  EnsureFinalized();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(Init, AgainAfterFinalizeSucceeds) {
  EnsureFinalized();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Init, RuntimeCallsWorkWithoutInit) {
  EnsureFinalized();
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* memory = nullptr;
  EXPECT_EQ(aclrtMalloc(&memory, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(Version, ReportsHeaderVersion) {
  int32_t major = -1, minor = -1, patch = -1;
  ASSERT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
  EXPECT_EQ(major, ACL_MAJOR_VERSION);
  EXPECT_EQ(minor, ACL_MINOR_VERSION);
  EXPECT_EQ(patch, ACL_PATCH_VERSION);
}

TEST(Version, NullArgumentsAreInvalidParam) {
  int32_t value = 0;
  TakeMessages();
  EXPECT_EQ(aclrtGetVersion(nullptr, &value, &value), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtGetVersion: majorVersion is null"));
  EXPECT_EQ(aclrtGetVersion(&value, nullptr, &value), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("minorVersion is null"));
  EXPECT_EQ(aclrtGetVersion(&value, &value, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("patchVersion is null"));
}

TEST(SocName, IsTheConfiguredSoc) {
  const char* requested = std::getenv("ACLCPU_SOC");
  const std::string expected = requested != nullptr && requested[0] != '\0' ? requested : "Ascend910B2";
  const char* name = aclrtGetSocName();
  ASSERT_NE(name, nullptr) << TakeMessages();
  EXPECT_EQ(std::string(name), expected);
}

// CurrentSoc() is read once per process, so the unknown name is tried in a
// fresh child process (the "threadsafe" death-test style re-executes the binary).
TEST(SocName, UnknownSocIsNullWithMessageListingKnownNames) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("ACLCPU_SOC", "Ascend999", 1);
  EXPECT_EXIT(
      {
        const char* name = aclrtGetSocName();
        const std::string messages = TakeMessages();
        const bool ok = name == nullptr && messages.find("aclrtGetSocName") != std::string::npos &&
                        messages.find("Ascend910B2") != std::string::npos;
        std::_Exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  unsetenv("ACLCPU_SOC");
}

TEST(DataTypeSize, MatchesElementSizes) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
}

TEST(Float16, ConvertsBothWays) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.0f), 0xC000);
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isinf(aclFloat16ToFloat(aclFloatToFloat16(1e6f))));
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(aclFloatToFloat16(NAN))));
}

}  // namespace
}  // namespace aclcpu_test
