// runtime_tests emulates two devices unless the environment says otherwise, so
// that multi-device behaviour is tested. This runs before main(), hence before
// the runtime first reads ACLCPU_DEVICE_COUNT.
#include <cstdlib>

namespace aclcpu_test {
namespace {

const bool kDeviceCountSet = [] {
  setenv("ACLCPU_DEVICE_COUNT", "2", /*overwrite=*/0);
  return true;
}();

}  // namespace
}  // namespace aclcpu_test
