// The dtype matrix of aclnnHardsigmoid per emulated SoC (ACLCPU_SOC, read once
// per process): registered once per SoC with the suite that applies there
// (tests/hardsigmoid/CMakeLists.txt).
//   Bf16Soc     Ascend910B*, Ascend910_93*, Ascend910_95: FLOAT, FLOAT16, INT32, BFLOAT16
//   NoBf16Soc   Ascend910 training, Ascend310P*, Ascend310B*: FLOAT, FLOAT16, INT32
//   UnknownSoc  an ACLCPU_SOC we do not emulate: 561000 naming the known SoCs
#include <vector>

#include "hardsigmoid_api_util.h"

namespace aclcpu_hardsigmoid_test {
namespace {

const aclDataType kAlwaysRefused[] = {ACL_DOUBLE, ACL_INT64, ACL_INT8, ACL_BOOL};

class SocDtypes : public HardsigmoidApiTest {
 protected:
  void ExpectAccepted(aclDataType dtype) {
    DeviceTensor self(dtype, {33});
    UploadSelf(self);
    DeviceTensor out(dtype, Contiguous({33}), kSentinelByte);
    const Phase1Result result = CallPhase1(self.get(), out.get());
    ASSERT_EQ(result.status, ACLNN_SUCCESS) << aclrtGetSocName() << ": " << result.message;
    EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS);
    EXPECT_FALSE(AllBytesAre(out.DownloadStorage(), kSentinelByte));
    const Phase1Result in_place = CallInplacePhase1(self.get());
    ASSERT_EQ(in_place.status, ACLNN_SUCCESS) << in_place.message;
    EXPECT_EQ(LaunchAndWait(in_place.executor, in_place.workspace_size, stream_, true), ACLNN_SUCCESS);
  }
  void ExpectRefused(aclDataType dtype) {
    DeviceTensor self(dtype, {33});
    DeviceTensor out(dtype, Contiguous({33}), kSentinelByte);
    const Phase1Result result = CallPhase1(self.get(), out.get());
    ExpectRejected(result, ACLNN_ERR_PARAM_INVALID, {"self"}, &out);
    EXPECT_TRUE(Contains(result.message, aclrtGetSocName())) << result.message;
  }
};

class Bf16Soc : public SocDtypes {};
class NoBf16Soc : public SocDtypes {};
class UnknownSoc : public SocDtypes {};

TEST_F(Bf16Soc, AcceptsFloatFloat16Int32AndBfloat16) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BF16}) ExpectAccepted(dtype);
  for (aclDataType dtype : kAlwaysRefused) ExpectRefused(dtype);
}

TEST_F(NoBf16Soc, AcceptsFloatFloat16AndInt32ButNotBfloat16) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32}) ExpectAccepted(dtype);
  ExpectRefused(ACL_BF16);
  for (aclDataType dtype : kAlwaysRefused) ExpectRefused(dtype);
}

TEST_F(UnknownSoc, EveryCallIs561000NamingTheKnownSocs) {
  DeviceTensor self(ACL_FLOAT, {3});
  DeviceTensor out(ACL_FLOAT, Contiguous({3}), kSentinelByte);
  const Phase1Result result = CallPhase1(self.get(), out.get());
  ExpectRejected(result, ACLNN_ERR_INNER, {}, &out);
  EXPECT_TRUE(Contains(result.message, "Ascend910B2")) << result.message;
}

}  // namespace
}  // namespace aclcpu_hardsigmoid_test
