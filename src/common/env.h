// aclcpu: reading ACLCPU_* environment variables.
#ifndef ACLCPU_COMMON_ENV_H_
#define ACLCPU_COMMON_ENV_H_

namespace aclcpu {

// The variable's value, or nullptr if unset or empty.
const char* GetEnv(const char* name);

// True if the variable is set to anything but "", "0", "false", "off" or "no".
bool EnvFlag(const char* name);

// True if `text` is a positive decimal integer: digits only (no sign, no
// spaces), not all zeros. *value is set to it, LONG_MAX if it is larger.
bool ParsePositiveInteger(const char* text, long* value);

// ACLCPU_VERBOSE, read once per process.
bool Verbose();

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_ENV_H_
