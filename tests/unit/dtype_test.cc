// CANN's promotion and castability rules for the dtypes aclnn operators accept.
#include <gtest/gtest.h>

#include "common/dtype.h"

namespace aclcpu {
namespace {

const aclDataType kFloating[] = {ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16};
const aclDataType kIntegral[] = {ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64,
                                 ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64};

TEST(Dtype, PromotionOfEqualTypesKeepsTheType) {
  for (aclDataType t : kFloating) EXPECT_EQ(PromoteFloatingTypes(t, t), t);
}

TEST(Dtype, PromotionFollowsCannTensorTensorTable) {
  EXPECT_EQ(PromoteFloatingTypes(ACL_FLOAT, ACL_FLOAT16), ACL_FLOAT);
  EXPECT_EQ(PromoteFloatingTypes(ACL_FLOAT16, ACL_FLOAT), ACL_FLOAT);
  EXPECT_EQ(PromoteFloatingTypes(ACL_FLOAT, ACL_BF16), ACL_FLOAT);
  EXPECT_EQ(PromoteFloatingTypes(ACL_FLOAT16, ACL_BF16), ACL_FLOAT);
  EXPECT_EQ(PromoteFloatingTypes(ACL_BF16, ACL_FLOAT16), ACL_FLOAT);
  EXPECT_EQ(PromoteFloatingTypes(ACL_DOUBLE, ACL_FLOAT16), ACL_DOUBLE);
  EXPECT_EQ(PromoteFloatingTypes(ACL_INT32, ACL_FLOAT), ACL_DT_UNDEFINED);
}

TEST(Dtype, FloatingCannotCastToIntegralOrBool) {
  for (aclDataType from : kFloating) {
    for (aclDataType to : kIntegral) EXPECT_FALSE(CanCast(from, to)) << DtypeName(from) << "->" << DtypeName(to);
    EXPECT_FALSE(CanCast(from, ACL_BOOL));
  }
}

TEST(Dtype, FloatingCastsToFloatingAndComplex) {
  for (aclDataType from : kFloating) {
    for (aclDataType to : kFloating) EXPECT_TRUE(CanCast(from, to));
    EXPECT_TRUE(CanCast(from, ACL_COMPLEX64));
  }
}

TEST(Dtype, ComplexCannotCastToReal) {
  EXPECT_FALSE(CanCast(ACL_COMPLEX64, ACL_FLOAT));
  EXPECT_TRUE(CanCast(ACL_COMPLEX64, ACL_COMPLEX128));
  EXPECT_TRUE(CanCast(ACL_BOOL, ACL_BOOL));
}

TEST(Dtype, NamesUseCannSpellingAndNameUnknownValues) {
  EXPECT_STREQ(DtypeName(ACL_BF16), "DT_BF16");
  EXPECT_STREQ(DtypeName(ACL_FLOAT), "DT_FLOAT");
  EXPECT_STREQ(DtypeName(static_cast<aclDataType>(99)), "DT_UNKNOWN(99)");
}

TEST(Dtype, SizesMatchTheElementTypes) {
  EXPECT_EQ(DtypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(DtypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(DtypeSize(ACL_BF16), 2u);
  EXPECT_EQ(DtypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(DtypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(DtypeSize(ACL_STRING), 0u);
  EXPECT_EQ(DtypeSize(static_cast<aclDataType>(99)), 0u);
}

}  // namespace
}  // namespace aclcpu
