// aclInit / aclFinalize, version, SoC name and the acl_base.h helpers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <dirent.h>
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "runtime_test_support.h"

// Test control exported by libascendcl.so (runtime/live_objects.h).
extern "C" int64_t aclcpuLiveObjectCount(const char* kind);

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

// aclFinalize releases what the program left (runtime/release_all.h): devices
// still set, contexts, streams, events, device and pinned host memory.
TEST(Finalize, ReleasesEverythingTheProgramLeft) {
  EnsureFinalized();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  aclrtStream stream_in_context = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream_in_context), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 256), ACL_SUCCESS);

  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  for (const char* kind : {"streams", "events", "device_memory", "host_memory"}) {
    EXPECT_EQ(aclcpuLiveObjectCount(kind), 0) << kind;
  }
  // Every handle from before is refused, none reaches a later object.
  TakeMessages();
  EXPECT_EQ(aclrtSetCurrentContext(context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream_in_context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(aclrtFree(device), ACL_SUCCESS);
  EXPECT_NE(aclrtFreeHost(host), ACL_SUCCESS);
  aclrtContext current = nullptr;
  EXPECT_EQ(aclrtGetCurrentContext(&current), ACL_ERROR_RT_CONTEXT_NULL) << "the devices were reset";
  // The runtime is as at process start: a new cycle works.
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, WaitsForQueuedWorkBeforeReleasing) {
  EnsureFinalized();
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  std::atomic<bool> ran{false};
  ASSERT_EQ(Launch(nullptr, [&] {
              std::this_thread::sleep_for(std::chrono::milliseconds(50));
              ran = true;
            }),
            ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_TRUE(ran);
}

// Entries of a /proc/self directory: the process's threads or open files.
size_t CountEntries(const char* directory) {
  size_t count = 0;
  DIR* dir = opendir(directory);
  if (dir == nullptr) return 0;
  while (const dirent* entry = readdir(dir)) count += entry->d_name[0] != '.';
  closedir(dir);
  return count;
}

// Heap bytes in use (small blocks and mmap'ed ones).
size_t HeapBytesInUse() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// One cycle of a program that leaves everything to aclFinalize.
void CycleLeavingEverything() {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(device, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Finalize, AThousandCyclesHoldNoMoreThreadsFilesOrMemoryThanOne) {
  EnsureFinalized();
  CycleLeavingEverything();
  const size_t threads = CountEntries("/proc/self/task");
  const size_t files = CountEntries("/proc/self/fd");
  const size_t heap = HeapBytesInUse();
  for (int cycle = 1; cycle < 1000; ++cycle) {
    CycleLeavingEverything();
    if (HasFatalFailure()) return;
  }
  EXPECT_LE(CountEntries("/proc/self/task"), threads);
  EXPECT_LE(CountEntries("/proc/self/fd"), files);
  // Strict mode keeps freed device ranges reserved for a while (bounded), so
  // its bookkeeping grows to that bound; default mode must hold nothing more.
  const size_t slack = StrictMode() ? size_t{1} << 20 : size_t{16} << 10;
  EXPECT_LE(HeapBytesInUse(), heap + slack) << "heap after 1 cycle: " << heap;
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
