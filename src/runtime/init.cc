// aclcpu runtime: process init/finalize, version, SoC name and the small
// data-type helpers CANN declares in acl_base.h.
//
// Compatibility choice: no other entry point requires aclInit. CANN's runtime
// calls work without it too in practice (it mainly loads dump/profiling config),
// and refusing them would only break programs that skip or reorder aclInit.
#include <sys/stat.h>

#include <cstdio>
#include <mutex>

#include "acl/acl.h"
#include "common/dtype.h"
#include "common/env.h"
#include "common/float16.h"
#include "common/raw_enum.h"
#include "common/soc.h"
#include "runtime/context.h"
#include "runtime/error_store.h"
#include "runtime/release_all.h"

namespace aclcpu {
namespace {

std::mutex init_mutex;
bool initialized = false;

// CANN's config file configures dump, profiling and the like, none of which
// exists here; we only insist that a named file can be read.
bool IsReadableFile(const char* path) {
  struct stat info;
  if (stat(path, &info) != 0 || !S_ISREG(info.st_mode)) return false;
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) return false;
  std::fclose(file);
  return true;
}

}  // namespace
}  // namespace aclcpu

extern "C" {

aclError aclInit(const char* configPath) {
  // An empty path counts as "no config", as CANN's samples pass "" too.
  if (configPath != nullptr && configPath[0] != '\0' && !aclcpu::IsReadableFile(configPath)) {
    return aclcpu::FailWith(ACL_ERROR_INVALID_FILE, "aclInit: configPath \"%s\" is not a readable file",
                            configPath);
  }
  std::lock_guard<std::mutex> lock(aclcpu::init_mutex);
  if (aclcpu::initialized) {
    return aclcpu::FailWith(ACL_ERROR_REPEAT_INITIALIZE,
                            "aclInit: already initialized; call aclFinalize before initializing again");
  }
  aclcpu::initialized = true;
  return ACL_SUCCESS;
}

// Finalizing releases what the program left: it waits for the work queued on
// every stream, resets every device still set, destroys the contexts, streams
// and events left and frees the device and pinned host memory left, so that a
// process may run aclInit ... aclFinalize any number of times without growing.
// The runtime is then as at process start: aclInit may follow, and so may any
// other call (none requires aclInit). The thread pool stays: it is created once
// per process, its size fixed, and launches may still be running on it from
// executors of the meta API, which aclFinalize does not own.
aclError aclFinalize(void) {
  std::lock_guard<std::mutex> lock(aclcpu::init_mutex);
  if (!aclcpu::initialized) {
    return aclcpu::FailWith(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: not initialized (no aclInit since the last aclFinalize)");
  }
  aclcpu::WaitForWorkQueuedOnStreams(aclcpu::kEveryDevice);
  // Counted only for the verbose line (it takes the registry lock).
  const size_t streams = aclcpu::Verbose() ? aclcpu::CountCreatedStreams() : 0;
  const size_t devices = aclcpu::ResetAllDevices();
  const size_t contexts = aclcpu::DestroyAllContexts();
  const size_t events = aclcpu::UnregisterAllEvents();
  const size_t device_blocks = aclcpu::FreeAllDeviceMemory();
  const size_t host_blocks = aclcpu::FreeAllHostMemory();
  if (aclcpu::Verbose()) {
    std::fprintf(stderr,
                 "aclcpu: aclFinalize released what the program left: %zu devices still set, %zu contexts, %zu "
                 "streams, %zu events, %zu device allocations, %zu host allocations\n",
                 devices, contexts, streams, events, device_blocks, host_blocks);
  }
  aclcpu::initialized = false;
  return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
  if (majorVersion == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: majorVersion is null");
  if (minorVersion == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: minorVersion is null");
  if (patchVersion == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetVersion: patchVersion is null");
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) {
  const aclcpu::SocInfo* soc = aclcpu::CurrentSoc();
  if (soc == nullptr) {
    aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetSocName: ACLCPU_SOC names no known SoC; known SoCs: %s",
                     aclcpu::KnownSocNames().c_str());
    return nullptr;
  }
  return soc->name;
}

size_t aclDataTypeSize(aclDataType dataType) { return aclcpu::DtypeSize(aclcpu::RawEnum(dataType)); }

float aclFloat16ToFloat(aclFloat16 value) { return aclcpu::HalfToFloat(value); }

aclFloat16 aclFloatToFloat16(float value) { return aclcpu::FloatToHalf(value); }

}  // extern "C"
