#include "common/error_report.h"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace aclcpu {
namespace {

// CANN's messages start with an error class: EZxxxx for operator (aclnn) errors,
// EExxxx for runtime errors; 1001 marks a caller's mistake, 9999 an inner failure.
const char* ErrorClass(int code) {
  if (code == 161001 || code == 161002) return "EZ1001";              // aclnn parameter error
  if (code == 361001 || (code >= 561000 && code < 562000)) return "EZ9999";  // aclnn runtime/inner
  if (code == 100000 || (code >= 107000 && code < 108000)) return "EE1001";  // runtime parameter error
  return "EE9999";
}

}  // namespace

void AbortOnAbiMismatch(const char* library, unsigned abi_version) {
  std::fprintf(stderr,
               "aclcpu: %s is from a different aclcpu build (internal interface version %u expected); "
               "install matching libascendcl.so, libnnopbase.so and libopapi.so\n",
               library, abi_version);
  std::abort();
}

const RuntimeServices* LoadRuntimeServices() {
  const RuntimeServices* const services = aclcpuRuntimeServices(kRuntimeServicesAbi);
  if (services == nullptr) AbortOnAbiMismatch("libascendcl.so", kRuntimeServicesAbi);
  return services;
}

int ReportError(int code, const char* format, ...) {
  char body[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(body, sizeof body, format, args);
  va_end(args);
  char message[1200];
  std::snprintf(message, sizeof message, "%s: [PID: %d] %s", ErrorClass(code), static_cast<int>(getpid()), body);
  Runtime().record_error(message);
  return code;
}

}  // namespace aclcpu
