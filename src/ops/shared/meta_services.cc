#include "ops/shared/meta_services.h"

#include "common/error_report.h"

namespace aclcpu {
namespace {

const MetaServices* LoadMetaServices() {
  const MetaServices* const services = aclcpuMetaServices(kMetaServicesAbi);
  if (services == nullptr) AbortOnAbiMismatch("libnnopbase.so", kMetaServicesAbi);
  return services;
}

// Looked up when the library is loaded (libnnopbase, a dependency, is loaded and
// relocated by then, and aclcpuMetaServices returns a constant table), so that
// the uses in a call read a pointer instead of a guarded local static.
const MetaServices* const g_meta_services = LoadMetaServices();

}  // namespace

const MetaServices& Meta() { return *g_meta_services; }

}  // namespace aclcpu
