// aclcpu runtime: how many runtime objects are alive, so that the fault-injection
// tests can check that a failed call registered nothing. Computed on demand from
// the registries (no cost on any other path).
#ifndef ACLCPU_RUNTIME_LIVE_OBJECTS_H_
#define ACLCPU_RUNTIME_LIVE_OBJECTS_H_

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {

size_t LiveHostAllocationCount();  // memory.cc
size_t LiveEventCount();           // event.cc
size_t LiveStreamCount();          // context.cc, default streams included
size_t LiveDataBufferCount();      // data_buffer.cc

}  // namespace aclcpu

// Test control, exported from libascendcl.so: the number of live objects of
// `kind` — "device_memory" (aclrtMalloc* allocations), "host_memory"
// (aclrtMallocHost), "events", "streams" (default streams included),
// "data_buffers" (aclCreateDataBuffer) — or -1 for an unknown kind.
extern "C" ACL_FUNC_VISIBILITY int64_t aclcpuLiveObjectCount(const char* kind);

#endif  // ACLCPU_RUNTIME_LIVE_OBJECTS_H_
