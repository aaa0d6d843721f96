// aclcpu runtime: releasing what a program left behind, for aclFinalize.
//
// Each function is defined beside the registry it empties and returns how many
// objects it released. Handles of released objects are never given out again
// (runtime/handle_ids.h), so later calls with them are refused, not misrouted.
#ifndef ACLCPU_RUNTIME_RELEASE_ALL_H_
#define ACLCPU_RUNTIME_RELEASE_ALL_H_

#include <cstddef>

namespace aclcpu {

// device.cc: every device still set (by any thread) has its reference count
// dropped to 0 and its primary context destroyed, with that context's streams.
size_t ResetAllDevices();

// context.cc: every context left (aclrtCreateContext's), with its streams.
size_t DestroyAllContexts();

// context.cc: the streams the program created (default streams aside), counted
// before the calls above destroy them with their contexts.
size_t CountCreatedStreams();

// event.cc: every event left.
size_t UnregisterAllEvents();

// memory.cc: every aclrtMalloc* allocation and every aclrtMallocHost one left.
size_t FreeAllDeviceMemory();
size_t FreeAllHostMemory();

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_RELEASE_ALL_H_
