// What depends on the emulated SoC (ACLCPU_SOC): aclrtGetSocName() and the
// dtype list / support of aclnnHardsigmoidBackward per product line.
//
// ACLCPU_SOC is read once per process, so each suite runs in a process of its
// own with the environment it needs. CMakeLists.txt registers this binary once
// per environment, each time restricted to the suites that apply:
//   DefaultSoc, Bf16CapableSoc          ACLCPU_SOC unset (Ascend910B2, Atlas A2)
//   ExplicitSoc, Bf16CapableSoc         ACLCPU_SOC=Ascend910_9391 (Atlas A3)
//   ExplicitSoc, Fp16Fp32OnlySoc        ACLCPU_SOC=Ascend910A (Atlas training)
//   ExplicitSoc, Fp16Fp32OnlySoc        ACLCPU_SOC=Ascend310P3 (Atlas inference)
//   ExplicitSoc, UnsupportedSoc         ACLCPU_SOC=Ascend310B1 (Atlas 200I/500 A2)
//   UnknownSoc                          ACLCPU_SOC=NotAChip
// Each suite also checks that it runs where it is meant to, so a registration
// mistake fails loudly instead of testing the wrong thing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "api_test_util.h"

namespace aclcpu_api_test {
namespace {

std::string RequestedSoc() {
  const char* value = std::getenv("ACLCPU_SOC");
  return value != nullptr ? value : "";
}

class SocTest : public ApiTest {
 protected:
  // The suite's precondition on ACLCPU_SOC; `allowed` empty means "unset".
  void RequireSoc(std::initializer_list<const char*> allowed) {
    const std::string requested = RequestedSoc();
    for (const char* name : allowed) {
      if (requested == name) return;
    }
    FAIL() << "registered under ACLCPU_SOC=\"" << requested << "\", which this suite does not cover";
  }

  void ExpectAcceptedAndRunnable(aclDataType grad_dtype, aclDataType self_dtype, aclDataType out_dtype) {
    SCOPED_TRACE(testing::Message() << "dtypes " << grad_dtype << ", " << self_dtype << " -> " << out_dtype);
    Operands operands(grad_dtype, self_dtype, out_dtype);
    const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
    ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
    ASSERT_NE(result.executor, nullptr);
    EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
    EXPECT_FALSE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte)) << "out was not written";
  }
};

// ---- aclrtGetSocName --------------------------------------------------------------

class DefaultSoc : public SocTest {
 protected:
  void SetUp() override {
    SocTest::SetUp();
    RequireSoc({""});
  }
};

TEST_F(DefaultSoc, SocNameIsAscend910B2) {
  const char* name = aclrtGetSocName();
  ASSERT_NE(name, nullptr) << TakeRecentErrMsg();
  EXPECT_STREQ(name, "Ascend910B2");
}

class ExplicitSoc : public SocTest {
 protected:
  void SetUp() override {
    SocTest::SetUp();
    ASSERT_FALSE(RequestedSoc().empty()) << "this suite needs ACLCPU_SOC set";
  }
};

TEST_F(ExplicitSoc, SocNameIsAclcpuSocValue) {
  const char* name = aclrtGetSocName();
  ASSERT_NE(name, nullptr) << TakeRecentErrMsg();
  EXPECT_EQ(std::string(name), RequestedSoc());
}

class UnknownSoc : public SocTest {
 protected:
  void SetUp() override {
    SocTest::SetUp();
    RequireSoc({"NotAChip"});
  }
};

TEST_F(UnknownSoc, SocNameIsNullWithMessage) {
  ClearRecentErrMsgs();  // whatever start-up said about the SoC is not the point here
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  const std::string message = TakeRecentErrMsg();
  EXPECT_FALSE(message.empty()) << "aclrtGetSocName() failed without a message";
  EXPECT_TRUE(Contains(message, "NotAChip") || Contains(message, "ACLCPU_SOC"))
      << "the message should say which setting is wrong: \"" << message << "\"";
}

// ---- dtype lists per product line ------------------------------------------------------

// Atlas A2 (default) and A3: FLOAT, FLOAT16 and BF16.
class Bf16CapableSoc : public SocTest {
 protected:
  void SetUp() override {
    SocTest::SetUp();
    RequireSoc({"", "Ascend910_9391"});
  }
};

TEST_F(Bf16CapableSoc, Bf16InputsAccepted) { ExpectAcceptedAndRunnable(ACL_BF16, ACL_BF16, ACL_BF16); }

TEST_F(Bf16CapableSoc, Bf16MixedWithFloat16Accepted) {
  ExpectAcceptedAndRunnable(ACL_BF16, ACL_FLOAT16, ACL_FLOAT);
  ExpectAcceptedAndRunnable(ACL_FLOAT16, ACL_BF16, ACL_FLOAT);
}

TEST_F(Bf16CapableSoc, FloatAndFloat16Accepted) {
  ExpectAcceptedAndRunnable(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  ExpectAcceptedAndRunnable(ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16);
}

// Atlas training (910) and Atlas inference (310P): FLOAT and FLOAT16 only.
class Fp16Fp32OnlySoc : public SocTest {
 protected:
  void SetUp() override {
    SocTest::SetUp();
    RequireSoc({"Ascend910A", "Ascend310P3"});
  }
};

TEST_F(Fp16Fp32OnlySoc, Bf16GradOutputReturns161002NamingItAndDtype) {
  Operands operands(ACL_BF16, ACL_FLOAT, ACL_FLOAT);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"gradOutput", "DT_BF16"}, &operands.out);
}

TEST_F(Fp16Fp32OnlySoc, Bf16SelfReturns161002NamingItAndDtype) {
  Operands operands(ACL_FLOAT16, ACL_BF16, ACL_FLOAT16);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", "DT_BF16"}, &operands.out);
}

TEST_F(Fp16Fp32OnlySoc, FloatAndFloat16AcceptedInAnyCombination) {
  for (aclDataType grad_dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    for (aclDataType self_dtype : {ACL_FLOAT, ACL_FLOAT16}) {
      ExpectAcceptedAndRunnable(grad_dtype, self_dtype, ACL_FLOAT);
    }
  }
  ExpectAcceptedAndRunnable(ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16);
}

// ---- a product line without the operator ------------------------------------------------

// Atlas 200I/500 A2 (310B): the argument checks run as elsewhere (FLOAT, FLOAT16
// list), then the call fails because the product has no kernel for the op.
class UnsupportedSoc : public SocTest {
 protected:
  void SetUp() override {
    SocTest::SetUp();
    RequireSoc({"Ascend310B1"});
  }
};

TEST_F(UnsupportedSoc, ValidFloatInputReturns561003NamingTheProduct) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  EXPECT_TRUE(Contains(result.message, "Ascend310B") || Contains(result.message, "Atlas 200I/500 A2"))
      << "the message should name the SoC or product: \"" << result.message << "\"";
  ExpectRejected(result, ACLNN_ERR_INNER_FIND_KERNEL_ERROR, {}, &operands.out);
}

TEST_F(UnsupportedSoc, Bf16InputReturns161002BeforeTheSocCheck) {
  Operands operands(ACL_BF16, ACL_BF16, ACL_FLOAT);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"gradOutput", "DT_BF16"}, &operands.out);
}

TEST_F(UnsupportedSoc, NullSelfReturns161001BeforeTheSocCheck) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  ExpectRejected(CallPhase1(operands.grad_output.get(), nullptr, operands.out.get()), ACLNN_ERR_PARAM_NULLPTR,
                 {"self"}, &operands.out);
}

TEST_F(UnsupportedSoc, ShapeMismatchReturns161002BeforeTheSocCheck) {
  Operands operands(ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({3, 2}), ACL_FLOAT, Contiguous({3, 2}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", "gradOutput"}, &operands.out);
}

}  // namespace
}  // namespace aclcpu_api_test
