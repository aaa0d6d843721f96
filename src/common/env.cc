#include "common/env.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <initializer_list>
#include <strings.h>

namespace aclcpu {

const char* GetEnv(const char* name) {
  const char* value = std::getenv(name);
  return (value != nullptr && value[0] != '\0') ? value : nullptr;
}

bool EnvFlag(const char* name) {
  const char* value = GetEnv(name);
  if (value == nullptr) return false;
  for (const char* off : {"0", "false", "off", "no"}) {
    if (strcasecmp(value, off) == 0) return false;
  }
  return true;
}

bool ParsePositiveInteger(const char* text, long* value) {
  if (text == nullptr || *text < '0' || *text > '9') return false;
  char* end = nullptr;
  errno = 0;
  const long parsed = std::strtol(text, &end, 10);
  if (*end != '\0' || parsed == 0) return false;
  *value = errno == ERANGE ? LONG_MAX : parsed;
  return true;
}

bool Verbose() {
  static const bool verbose = EnvFlag("ACLCPU_VERBOSE");
  return verbose;
}

}  // namespace aclcpu
