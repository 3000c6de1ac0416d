#include "bench/lend_borrow_figures.h"

#include <algorithm>
#include <limits>

namespace allot::bench {
namespace {

using nlohmann::json;

constexpr double kStep = 0.5;  // seconds between the instants read
constexpr double kForever = std::numeric_limits<double>::infinity();

double end_of(const LendBorrowRun& run) {
  if (run.end < 0) return kForever;
  return run.end;
}

// When the job stopped asking: its last run's end; never while it waits or runs.
double finished_at(const LendBorrowJob& job) {
  if (job.runs.empty() || job.runs.back().start < 0) return kForever;
  return end_of(job.runs.back());
}

double first_start(const LendBorrowJob& job) {
  double first = kForever;
  for (const LendBorrowRun& run : job.runs) {
    if (run.start >= 0) first = std::min(first, run.start);
  }
  return first;
}

struct Instant {
  int64_t asked = 0;
  int64_t held = 0;
};

Instant team_at(const std::vector<LendBorrowJob>& jobs, bool team_b, double t, int32_t gpus) {
  Instant out;
  for (const LendBorrowJob& job : jobs) {
    if (job.team_b != team_b || job.submitted > t || finished_at(job) <= t) continue;
    out.asked += gpus;
    for (const LendBorrowRun& run : job.runs) {
      if (run.start >= 0 && run.start <= t && t < end_of(run)) out.held += gpus;
    }
  }
  return out;
}

json team_figures(const std::vector<LendBorrowJob>& jobs, bool team_b,
                  const LendBorrowConfig& config) {
  const int64_t guarantee = lend_borrow_gpus(config) / 2;
  int64_t count = 0;
  int64_t started = 0;
  double waited = 0;
  for (const LendBorrowJob& job : jobs) {
    if (job.team_b != team_b) continue;
    ++count;
    const double first = first_start(job);
    if (first < kForever) ++started;
    waited += std::max(0.0, std::min(first, config.stream_seconds) - job.submitted);
  }
  int64_t asked = 0;
  int64_t kept = 0;
  double share = 0;
  for (double t = team_b ? config.return_at : 0; t < config.stream_seconds; t += kStep) {
    const Instant now = team_at(jobs, team_b, t, config.job_gpus);
    if (now.asked == 0) continue;
    ++asked;
    const int64_t due = std::min(guarantee, now.asked);
    if (now.held >= due) ++kept;
    share += std::min(1.0, static_cast<double>(now.held) / static_cast<double>(due));
  }
  return {{"jobs", count},
          {"started", started},
          {"meanWaitSeconds", count > 0 ? waited / static_cast<double>(count) : 0.0},
          {"guaranteeCompliance",
           asked > 0 ? json(static_cast<double>(kept) / static_cast<double>(asked)) : json()},
          {"guaranteeHeldShare", asked > 0 ? json(share / static_cast<double>(asked)) : json()},
          {"askedSeconds", static_cast<double>(asked) * kStep}};
}

}  // namespace

int32_t lend_borrow_gpus(const LendBorrowConfig& config) { return config.nodes * 8; }

json lend_borrow_figures(const std::vector<LendBorrowJob>& jobs, const LendBorrowConfig& config) {
  double gpu_seconds = 0;
  int64_t preemptions = 0;
  for (const LendBorrowJob& job : jobs) {
    for (size_t i = 0; i < job.runs.size(); ++i) {
      const LendBorrowRun& run = job.runs[i];
      if (run.start < 0) continue;
      if (i + 1 < job.runs.size()) ++preemptions;
      const double from = std::max(0.0, run.start);
      const double to = std::min(config.stream_seconds, end_of(run));
      if (to > from) gpu_seconds += (to - from) * config.job_gpus;
    }
  }
  const double capacity = lend_borrow_gpus(config) * config.stream_seconds;
  return {{"teamA", team_figures(jobs, false, config)},
          {"teamB", team_figures(jobs, true, config)},
          {"gpuUtilisation", capacity > 0 ? gpu_seconds / capacity : 0.0},
          {"preemptions", preemptions}};
}

}  // namespace allot::bench
