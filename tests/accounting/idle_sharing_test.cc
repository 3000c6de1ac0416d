#include "accounting/idle_sharing.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

std::vector<int64_t> narrow(const std::vector<WideInt>& shares) {
  return {shares.begin(), shares.end()};
}

TEST(IdleSharing, SharesSumExactlyWithTheRemainderToTheLargestFractions) {
  EXPECT_EQ(narrow(split_exact(10, {1, 1, 1})), (std::vector<int64_t>{4, 3, 3}));
  EXPECT_EQ(narrow(split_exact(10, {1, 2, 2})), (std::vector<int64_t>{2, 4, 4}));
  EXPECT_EQ(narrow(split_exact(7, {0, 3, 1})), (std::vector<int64_t>{0, 5, 2}));
}

TEST(IdleSharing, NegativeIdleIsSharedWithTheSameProportions) {
  EXPECT_EQ(narrow(split_exact(-10, {1, 1, 1})), (std::vector<int64_t>{-4, -3, -3}));
}

TEST(IdleSharing, HugeAmountsWithHugeWeightsDoNotOverflow) {
  const WideInt total = static_cast<WideInt>(int64_t{1} << 50) * (int64_t{1} << 40);
  const auto shares = split_exact(total, {int64_t{1} << 50, int64_t{1} << 50});
  EXPECT_EQ(shares[0] + shares[1], total);
  EXPECT_EQ(shares[0], shares[1]);
}

}  // namespace
}  // namespace allot
