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
    // Implementations may not use each other (only app/ chooses them).
    {"backends/sim/a.h", "backends/local/b.h", false},
    {"backends/sim/a.h", "backends/sim/b.h", true},
    {"backends/sim/a.h", "backends/executor.h", true},
    {"backends/sim/a.h", "scheduler/b.h", false},
    {"identity/a.h", "base/b.h", true},
    {"identity/a.h", "store/b.h", false},
    {"api/a.h", "model/b.h", true},
    {"api/a.h", "service/b.h", false},
    {"service/a.h", "scheduler/b.h", true},
    {"service/a.h", "store/b.h", true},
    // The service sees the ports, never an implementation.
    {"service/a.h", "backends/sim/b.h", false},
    {"service/a.h", "backends/executor.h", true},
    {"service/a.h", "store/store.h", true},
    {"service/a.h", "store/sqlite/b.h", false},
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
    {"cli/a.h", "identity/b.h", true},
    {"cli/a.h", "backends/b.h", false},
    {"cli/a.h", "server/b.h", false},
    {"app/a.cc", "backends/sim/b.h", true},
    {"app/a.cc", "store/b.h", true},
    {"app/a.cc", "server/b.h", true},
    {"app/a.cc", "cli/b.h", true},
    {"app/a.cc", "store/sqlite/b.h", true},
    {"app/a.cc", "backends/local/b.h", true},
    {"store/sqlite/a.h", "store/b.h", true},
    {"store/sqlite/a.h", "model/b.h", true},
    {"store/sqlite/a.h", "store/sqlite/b.h", true},
    {"store/sqlite/a.h", "scheduler/b.h", false},
    {"store/a.h", "store/sqlite/b.h", false},
    {"backends/local/a.h", "backends/local/x.h", true},
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

TEST(LayerRules, ServiceMayNotIncludeAStoreImplementation) {
  const std::vector<Violation> violations =
      find_violations(file_including("service/a.cc", "store/sqlite/sqlite_store.h"));

  ASSERT_EQ(violations.size(), 1U);
  EXPECT_EQ(violations[0].to_string(),
            "src/service/a.cc:7: #include \"store/sqlite/sqlite_store.h\": 'store/sqlite' is an "
            "implementation; only app/ (which chooses implementations) and store/sqlite/ itself "
            "may include it: use the ports (store/store.h)");
}

TEST(LayerRules, AppChoosesImplementations) {
  const std::vector<SourceFile> files = {
      {"app/allotd_main.cc",
       {{1, "store/sqlite/sqlite_store.h", false},
        {2, "store/memory_store.h", false},
        {3, "backends/local/local_executor.h", false},
        {4, "backends/sim/virtual_executor.h", false}}},
  };

  EXPECT_TRUE(find_violations(files).empty()) << describe(find_violations(files));
}

TEST(LayerRules, ImplementationsMayIncludeThemselvesAndTheirPorts) {
  const std::vector<SourceFile> files = {
      {"backends/local/a.cc",
       {{1, "backends/local/x.h", false}, {2, "backends/executor.h", false}}},
      {"backends/local/deeper/b.cc", {{1, "backends/local/x.h", false}}},
      {"store/sqlite/a.cc",
       {{1, "store/sqlite/x.h", false}, {2, "store/store.h", false}, {3, "sqlite3.h", true}}},
  };

  EXPECT_TRUE(find_violations(files).empty()) << describe(find_violations(files));
}

TEST(LayerRules, ImplementationsMayNotIncludeEachOther) {
  const std::vector<Violation> violations =
      find_violations(file_including("backends/sim/a.cc", "backends/local/local_executor.h"));

  ASSERT_EQ(violations.size(), 1U);
  EXPECT_EQ(violations[0].to_string(),
            "src/backends/sim/a.cc:7: #include \"backends/local/local_executor.h\": "
            "'backends/local' is an implementation; only app/ (which chooses implementations) "
            "and backends/local/ itself may include it: use the ports (backends/executor.h, "
            "backends/stepped_executor.h, backends/node_health.h)");
}

TEST(LayerRules, MessagesNameTheImplementationFolder) {
  const std::vector<Violation> outward =
      find_violations(file_including("backends/sim/a.h", "scheduler/plan.h"));
  ASSERT_EQ(outward.size(), 1U);
  EXPECT_EQ(outward[0].to_string(),
            "src/backends/sim/a.h:7: #include \"scheduler/plan.h\": layer 'backends/sim' may not "
            "use 'scheduler' (it may use: model, base; DESIGN.md section 10)");

  const std::vector<Violation> inward =
      find_violations(file_including("model/a.h", "store/sqlite/sqlite_store.h"));
  ASSERT_EQ(inward.size(), 1U);
  EXPECT_EQ(inward[0].reason,
            "layer 'model' may not use 'store/sqlite' (it may use: base; DESIGN.md section 10)");
}

TEST(LayerRules, FutureImplementationsFollowTheSameRule) {
  for (const char* folder : {"store/postgres", "backends/slurm", "backends/kubernetes"}) {
    EXPECT_TRUE(is_implementation(folder)) << folder;
    const std::string header = std::string(folder) + "/b.h";
    EXPECT_EQ(find_violations(file_including("service/a.cc", header)).size(), 1U) << header;
    EXPECT_TRUE(find_violations(file_including("app/a.cc", header)).empty()) << header;
    EXPECT_TRUE(find_violations(file_including(std::string(folder) + "/a.cc", header)).empty())
        << header;
  }
}

TEST(LayerRules, ReportsAnImplementationFolderMissingFromTheTable) {
  const std::vector<Violation> violations =
      find_violations({{"store/mysql/a.h", {{1, "store/store.h", false}}},
                       {"service/a.cc", {{2, "backends/gadget/b.h", false}}}});

  ASSERT_EQ(violations.size(), 2U);
  EXPECT_EQ(violations[0].to_string(),
            "src/store/mysql/a.h: 'store/mysql' is not an implementation folder of the layer "
            "table; add it to tests/arch/layer_rules.cc or move the file");
  EXPECT_EQ(violations[1].reason,
            "'backends/gadget' is not an implementation folder of the layer table "
            "(tests/arch/layer_rules.cc)");
}

TEST(LayerRules, LayerOfAPathKnowsImplementationFolders) {
  EXPECT_EQ(layer_of("backends/sim/virtual_executor.h"), "backends/sim");
  EXPECT_EQ(layer_of("store/sqlite/deeper/x.cc"), "store/sqlite");
  EXPECT_EQ(layer_of("store/store.h"), "store");
  EXPECT_EQ(layer_of("service/control_plane.h"), "service");
  EXPECT_EQ(layer_of("plan.h"), "");
  EXPECT_TRUE(is_known_layer("store/sqlite"));
  EXPECT_FALSE(is_known_layer("store/memory"));  // MemoryStore lives in store/ itself
  EXPECT_FALSE(is_implementation("store"));
  EXPECT_EQ(allowed_layers("backends/local"), allowed_layers("backends"));
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
