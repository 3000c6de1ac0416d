// `allot report usage`'s table (usage_report_output.h): its notes under the
// rows, as a person reads them. Rate card prices print as written (the
// shortest text of the same number), as do the CSV's unrounded figures, and
// the backend's record while allotd was down has its line per flavor only
// where there is some.
#include "cli/output/usage_report_output.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/number_text.h"

namespace allot::cli {
namespace {

nlohmann::json usage_report(double backend_while_missing) {
  nlohmann::json report = nlohmann::json::parse(R"({
    "from": "2026-12-07T00:00:00.000Z", "to": "2026-12-08T00:00:00.000Z",
    "by": ["team"], "currency": "USD", "contentHash": "sha256:ab",
    "rows": [{"team": "prod", "gpuHours": 2.5, "ownGpuHours": 2.5, "borrowedGpuHours": 0,
              "cost": 0.1, "ownCost": 0.1}],
    "totals": {"gpuHours": 2.5, "ownGpuHours": 2.5, "borrowedGpuHours": 0},
    "missingData": [{"from": "2026-12-07T01:00:00.000Z", "to": "2026-12-07T02:00:00.000Z"}],
    "idle": {"mode": "separate", "clusterWide": true, "flavors": [
      {"flavor": "h100", "capacityGpuHours": 184, "allocatedGpuHours": 1.5,
       "idleGpuHours": 182.5, "sharedIdleGpuHours": 0, "idleCost": 821.25}]},
    "rateCards": [{"version": 1, "flavor": "h100", "from": "2026-12-01T00:00:00.000Z",
                   "currency": "USD", "gpuHour": 4.5, "cpuHour": 0.04, "memoryGiBHour": 0.005}]
  })");
  report["idle"]["flavors"][0]["backendWhileMissingGpuHours"] = backend_while_missing;
  return report;
}

TEST(UsageReportOutput, RateCardPricesPrintAsWrittenNotWithSeventeenDigits) {
  const std::string table = usage_report_table(usage_report(0));
  EXPECT_NE(table.find("rate card 1: h100 from 2026-12-01T00:00:00.000Z, 4.5/GPU-h 0.04/CPU-h "
                       "0.005/GiB-h USD\n"),
            std::string::npos)
      << table;
}

// The CSV is unrounded yet reads as written: 0.1, not 0.10000000000000001.
TEST(UsageReportOutput, CsvFiguresAreExactAndShort) {
  const std::string csv = usage_report_csv(usage_report(0));
  EXPECT_NE(csv.find("\nprod,2.5,2.5,0,0,0,0,0.1,0.1,0,"), std::string::npos) << csv;
  EXPECT_EQ(number_text(0.1 + 0.2), "0.30000000000000004") << "exact: the sum is not 0.3";
  EXPECT_EQ(number_text(1e-7), "1e-07");
}

TEST(UsageReportOutput, TheBackendsRecordWhileAllotdWasDownHasALineOnlyWhereThereIsSome) {
  const std::string with = usage_report_table(usage_report(1.0));
  EXPECT_NE(with.find("recorded by the backend while allotd was down h100: 1.00 GPU-h (in the "
                      "rows, not in the capacity above)\n"),
            std::string::npos)
      << with;
  EXPECT_NE(with.find("missing data: 2026-12-07T01:00:00.000Z to 2026-12-07T02:00:00.000Z"),
            std::string::npos)
      << with;
  const std::string without = usage_report_table(usage_report(0));
  EXPECT_EQ(without.find("recorded by the backend"), std::string::npos) << without;
}

}  // namespace
}  // namespace allot::cli
