// aclcpu runtime: emulated devices and their reference-counted primary contexts.
//
// aclrtSetDevice counts references per device (every call, from any thread,
// needs one aclrtResetDevice); the first creates the device's primary context
// with its default stream, the last reset destroys it together with every
// stream created in it.
#include <memory>
#include <mutex>

#include "acl/acl.h"
#include "common/static_storage.h"
#include "runtime/context.h"
#include "runtime/error_store.h"
#include "runtime/release_all.h"

namespace aclcpu {
namespace {

struct DeviceState {
  int64_t references = 0;
  std::shared_ptr<Context> primary;
};

struct DeviceTable {
  std::mutex mutex;  // taken before the context registry's, never after
  DeviceState devices[kMaxDeviceCount];
};

DeviceTable& Devices() {
  return ProcessObject<DeviceTable>();  // never destroyed, as the registry
}

bool IsValidDevice(int32_t device_id) { return device_id >= 0 && device_id < DeviceCount(); }

aclError InvalidDevice(const char* call, int32_t device_id) {
  return FailWith(ACL_ERROR_RT_INVALID_DEVICEID, "%s: deviceId (%d) is not in [0, %d) (ACLCPU_DEVICE_COUNT)", call,
                  device_id, DeviceCount());
}

}  // namespace

size_t ResetAllDevices() {
  size_t reset = 0;
  for (int32_t id = 0; id < kMaxDeviceCount; ++id) {
    std::shared_ptr<Context> retired;
    {
      DeviceTable& table = Devices();
      std::lock_guard<std::mutex> lock(table.mutex);
      DeviceState& device = table.devices[id];
      if (device.references == 0) continue;
      device.references = 0;
      retired = std::move(device.primary);
    }
    if (retired != nullptr) DestroyContext(retired);
    ++reset;
  }
  return reset;
}

}  // namespace aclcpu

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  if (!aclcpu::IsValidDevice(deviceId)) return aclcpu::InvalidDevice("aclrtSetDevice", deviceId);
  std::shared_ptr<aclcpu::Context> primary;
  {
    aclcpu::DeviceTable& table = aclcpu::Devices();
    std::lock_guard<std::mutex> lock(table.mutex);
    aclcpu::DeviceState& device = table.devices[deviceId];
    if (device.references == 0) device.primary = aclcpu::CreateContext(deviceId, /*is_primary=*/true);
    if (device.primary == nullptr) {
      return aclcpu::FailWith(ACL_ERROR_RT_MEMORY_ALLOCATION,
                              "aclrtSetDevice: out of memory creating device %d's context", deviceId);
    }
    ++device.references;
    primary = device.primary;
  }
  aclcpu::SetCurrentContext(primary);
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  if (!aclcpu::IsValidDevice(deviceId)) return aclcpu::InvalidDevice("aclrtResetDevice", deviceId);
  std::shared_ptr<aclcpu::Context> retired;
  {
    aclcpu::DeviceTable& table = aclcpu::Devices();
    std::lock_guard<std::mutex> lock(table.mutex);
    aclcpu::DeviceState& device = table.devices[deviceId];
    // Resetting a device that is not set is a no-op success: programs commonly
    // reset unconditionally on their cleanup path.
    if (device.references == 0) return ACL_SUCCESS;
    if (device.references == 1) {
      // The last reset destroys the primary context and its streams.
      const aclError queued = aclcpu::RefuseQueuedWorkInContext("aclrtResetDevice", *device.primary);
      if (queued != ACL_SUCCESS) return queued;
    }
    if (--device.references == 0) retired = std::move(device.primary);
  }
  if (retired != nullptr) aclcpu::DestroyContext(retired);
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
  if (deviceId == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is null");
  std::shared_ptr<aclcpu::Context> current = aclcpu::CurrentContext();
  if (current == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_CONTEXT_NULL,
                            "aclrtGetDevice: the calling thread has no current context (call aclrtSetDevice first)");
  }
  *deviceId = current->device_id();
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
  *count = static_cast<uint32_t>(aclcpu::DeviceCount());
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  std::shared_ptr<aclcpu::Context> current = aclcpu::CurrentContext();
  if (current == nullptr) {
    return aclcpu::FailWith(ACL_ERROR_RT_CONTEXT_NULL,
                            "aclrtSynchronizeDevice: the calling thread has no current context (call aclrtSetDevice first)");
  }
  // Reports (once) the failed tasks of every stream of the device.
  return aclcpu::WaitForWorkQueuedOnStreams(current->device_id(), true, "aclrtSynchronizeDevice");
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  if (runMode == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: runMode is null");
  *runMode = ACL_HOST;  // the program runs on the host and drives a "device", as with a PCIe card
  return ACL_SUCCESS;
}

}  // extern "C"
