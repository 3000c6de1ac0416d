#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "base/quantity.h"

namespace allot {
namespace {

constexpr int64_t kGiBytes = int64_t{1} << 30;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

TEST(ResourceVector, DefaultIsZero) {
  ResourceVector zero;

  EXPECT_TRUE(zero.is_zero());
  EXPECT_EQ(zero, ResourceVector(0, 0, 0));
}

TEST(ResourceVector, IndexesComponentsByResource) {
  ResourceVector v(8, 96'000, 512 * kGiBytes);
  v[Resource::kGpu] = 4;

  EXPECT_EQ(v[Resource::kGpu], 4);
  EXPECT_EQ(v.gpu(), 4);
  EXPECT_EQ(v[Resource::kCpu], 96'000);
  EXPECT_EQ(v.cpu_millis(), 96'000);
  EXPECT_EQ(v[Resource::kMemory], 512 * kGiBytes);
  EXPECT_EQ(v.memory_bytes(), 512 * kGiBytes);
}

TEST(ResourceVector, AddsAndSubtractsComponentwise) {
  const ResourceVector a(8, 1000, kGiBytes);
  const ResourceVector b(2, 500, kGiBytes);

  EXPECT_EQ(a + b, ResourceVector(10, 1500, 2 * kGiBytes));
  EXPECT_EQ(a - b, ResourceVector(6, 500, 0));

  ResourceVector c = a;
  c += b;
  EXPECT_EQ(c, ResourceVector(10, 1500, 2 * kGiBytes));
  c -= a;
  EXPECT_EQ(c, b);
}

TEST(ResourceVector, MultipliesEveryComponent) {
  EXPECT_EQ(ResourceVector(8, 96'000, 512 * kGiBytes) * 4,
            ResourceVector(32, 384'000, 2048 * kGiBytes));
  EXPECT_TRUE((ResourceVector(8, 1, 1) * 0).is_zero());
}

TEST(ResourceVector, FitsWhenEveryComponentFits) {
  const ResourceVector node(8, 96'000, 1024 * kGiBytes);

  EXPECT_TRUE(ResourceVector(8, 96'000, 1024 * kGiBytes).fits_in(node));
  EXPECT_TRUE(ResourceVector(1, 0, 0).fits_in(node));
  EXPECT_TRUE(ResourceVector().fits_in(node));
}

TEST(ResourceVector, DoesNotFitWhenAnyComponentExceeds) {
  const ResourceVector node(8, 96'000, 1024 * kGiBytes);

  EXPECT_FALSE(ResourceVector(9, 0, 0).fits_in(node));
  EXPECT_FALSE(ResourceVector(0, 96'001, 0).fits_in(node));
  EXPECT_FALSE(ResourceVector(0, 0, 1025 * kGiBytes).fits_in(node));
}

TEST(ResourceVector, ReportsNegativeComponents) {
  EXPECT_FALSE(ResourceVector(1, 2, 3).any_negative());
  EXPECT_TRUE(ResourceVector(1, -2, 3).any_negative());
  EXPECT_TRUE((ResourceVector(1, 0, 0) - ResourceVector(2, 0, 0)).any_negative());
}

TEST(ResourceVector, ToStringOmitsZeroComponents) {
  EXPECT_EQ(ResourceVector(8, 96'000, 512 * kGiBytes).to_string(), "gpu=8 cpu=96 memory=512Gi");
  EXPECT_EQ(ResourceVector(0, 500, 0).to_string(), "cpu=500m");
  EXPECT_EQ(ResourceVector().to_string(), "0");
}

TEST(ResourceVector, CheckedAddSumsWithinRange) {
  Result<ResourceVector> sum = checked_add(ResourceVector(1, 2, 3), ResourceVector(4, 5, 6));

  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(*sum, ResourceVector(5, 7, 9));
}

TEST(ResourceVector, CheckedAddReportsSumsAboveTheMaximumAsOutOfRange) {
  Result<ResourceVector> sum =
      checked_add(ResourceVector(0, 0, kMaxQuantity), ResourceVector(0, 0, 1));

  EXPECT_EQ(sum.status().code(), ErrorCode::kOutOfRange);
  EXPECT_NE(sum.status().message().find("memory"), std::string::npos);
}

TEST(ResourceVector, CheckedAddReportsInt64OverflowAsOutOfRange) {
  Result<ResourceVector> sum =
      checked_add(ResourceVector(kInt64Max, 0, 0), ResourceVector(1, 0, 0));

  EXPECT_EQ(sum.status().code(), ErrorCode::kOutOfRange);
  EXPECT_NE(sum.status().message().find("gpu"), std::string::npos);
}

TEST(ResourceVector, CheckedMultiplyReportsOverflowAsOutOfRange) {
  EXPECT_EQ(checked_multiply(ResourceVector(0, kInt64Max / 2, 0), 3).status().code(),
            ErrorCode::kOutOfRange);
  EXPECT_EQ(checked_multiply(ResourceVector(0, kMaxQuantity, 0), 2).status().code(),
            ErrorCode::kOutOfRange);

  Result<ResourceVector> product = checked_multiply(ResourceVector(8, 1000, kGiBytes), 16);
  ASSERT_TRUE(product.ok());
  EXPECT_EQ(*product, ResourceVector(128, 16'000, 16 * kGiBytes));
}

TEST(ResourceVectorDeathTest, UncheckedOverflowIsAnInvariantViolation) {
  const ResourceVector huge(kInt64Max, 0, 0);

  EXPECT_DEATH((void)(huge + ResourceVector(1, 0, 0)), "invariant violated");
  EXPECT_DEATH((void)(huge * 2), "invariant violated");
}

}  // namespace
}  // namespace allot
