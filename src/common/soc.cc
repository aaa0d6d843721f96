#include "common/soc.h"

#include <cstring>

#include "common/env.h"

namespace aclcpu {
namespace {

constexpr const char* kTraining = "Atlas training series";
constexpr const char* kA2 = "Atlas A2 training/inference series";
constexpr const char* kA3 = "Atlas A3 training/inference series";
constexpr const char* k950 = "Ascend 950PR/950DT";
constexpr const char* kInference = "Atlas inference series";
constexpr const char* k200I500A2 = "Atlas 200I/500 A2 inference products";

// The names CANN's platform configuration uses for each chip. Note "Ascend910B"
// on its own is a first-generation training SKU, not an A2 part.
constexpr SocInfo kSocs[] = {
    {"Ascend910A", SocFamily::kAscend910, kTraining},
    {"Ascend910B", SocFamily::kAscend910, kTraining},
    {"Ascend910ProA", SocFamily::kAscend910, kTraining},
    {"Ascend910ProB", SocFamily::kAscend910, kTraining},
    {"Ascend910PremiumA", SocFamily::kAscend910, kTraining},
    {"Ascend910B1", SocFamily::kAscend910B, kA2},
    {"Ascend910B2", SocFamily::kAscend910B, kA2},
    {"Ascend910B2C", SocFamily::kAscend910B, kA2},
    {"Ascend910B3", SocFamily::kAscend910B, kA2},
    {"Ascend910B4", SocFamily::kAscend910B, kA2},
    {"Ascend910B4-1", SocFamily::kAscend910B, kA2},
    {"Ascend910_9391", SocFamily::kAscend910_93, kA3},
    {"Ascend910_9392", SocFamily::kAscend910_93, kA3},
    {"Ascend910_9381", SocFamily::kAscend910_93, kA3},
    {"Ascend910_9382", SocFamily::kAscend910_93, kA3},
    {"Ascend910_9372", SocFamily::kAscend910_93, kA3},
    {"Ascend910_9362", SocFamily::kAscend910_93, kA3},
    {"Ascend910_95", SocFamily::kAscend950, k950},
    {"Ascend310P1", SocFamily::kAscend310P, kInference},
    {"Ascend310P3", SocFamily::kAscend310P, kInference},
    {"Ascend310P5", SocFamily::kAscend310P, kInference},
    {"Ascend310P7", SocFamily::kAscend310P, kInference},
    {"Ascend310B1", SocFamily::kAscend310B, k200I500A2},
    {"Ascend310B2", SocFamily::kAscend310B, k200I500A2},
    {"Ascend310B3", SocFamily::kAscend310B, k200I500A2},
    {"Ascend310B4", SocFamily::kAscend310B, k200I500A2},
};

const SocInfo* FindSoc(const char* name) {
  for (const SocInfo& soc : kSocs) {
    if (std::strcmp(soc.name, name) == 0) return &soc;
  }
  return nullptr;
}

}  // namespace

const SocInfo* CurrentSoc() {
  static const SocInfo* const soc = [] {
    const char* requested = GetEnv("ACLCPU_SOC");
    return FindSoc(requested != nullptr ? requested : kDefaultSocName);
  }();
  return soc;
}

std::string KnownSocNames() {
  std::string names;
  for (const SocInfo& soc : kSocs) {
    if (!names.empty()) names += ", ";
    names += soc.name;
  }
  return names;
}

bool SocSupportsBf16(SocFamily family) {
  return family == SocFamily::kAscend910B || family == SocFamily::kAscend910_93 ||
         family == SocFamily::kAscend950;
}

}  // namespace aclcpu
