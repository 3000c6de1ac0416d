#include "base/strong_id.h"

#include <cstdint>
#include <set>
#include <type_traits>
#include <unordered_set>

#include <gtest/gtest.h>

namespace allot {
namespace {

using TeamId = StrongId<struct TeamIdTag>;
using NodeId = StrongId<struct NodeIdTag>;
using WideId = StrongId<struct WideIdTag, uint64_t>;

TEST(StrongId, DefaultIsInvalid) {
  EXPECT_FALSE(TeamId().valid());
  EXPECT_EQ(TeamId(), TeamId::invalid());
}

TEST(StrongId, ConstructedIdIsValidAndKeepsItsValue) {
  const TeamId id(3);

  EXPECT_TRUE(id.valid());
  EXPECT_EQ(id.value(), 3U);
  EXPECT_TRUE(TeamId(0).valid());
}

TEST(StrongId, DifferentKindsDoNotMix) {
  static_assert(!std::is_convertible_v<TeamId, NodeId>);
  static_assert(!std::is_convertible_v<uint32_t, TeamId>);
  static_assert(!std::is_constructible_v<NodeId, TeamId>);

  EXPECT_EQ(TeamId(1).value(), NodeId(1).value());
}

TEST(StrongId, OrdersByValue) {
  EXPECT_LT(TeamId(1), TeamId(2));
  EXPECT_NE(TeamId(1), TeamId(2));

  const std::set<TeamId> ordered = {TeamId(3), TeamId(1), TeamId(2)};
  EXPECT_EQ(ordered.begin()->value(), 1U);
}

TEST(StrongId, IsHashable) {
  std::unordered_set<NodeId> ids = {NodeId(1), NodeId(2)};

  EXPECT_TRUE(ids.contains(NodeId(2)));
  EXPECT_FALSE(ids.contains(NodeId(3)));
}

TEST(StrongId, SupportsOtherRepresentations) {
  const WideId id(uint64_t{1} << 40);

  EXPECT_TRUE(id.valid());
  EXPECT_EQ(id.value(), uint64_t{1} << 40);
}

}  // namespace
}  // namespace allot
