// aclcpu runtime: aclrtGetMemInfo. The attribute is read as the integer the
// caller passed (common/raw_enum.h): a program built against newer headers
// passes values ours may lack, and a C caller any int.
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include "acl/acl.h"
#include "common/raw_enum.h"
#include "runtime/error_store.h"
#include "runtime/flag_check.h"

namespace aclcpu {
namespace {

// Bytes of the "MemAvailable:" line of /proc/meminfo; 0 if it cannot be read.
size_t MemAvailableBytes() {
  std::FILE* file = std::fopen("/proc/meminfo", "r");
  if (file == nullptr) return 0;
  char line[256];
  size_t bytes = 0;
  while (std::fgets(line, sizeof line, file) != nullptr) {
    unsigned long long kib = 0;
    if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
      bytes = static_cast<size_t>(kib) * 1024;
      break;
    }
  }
  std::fclose(file);
  return bytes;
}

}  // namespace
}  // namespace aclcpu

// The emulated device's memory is the machine's RAM, whatever kind is asked
// for (DDR/HBM, huge/normal, P2P, 1 GiB pages): total is physical RAM, free is
// what the kernel reports as available without swapping.
extern "C" aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
  const aclError checked = aclcpu::CheckMemAttr("aclrtGetMemInfo", aclcpu::RawEnum(attr));
  if (checked != ACL_SUCCESS) return checked;
  if (free == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: free is null");
  if (total == nullptr) return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: total is null");
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  *total = pages > 0 && page_size > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page_size) : 0;
  size_t available = aclcpu::MemAvailableBytes();
  if (available == 0) {  // no /proc: fall back to free pages
    const long free_pages = sysconf(_SC_AVPHYS_PAGES);
    available = free_pages > 0 && page_size > 0 ? static_cast<size_t>(free_pages) * static_cast<size_t>(page_size) : 0;
  }
  *free = available < *total ? available : *total;
  return ACL_SUCCESS;
}
