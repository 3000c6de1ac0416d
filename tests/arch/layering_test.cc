// Dependencies point inward only (DESIGN.md section 10): every #include of
// every file under src/ is checked against the layer table, and the checker
// itself is checked on fabricated trees, so that a broken checker fails too.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "arch/include_scanner.h"
#include "arch/layer_rules.h"

namespace allot::arch {
namespace {

// A one-file tree: `path` includes `header` on line 7.
std::vector<SourceFile> file_including(const std::string& path, const std::string& header,
                                       bool angled = false) {
  return {{path, {{7, header, angled}}}};
}

std::string describe(const std::vector<Violation>& violations) {
  std::string text;
  for (const Violation& v : violations) text += v.to_string() + "\n";
  return text;
}

TEST(Layering, SourceTreeFollowsTheLayerTable) {
  Result<std::vector<SourceFile>> files = scan_source_tree(ALLOT_SOURCE_DIR "/src");
  ASSERT_TRUE(files.ok()) << files.status().to_string();

  const std::vector<Violation> violations = find_violations(*files);

  EXPECT_TRUE(violations.empty()) << violations.size() << " forbidden includes:\n"
                                  << describe(violations);
}

TEST(Layering, ScanSeesTheFinishedLayers) {
  Result<std::vector<SourceFile>> files = scan_source_tree(ALLOT_SOURCE_DIR "/src");
  ASSERT_TRUE(files.ok()) << files.status().to_string();

  // Guards against a vacuous pass: an empty scan has no violations either.
  auto result_h = std::find_if(files->begin(), files->end(),
                               [](const SourceFile& f) { return f.path == "base/result.h"; });
  ASSERT_NE(result_h, files->end());
  EXPECT_NE(std::find_if(result_h->includes.begin(), result_h->includes.end(),
                         [](const IncludeLine& i) { return i.header == "base/status.h"; }),
            result_h->includes.end());
  EXPECT_TRUE(std::any_of(files->begin(), files->end(),
                          [](const SourceFile& f) { return f.path.starts_with("model/"); }));
}

TEST(Layering, ScanOfMissingFolderIsAnError) {
  Result<std::vector<SourceFile>> files = scan_source_tree(ALLOT_SOURCE_DIR "/no-such-folder");

  EXPECT_FALSE(files.ok());
}

TEST(IncludeScanner, ParsesQuotedAndAngledIncludesWithLineNumbers) {
  const std::vector<IncludeLine> includes = parse_includes(
      "// Header comment.\n"
      "#pragma once\n"
      "\n"
      "#include <vector>\n"
      "#include \"base/status.h\"\n"
      "  #  include   <yaml-cpp/yaml.h>  // trailing comment\n");

  const std::vector<IncludeLine> expected = {
      {4, "vector", true}, {5, "base/status.h", false}, {6, "yaml-cpp/yaml.h", true}};
  EXPECT_EQ(includes, expected);
}

TEST(IncludeScanner, IgnoresCommentedOutAndMalformedIncludes) {
  const std::vector<IncludeLine> includes = parse_includes(
      "// #include \"service/x.h\"\n"
      "#include \"unterminated\n"
      "#define INCLUDE_LATER 1\n"
      "int x = 0;  #include <thread>\n");

  EXPECT_TRUE(includes.empty());
}

TEST(LayerRules, ReportsAnOutwardIncludeWithFileLineAndHeader) {
  const std::vector<Violation> violations =
      find_violations(file_including("model/team.h", "scheduler/plan.h"));

  ASSERT_EQ(violations.size(), 1U);
  EXPECT_EQ(violations[0].path, "model/team.h");
  EXPECT_EQ(violations[0].line, 7);
  EXPECT_EQ(violations[0].include, "\"scheduler/plan.h\"");
  EXPECT_EQ(violations[0].to_string(),
            "src/model/team.h:7: #include \"scheduler/plan.h\": layer 'model' may not use "
            "'scheduler' (it may use: base; DESIGN.md section 10)");
}

TEST(LayerRules, AcceptsInwardAndSameLayerIncludes) {
  const std::vector<SourceFile> files = {
      {"scheduler/plan.h", {{1, "model/policy.h", false}, {2, "base/status.h", false}}},
      {"scheduler/plan.cc", {{1, "scheduler/plan.h", false}, {2, "vector", true}}},
      {"base/status.cc", {{1, "base/status.h", false}}},
  };

  EXPECT_TRUE(find_violations(files).empty()) << describe(find_violations(files));
}

struct LayerEdge {
  const char* from;  // including file
  const char* to;    // included project header
  bool allowed;
};

// One allowed and one forbidden edge (at least) per row of the table.
constexpr LayerEdge kEdges[] = {
    {"base/a.h", "model/b.h", false},
    {"model/a.h", "base/b.h", true},
    {"model/a.h", "api/b.h", false},
    {"scheduler/a.h", "model/b.h", true},
    {"scheduler/a.h", "authz/b.h", false},
    {"authz/a.h", "base/b.h", true},
    {"authz/a.h", "store/b.h", false},
    {"accounting/a.h", "model/b.h", true},
    {"accounting/a.h", "service/b.h", false},
    {"governance/a.h", "base/b.h", true},
    {"governance/a.h", "scheduler/b.h", false},
    {"store/a.h", "model/b.h", true},
    {"store/a.h", "scheduler/b.h", false},
    {"backends/sim/a.h", "model/b.h", true},
    {"backends/sim/a.h", "backends/local/b.h", true},
    {"backends/sim/a.h", "scheduler/b.h", false},
    {"identity/a.h", "base/b.h", true},
    {"identity/a.h", "store/b.h", false},
    {"api/a.h", "model/b.h", true},
    {"api/a.h", "service/b.h", false},
    {"service/a.h", "scheduler/b.h", true},
    {"service/a.h", "store/b.h", true},
    {"service/a.h", "backends/sim/b.h", true},
    {"service/a.h", "identity/b.h", true},
    {"service/a.h", "api/b.h", true},
    {"service/a.h", "server/b.h", false},
    {"service/a.h", "app/b.h", false},
    {"server/a.h", "service/b.h", true},
    {"server/a.h", "api/b.h", true},
    {"server/a.h", "store/b.h", false},
    {"server/a.h", "cli/b.h", false},
    {"cli/a.h", "service/b.h", true},
    {"cli/a.h", "governance/b.h", true},
    {"cli/a.h", "backends/b.h", false},
    {"cli/a.h", "server/b.h", false},
    {"app/a.cc", "backends/sim/b.h", true},
    {"app/a.cc", "store/b.h", true},
    {"app/a.cc", "server/b.h", true},
    {"app/a.cc", "cli/b.h", true},
};

TEST(LayerRules, EveryRowOfTheTableAllowsAndForbidsAsDesigned) {
  for (const LayerEdge& edge : kEdges) {
    const std::vector<Violation> violations = find_violations(file_including(edge.from, edge.to));
    EXPECT_EQ(violations.empty(), edge.allowed) << edge.from << " -> " << edge.to << "\n"
                                                << describe(violations);
  }
}

TEST(LayerRules, PureLayersMayNotIncludeIoThreadOrClockHeaders) {
  for (const char* layer : {"scheduler", "authz", "accounting", "governance"}) {
    for (const char* header : {"thread", "mutex", "chrono", "fstream", "iostream", "cstdio",
                               "filesystem", "random", "ctime", "future", "atomic"}) {
      const std::string path = std::string(layer) + "/a.cc";
      EXPECT_EQ(find_violations(file_including(path, header, /*angled=*/true)).size(), 1U)
          << path << " includes <" << header << ">";
    }
  }
}

TEST(LayerRules, PureLayersMayNotHoldAClock) {
  EXPECT_EQ(find_violations(file_including("scheduler/a.cc", "base/clock.h")).size(), 1U);
  EXPECT_TRUE(find_violations(file_including("service/a.cc", "base/clock.h")).empty());
}

TEST(LayerRules, EdgeLayersMayUseIoThreadAndClockHeaders) {
  for (const char* path : {"backends/local/a.cc", "service/a.cc", "app/main.cc", "base/a.cc"}) {
    for (const char* header : {"thread", "chrono", "fstream", "atomic"}) {
      EXPECT_TRUE(find_violations(file_including(path, header, /*angled=*/true)).empty())
          << path << " includes <" << header << ">";
    }
  }
}

TEST(LayerRules, InnerLayersUseTheStandardLibraryOnly) {
  EXPECT_EQ(find_violations(file_including("model/a.cc", "yaml-cpp/yaml.h", true)).size(), 1U);
  EXPECT_EQ(find_violations(file_including("scheduler/a.cc", "sys/time.h", true)).size(), 1U);
  EXPECT_TRUE(find_violations(file_including("api/a.cc", "yaml-cpp/yaml.h", true)).empty());
  EXPECT_TRUE(find_violations(file_including("model/a.cc", "string_view", true)).empty());
}

TEST(LayerRules, QuotedIncludesMustBeRootedAtALayer) {
  EXPECT_EQ(find_violations(file_including("scheduler/a.cc", "plan.h")).size(), 1U);
  EXPECT_EQ(find_violations(file_including("api/a.cc", "nlohmann/json.hpp")).size(), 1U);
}

TEST(LayerRules, ReportsAFolderMissingFromTheTable) {
  const std::vector<Violation> violations =
      find_violations({{"widgets/a.h", {{1, "base/status.h", false}}}});

  ASSERT_EQ(violations.size(), 1U);
  EXPECT_EQ(violations[0].to_string(),
            "src/widgets/a.h: 'widgets' is not a layer of DESIGN.md section 10; add it to "
            "tests/arch/layer_rules.cc or move the file");
}

TEST(LayerRules, TableNamesTheAllowedLayers) {
  EXPECT_TRUE(allowed_layers("base").empty());
  EXPECT_EQ(allowed_layers("model"), std::vector<std::string_view>{"base"});
  EXPECT_TRUE(is_pure_layer("scheduler"));
  EXPECT_FALSE(is_pure_layer("service"));
  EXPECT_TRUE(is_known_layer("identity"));
  EXPECT_FALSE(is_known_layer("utils"));
}

}  // namespace
}  // namespace allot::arch
