// `allot report backend-usage`'s table (backend_usage_output.h): one line per
// team and the totals, allot's GPU-seconds beside the backend's with the
// signed difference, and the open hour's note only while it is open.
#include "cli/output/backend_usage_output.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace allot::cli {
namespace {

nlohmann::json comparison(bool hour_open) {
  return nlohmann::json::parse(R"({
    "source": "sreport cluster AccountUtilizationByUser cluster=allot",
    "from": "2026-12-07T03:00:00.000Z", "to": "2026-12-07T04:00:00.000Z",
    "countedTo": "2026-12-07T03:50:00.000Z", "hourOpen": )" +
                               std::string(hour_open ? "true" : "false") + R"(,
    "rows": [
      {"team": "prod", "account": "prod", "allotGpuSeconds": 6000.0,
       "backendGpuSeconds": 5996, "differenceGpuSeconds": 4.0},
      {"team": "research", "account": "research", "allotGpuSeconds": 14400.25,
       "backendGpuSeconds": 14460, "differenceGpuSeconds": -59.75}],
    "totals": {"allotGpuSeconds": 20400.25, "backendGpuSeconds": 20456,
               "differenceGpuSeconds": -55.75}})");
}

// The line of `table` that starts with `name` and a space.
std::string line_of(const std::string& table, const std::string& name) {
  const size_t at = table.find("\n" + name + " ");
  if (at == std::string::npos) return {};
  return table.substr(at + 1, table.find('\n', at + 1) - at - 1);
}

TEST(BackendUsageOutput, SetsEachTeamsSecondsBesideTheBackendsWithTheSignedDifference) {
  const std::string table = backend_usage_table(comparison(true));
  EXPECT_EQ(table.rfind("backend: sreport cluster AccountUtilizationByUser cluster=allot\n", 0), 0u)
      << table;
  EXPECT_NE(table.find("hours compared: 2026-12-07T03:00:00.000Z to 2026-12-07T04:00:00.000Z\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("TEAM"), std::string::npos) << table;
  EXPECT_NE(table.find("ALLOT - BACKEND"), std::string::npos) << table;
  const std::string prod = line_of(table, "prod");
  EXPECT_NE(prod.find("6000.0"), std::string::npos) << table;
  EXPECT_NE(prod.find("5996.0"), std::string::npos) << table;
  EXPECT_NE(prod.find("+4.0"), std::string::npos) << table;
  const std::string research = line_of(table, "research");
  EXPECT_NE(research.find("14400.2"), std::string::npos) << table;
  EXPECT_NE(research.find("-59.8"), std::string::npos) << table;
  const std::string total = line_of(table, "TOTAL");
  EXPECT_NE(total.find("20456.0"), std::string::npos) << table;
  EXPECT_NE(total.find("-55.8"), std::string::npos) << table;
  EXPECT_NE(table.find("the last hour is still open: allot counted to 2026-12-07T03:50:00.000Z"),
            std::string::npos)
      << table;
}

TEST(BackendUsageOutput, AClosedHourHasNoNote) {
  const std::string table = backend_usage_table(comparison(false));
  EXPECT_EQ(table.find("still open"), std::string::npos) << table;
  EXPECT_FALSE(line_of(table, "TOTAL").empty()) << table;
}

}  // namespace
}  // namespace allot::cli
