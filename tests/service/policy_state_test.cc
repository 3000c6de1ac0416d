// PolicyState: documents to a compiled policy, applies and deletes.
#include "service/control/policy_state.h"

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

Result<PolicyState> applied(const PolicyState& base, const std::string& yaml,
                            std::vector<PolicyChange>& changes) {
  ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed, parse_manifests_with_documents(yaml));
  return base.with_applied(parsed.documents, changes);
}

TEST(PolicyState, EmptyStateHasNoCompiledPolicy) {
  const PolicyState empty;
  EXPECT_EQ(empty.compiled(), nullptr);
  EXPECT_TRUE(empty.documents().empty());
}

TEST(PolicyState, ApplyCompilesAndReportsCreatedThenUnchanged) {
  std::vector<PolicyChange> changes;
  const Result<PolicyState> first = applied(PolicyState(), kTwoTeamPolicy, changes);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  ASSERT_NE(first->compiled(), nullptr);
  EXPECT_EQ(first->compiled()->node_count(), 2);
  EXPECT_EQ(changes.size(), 8u);
  for (const PolicyChange& change : changes) EXPECT_EQ(change.action, "created");

  changes.clear();
  const Result<PolicyState> again = applied(*first, kTwoTeamPolicy, changes);
  ASSERT_TRUE(again.ok());
  for (const PolicyChange& change : changes) EXPECT_EQ(change.action, "unchanged");
}

TEST(PolicyState, RebuildsFromItsOwnDocuments) {
  std::vector<PolicyChange> changes;
  const Result<PolicyState> state = applied(PolicyState(), kTwoTeamPolicy, changes);
  ASSERT_TRUE(state.ok());
  const Result<PolicyState> rebuilt = PolicyState::from_documents(state->documents());
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status().to_string();
  EXPECT_EQ(rebuilt->policy(), state->policy());
}

TEST(PolicyState, DeletingAReferencedCohortIsRefused) {
  std::vector<PolicyChange> changes;
  const Result<PolicyState> state = applied(PolicyState(), kTwoTeamPolicy, changes);
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->without({"Cohort", "org"}).status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(state->without({"Team", "ghost"}).status().code(), ErrorCode::kNotFound);
  const Result<PolicyState> without = state->without({"Team", "research"});
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(without->compiled()->team_count(), 1);
}

}  // namespace
}  // namespace allot::testing
