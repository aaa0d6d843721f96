// aclcpu runtime: the flags and enumeration values runtime calls accept (see
// flag_check.h). The names and values are CANN's (acl/acl_rt.h).
#include "runtime/flag_check.h"

#include <cstdio>
#include <cstring>

#include "acl/acl_rt.h"
#include "runtime/error_store.h"

namespace aclcpu {
namespace {

constexpr NamedFlag kStreamFlagList[] = {
    // Both are latency trade-offs of an NPU's task submission; a CPU queue has none to make.
    {ACL_STREAM_FAST_LAUNCH, "ACL_STREAM_FAST_LAUNCH", nullptr},
    {ACL_STREAM_FAST_SYNC, "ACL_STREAM_FAST_SYNC", nullptr},
    // Keeps tasks for a model runtime instance (aclmdlRI*) to replay. aclcpu has
    // no model API to bind the stream to, so its tasks run as they are queued,
    // as on any stream.
    {ACL_STREAM_PERSISTENT, "ACL_STREAM_PERSISTENT", nullptr},
    // A larger task queue on the NPU; ours grows as needed.
    {ACL_STREAM_HUGE, "ACL_STREAM_HUGE", nullptr},
    {ACL_STREAM_CPU_SCHEDULE, "ACL_STREAM_CPU_SCHEDULE",
     "such a stream carries the AI CPU scheduling tasks of queue-mode model inference, which aclcpu does not run"},
    {ACL_STREAM_DEVICE_USE_ONLY, "ACL_STREAM_DEVICE_USE_ONLY",
     "such a stream is used only by code running on the device, and aclcpu runs no device code"},
};

constexpr NamedFlag kEventFlagList[] = {
    {ACL_EVENT_SYNC, "ACL_EVENT_SYNC", nullptr},
    {ACL_EVENT_CAPTURE_STREAM_PROGRESS, "ACL_EVENT_CAPTURE_STREAM_PROGRESS", nullptr},
    // Every event keeps timestamps (event_api.cc).
    {ACL_EVENT_TIME_LINE, "ACL_EVENT_TIME_LINE", nullptr},
    // Saves the NPU host-visible state; on a CPU every event is visible to both.
    {ACL_EVENT_DEVICE_USE_ONLY, "ACL_EVENT_DEVICE_USE_ONLY", nullptr},
    {ACL_EVENT_EXTERNAL, "ACL_EVENT_EXTERNAL", nullptr},
    {ACL_EVENT_IPC, "ACL_EVENT_IPC",
     "an event shared with other processes needs CANN's IPC event handles, which aclcpu does not provide"},
};

// The last aclrtMemAttr value CANN defines.
constexpr int32_t kLastMemAttr = ACL_MEM_P2P_HUGE1G;

const NamedFlag* FindFlag(const FlagSet& set, uint32_t bit) {
  for (size_t i = 0; i < set.count; ++i) {
    if (set.flags[i].bit == bit) return &set.flags[i];
  }
  return nullptr;
}

// "A, B and C": the names of the flags `set` accepts.
void AcceptedNames(const FlagSet& set, char* out, size_t size) {
  out[0] = '\0';
  size_t accepted = 0;
  for (size_t i = 0; i < set.count; ++i) accepted += set.flags[i].refusal == nullptr ? 1 : 0;
  size_t written = 0;
  for (size_t i = 0; i < set.count; ++i) {
    if (set.flags[i].refusal != nullptr) continue;
    const char* separator = written == 0 ? "" : (written + 1 == accepted ? " and " : ", ");
    const size_t length = std::strlen(out);
    std::snprintf(out + length, size - length, "%s%s", separator, set.flags[i].name);
    ++written;
  }
}

}  // namespace

const FlagSet kStreamConfigFlags{kStreamFlagList, sizeof kStreamFlagList / sizeof kStreamFlagList[0]};
const FlagSet kEventFlags{kEventFlagList, sizeof kEventFlagList / sizeof kEventFlagList[0]};

aclError CheckFlags(const char* call, const char* argument, uint32_t value, const FlagSet& set) {
  for (uint32_t rest = value; rest != 0; rest &= rest - 1) {
    const uint32_t bit = rest & (~rest + 1);  // the lowest bit still set
    const NamedFlag* flag = FindFlag(set, bit);
    if (flag == nullptr) {
      char accepted[256];
      AcceptedNames(set, accepted, sizeof accepted);
      return FailWith(ACL_ERROR_INVALID_PARAM,
                      "%s: %s (0x%x) has bit 0x%x, which CANN defines no flag for; accepted flags: %s", call, argument,
                      value, bit, accepted);
    }
    if (flag->refusal != nullptr) {
      return FailWith(ACL_ERROR_INVALID_PARAM, "%s: %s (0x%x) includes %s (0x%x), which aclcpu does not support: %s",
                      call, argument, value, flag->name, bit, flag->refusal);
    }
  }
  return ACL_SUCCESS;
}

aclError CheckMemAttr(const char* call, int32_t attr) {
  if (attr < ACL_DDR_MEM || attr > kLastMemAttr) {
    return FailWith(ACL_ERROR_INVALID_PARAM,
                    "%s: attr (%d) is not an aclrtMemAttr value (%d..%d, ACL_DDR_MEM to ACL_MEM_P2P_HUGE1G)", call,
                    attr, static_cast<int>(ACL_DDR_MEM), kLastMemAttr);
  }
  return ACL_SUCCESS;
}

}  // namespace aclcpu
