#include "api/trace_reader.h"

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace allot {
namespace {

constexpr std::string_view kPhilly =
    "timestamp,duration,num_gpus,gpu_time,cluster\n"
    "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"
    "2017-10-09 06:13:03,2951.5,16,47224.0,6214e9\n";

Timestamp unix_s(int64_t s) { return Timestamp::from_millis(s * 1000); }

std::string located(const Status& status) { return status.details() + ": " + status.message(); }

TEST(PhillyTrace, ReadsJobsWithUnixSubmitTimes) {
  Result<std::vector<TraceJob>> jobs = parse_trace(kPhilly, TraceFormat::kPhilly, "jobs.csv");
  ASSERT_TRUE(jobs.ok()) << jobs.status().to_string();
  ASSERT_EQ(jobs->size(), 2U);
  const TraceJob& first = (*jobs)[0];
  EXPECT_EQ(first.submit, unix_s(1'507'532'515));
  EXPECT_EQ(first.duration, Duration::seconds(66));
  EXPECT_EQ(first.gpus, 1);
  EXPECT_EQ(first.team, "11cb48");
  EXPECT_EQ(first.line, 2);
  EXPECT_FALSE(first.name.has_value());
  EXPECT_EQ((*jobs)[1].duration, Duration::millis(2'951'500));
  EXPECT_EQ((*jobs)[1].gpus, 16);
  EXPECT_EQ((*jobs)[1].line, 3);
}

TEST(PhillyTrace, ParsesDatesAndTimesAsUtc) {
  EXPECT_EQ(*parse_trace_time("1970-01-01", TraceFormat::kPhilly), unix_s(0));
  EXPECT_EQ(*parse_trace_time("2000-02-29 12:00:00", TraceFormat::kPhilly), unix_s(951'825'600));
  EXPECT_EQ(*parse_trace_time("2017-10-01", TraceFormat::kPhilly), unix_s(1'506'816'000));
  for (const char* bad : {"2017-02-29", "2017-13-01", "2017-10-01 24:00:00", "2017-10-1",
                          "2017/10/01", "2017-10-01T00:00:00", ""}) {
    EXPECT_FALSE(parse_trace_time(bad, TraceFormat::kPhilly).ok()) << bad;
  }
}

TEST(PhillyTrace, ErrorsNameFileLineAndColumn) {
  const std::string text = std::string(kPhilly) + "2017-10-09 06:13:03,10,x,10,6214e9\n";
  Result<std::vector<TraceJob>> jobs = parse_trace(text, TraceFormat::kPhilly, "jobs.csv");
  ASSERT_FALSE(jobs.ok());
  EXPECT_EQ(jobs.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(located(jobs.status()), "jobs.csv: line 4: column num_gpus: not a number 'x'");
}

TEST(PhillyTrace, RejectsBadTimesDurationsAndRows) {
  const std::string header = "timestamp,duration,num_gpus,gpu_time,cluster\n";
  const auto error_of = [&](const std::string& row) {
    return located(parse_trace(header + row, TraceFormat::kPhilly, "jobs.csv").status());
  };
  EXPECT_EQ(error_of("2017-10-09,-1,1,1,a\n"),
            "jobs.csv: line 2: column duration: negative value '-1'");
  EXPECT_EQ(error_of("2017-10-09,1,1.5,1,a\n"),
            "jobs.csv: line 2: column num_gpus: not a whole number '1.5'");
  EXPECT_EQ(error_of("2017-10-09,1,1,1\n"), "jobs.csv: line 2: expected 5 fields, found 4");
  EXPECT_EQ(error_of("2017-10-09,nan,1,1,a\n"),
            "jobs.csv: line 2: column duration: not a number 'nan'");
  EXPECT_EQ(error_of("2017-10-09,1,1,1,\n"), "jobs.csv: line 2: column cluster: missing value");
  EXPECT_EQ(error_of("yesterday,1,1,1,a\n"),
            "jobs.csv: line 2: column timestamp: not a time 'YYYY-MM-DD HH:MM:SS' or date "
            "'YYYY-MM-DD': 'yesterday'");
  EXPECT_EQ(
      located(
          parse_trace("timestamp,duration,num_gpus\n", TraceFormat::kPhilly, "jobs.csv").status()),
      "jobs.csv: line 1: the header has no column 'cluster'");
}

TEST(CsvTrace, ReadsRequiredAndOptionalColumns) {
  constexpr std::string_view kText =
      "submit_s,duration_s,gpus,team,name,priority_class,user\r\n"
      "0.5,100,8,research,sweep,batch,ana\r\n"
      "\r\n"
      "-3,0.25,0,ops,,,\r\n";
  Result<std::vector<TraceJob>> jobs = parse_trace(kText, TraceFormat::kCsv, "t.csv");
  ASSERT_TRUE(jobs.ok()) << jobs.status().to_string();
  ASSERT_EQ(jobs->size(), 2U);
  const TraceJob& sweep = (*jobs)[0];
  EXPECT_EQ(sweep.submit, Timestamp::from_millis(500));
  EXPECT_EQ(sweep.duration, Duration::seconds(100));
  EXPECT_EQ(sweep.gpus, 8);
  EXPECT_EQ(sweep.team, "research");
  EXPECT_EQ(sweep.name, "sweep");
  EXPECT_EQ(sweep.priority_class, "batch");
  EXPECT_EQ(sweep.user, "ana");
  const TraceJob& ops = (*jobs)[1];
  EXPECT_EQ(ops.line, 4);  // blank lines count
  EXPECT_EQ(ops.submit, Timestamp::from_millis(-3000));
  EXPECT_EQ(ops.duration, Duration::millis(250));
  EXPECT_FALSE(ops.name.has_value());
  EXPECT_FALSE(ops.user.has_value());
}

TEST(CsvTrace, ErrorsNameFileLineAndColumn) {
  const auto error_of = [](const std::string& text) {
    return located(parse_trace(text, TraceFormat::kCsv, "t.csv").status());
  };
  EXPECT_EQ(error_of("submit_s,duration_s,gpus,team\n0,1,1,a\n\n5,1,two,a\n"),
            "t.csv: line 4: column gpus: not a number 'two'");
  EXPECT_EQ(error_of("submit_s,duration_s,gpus,team\n0,,1,a\n"),
            "t.csv: line 2: column duration_s: missing value");
  EXPECT_EQ(error_of("submit_s,duration_s,gpus,team,owner\n"),
            "t.csv: line 1: unknown column 'owner'");
  EXPECT_EQ(error_of("submit_s,duration_s,gpus,team,team\n"),
            "t.csv: line 1: column 'team' appears twice");
  EXPECT_EQ(error_of(""), "t.csv: line 1: no header line");
  EXPECT_EQ(error_of("submit_s,gpus,team\n"),
            "t.csv: line 1: the header has no column 'duration_s'");
}

TEST(TraceWindow, KeepsJobsFromInclusiveToExclusive) {
  constexpr std::string_view kText =
      "submit_s,duration_s,gpus,team\n"
      "0,1,1,a\n59.999,1,1,a\n60,1,1,a\n119,1,1,a\n120,1,1,a\n";
  TraceWindow window;
  window.from = *parse_trace_time("60", TraceFormat::kCsv);
  window.to = *parse_trace_time("2m", TraceFormat::kCsv);
  Result<std::vector<TraceJob>> jobs = parse_trace(kText, TraceFormat::kCsv, "t.csv", window);
  ASSERT_TRUE(jobs.ok());
  ASSERT_EQ(jobs->size(), 2U);
  EXPECT_EQ((*jobs)[0].line, 4);
  EXPECT_EQ((*jobs)[1].line, 5);
}

TEST(TraceWindow, FiltersPhillyByDate) {
  const std::string text = std::string(kPhilly) + "2017-10-10 00:00:00,5,1,5,ed69ec\n";
  TraceWindow window;
  window.from = *parse_trace_time("2017-10-09 07:00:00", TraceFormat::kPhilly);
  window.to = *parse_trace_time("2017-10-10", TraceFormat::kPhilly);
  Result<std::vector<TraceJob>> jobs = parse_trace(text, TraceFormat::kPhilly, "jobs.csv", window);
  ASSERT_TRUE(jobs.ok());
  ASSERT_EQ(jobs->size(), 1U);
  EXPECT_EQ((*jobs)[0].team, "11cb48");
}

TEST(TraceReader, NamesFormatsAndMissingFiles) {
  EXPECT_EQ(*parse_trace_format("philly"), TraceFormat::kPhilly);
  EXPECT_EQ(*parse_trace_format("csv"), TraceFormat::kCsv);
  EXPECT_FALSE(parse_trace_format("slurm").ok());
  Result<std::vector<TraceJob>> missing =
      load_trace_file("/nonexistent/jobs.csv", TraceFormat::kCsv);
  EXPECT_EQ(missing.status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(missing.status().details(), "/nonexistent/jobs.csv");
}

TEST(TraceReader, ReadsTheWholePhillyTrace) {
  const std::string path = ALLOT_SOURCE_DIR "/../shared/data/traces/philly/jobs.csv";
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << "no Philly trace at " << path;
  }
  Result<std::vector<TraceJob>> jobs = load_trace_file(path, TraceFormat::kPhilly);
  ASSERT_TRUE(jobs.ok()) << jobs.status().to_string();
  EXPECT_EQ(jobs->size(), 82'247U);
  TraceWindow october;
  october.from = *parse_trace_time("2017-10-01", TraceFormat::kPhilly);
  october.to = *parse_trace_time("2017-11-01", TraceFormat::kPhilly);
  Result<std::vector<TraceJob>> in_october = load_trace_file(path, TraceFormat::kPhilly, october);
  ASSERT_TRUE(in_october.ok());
  EXPECT_GT(in_october->size(), 0U);
  EXPECT_LT(in_october->size(), jobs->size());
}

}  // namespace
}  // namespace allot
