// strict_tests emulates two devices unless the environment says otherwise (the
// last reset of a device is tested on a device no other test holds). This runs
// before main(), hence before the runtime first reads ACLCPU_DEVICE_COUNT.
#include <cstdlib>

namespace aclcpu_strict_test {
namespace {

const bool kDeviceCountSet = [] {
  setenv("ACLCPU_DEVICE_COUNT", "2", /*overwrite=*/0);
  return true;
}();

}  // namespace
}  // namespace aclcpu_strict_test
