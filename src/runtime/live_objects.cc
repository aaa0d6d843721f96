// aclcpu runtime: aclcpuLiveObjectCount (see live_objects.h).
#include "runtime/live_objects.h"

#include <cstring>

#include "runtime/device_allocator.h"

extern "C" int64_t aclcpuLiveObjectCount(const char* kind) {
  if (kind == nullptr) return -1;
  size_t count = 0;
  if (std::strcmp(kind, "device_memory") == 0) {
    count = aclcpu::TheDeviceAllocator().LiveCount();
  } else if (std::strcmp(kind, "host_memory") == 0) {
    count = aclcpu::LiveHostAllocationCount();
  } else if (std::strcmp(kind, "events") == 0) {
    count = aclcpu::LiveEventCount();
  } else if (std::strcmp(kind, "streams") == 0) {
    count = aclcpu::LiveStreamCount();
  } else if (std::strcmp(kind, "data_buffers") == 0) {
    count = aclcpu::LiveDataBufferCount();
  } else {
    return -1;
  }
  return static_cast<int64_t>(count);
}
