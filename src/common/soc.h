// aclcpu: the SoC being emulated, chosen with ACLCPU_SOC.
//
// An operator's dtype list depends on the chip it runs on (bf16 only on the Atlas
// A2/A3 class and later), and aclrtGetSocName() reports the chip, so programs and
// frameworks that branch on it see what they would on that product.
#ifndef ACLCPU_COMMON_SOC_H_
#define ACLCPU_COMMON_SOC_H_

#include <string>

namespace aclcpu {

// Product lines, named after CANN's short SoC version.
enum class SocFamily {
  kAscend910,     // Atlas training series (first generation)
  kAscend910B,    // Atlas A2 training / inference series
  kAscend910_93,  // Atlas A3 training / inference series
  kAscend950,     // Ascend 950PR / 950DT
  kAscend310P,    // Atlas inference series (310P cards)
  kAscend310B,    // Atlas 200I/500 A2 inference products
};

struct SocInfo {
  const char* name;     // what aclrtGetSocName() returns, e.g. "Ascend910B2"
  SocFamily family;
  const char* product;  // product line, for messages
};

constexpr const char* kDefaultSocName = "Ascend910B2";

// The emulated SoC: ACLCPU_SOC if set, else kDefaultSocName. Read once per
// process. nullptr if ACLCPU_SOC names no SoC in our table.
const SocInfo* CurrentSoc();

// Comma-separated list of every SoC name we know, for messages.
std::string KnownSocNames();

// True on the A2/A3 class and later, where aclnn ops accept BFLOAT16.
bool SocSupportsBf16(SocFamily family);

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_SOC_H_
