// aclcpu: libnnopbase's service table (meta/executor.h) as libopapi's
// operators use it: executor memory, adoption and the common phase 2.
#ifndef ACLCPU_OPS_SHARED_META_SERVICES_H_
#define ACLCPU_OPS_SHARED_META_SERVICES_H_

#include "meta/executor.h"

namespace aclcpu {

// The table, looked up once when libopapi is loaded.
const MetaServices& Meta();

}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_META_SERVICES_H_
