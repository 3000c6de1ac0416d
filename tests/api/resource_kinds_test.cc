// The one table of API resource kinds: the CLI's KIND arguments and the
// server's path segments.
#include "api/resource_kinds.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(ResourceKind, AcceptsPluralSingularShortAndManifestForms) {
  for (const char* text : {"workloads", "workload", "wl", "Workload", "WL"}) {
    EXPECT_EQ(parse_resource_kind(text)->kind, ResourceKind::kWorkload) << text;
  }
  for (const char* text : {"priorityclasses", "priorityclass", "pc", "PriorityClass"}) {
    EXPECT_EQ(parse_resource_kind(text)->plural, "priorityclasses") << text;
  }
  for (const char* text : {"resourceflavors", "flavors", "flavor", "ResourceFlavor"}) {
    EXPECT_EQ(parse_resource_kind(text)->plural, "resourceflavors") << text;
  }
  EXPECT_EQ(parse_resource_kind("nodepool")->plural, "nodepools");
  EXPECT_EQ(parse_resource_kind("nodes")->kind, ResourceKind::kNode);
  EXPECT_EQ(parse_resource_kind("cohort")->kind, ResourceKind::kCohort);
  EXPECT_EQ(parse_resource_kind("clusters")->kind, ResourceKind::kCluster);
  EXPECT_EQ(parse_resource_kind("team")->kind, ResourceKind::kTeam);
}

TEST(ResourceKind, UnknownKindsListTheKnownOnes) {
  const Result<KindInfo> kind = parse_resource_kind("pods");
  ASSERT_FALSE(kind.ok());
  EXPECT_EQ(kind.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(kind.status().message().find("workloads, teams, nodes"), std::string::npos);
}

TEST(ResourceKind, PluralsAndManifestNamesMatchExactly) {
  const KindInfo* classes = kind_by_plural("priorityclasses");
  ASSERT_NE(classes, nullptr);
  EXPECT_EQ(classes->kind, ResourceKind::kPriorityClass);
  EXPECT_EQ(classes->manifest_kind, "PriorityClass");
  EXPECT_EQ(kind_by_plural("nodes")->kind, ResourceKind::kNode);
  EXPECT_EQ(kind_by_plural("workloads")->singular, "workload");
  EXPECT_EQ(kind_by_plural("priorityclass"), nullptr);
  EXPECT_EQ(kind_by_plural("PriorityClasses"), nullptr);
  EXPECT_EQ(kind_by_plural("pods"), nullptr);
  EXPECT_EQ(kind_by_plural(""), nullptr);
  EXPECT_EQ(kind_by_manifest_name("ResourceFlavor")->plural, "resourceflavors");
  EXPECT_EQ(kind_by_manifest_name("team"), nullptr);
}

TEST(ResourceKind, EveryKindHasOneEntryUnderEachName) {
  for (const ResourceKind kind :
       {ResourceKind::kWorkload, ResourceKind::kTeam, ResourceKind::kNode, ResourceKind::kCohort,
        ResourceKind::kPriorityClass, ResourceKind::kResourceFlavor, ResourceKind::kNodePool,
        ResourceKind::kCluster}) {
    const KindInfo& info = kind_info(kind);
    EXPECT_EQ(info.kind, kind);
    EXPECT_EQ(kind_by_plural(info.plural), &info) << info.plural;
    EXPECT_EQ(kind_by_manifest_name(info.manifest_kind), &info) << info.manifest_kind;
    EXPECT_EQ(parse_resource_kind(info.singular)->kind, kind) << info.singular;
  }
}

}  // namespace
}  // namespace allot
