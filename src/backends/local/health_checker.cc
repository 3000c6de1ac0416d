#include "backends/local/health_checker.h"

#include <cstdlib>
#include <utility>

#include "backends/local/command_runner.h"

namespace allot::local {

LocalHealthChecker::LocalHealthChecker(LocalHealthCheckerOptions options)
    : options_(std::move(options)) {
  const char* home = std::getenv("HOME");
  home_ = home != nullptr ? home : "/";
}

std::vector<NodeHealthReport> LocalHealthChecker::check(const std::vector<std::string>& nodes) {
  std::vector<NodeHealthReport> reports;
  reports.reserve(nodes.size());
  for (const std::string& node : nodes) {
    reports.push_back(options_.command.empty() ? NodeHealthReport{node, true, ""}
                                               : check_one(node));
  }
  return reports;
}

NodeHealthReport LocalHealthChecker::check_one(const std::string& node) const {
  const std::vector<std::string> env = {
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + home_,
      "LANG=C.UTF-8", "ALLOT_NODE=" + node};
  Result<CommandOutcome> outcome =
      run_command({"/bin/sh", "-c", options_.command}, env, options_.timeout);
  NodeHealthReport report{node, false, ""};
  if (!outcome.ok()) {
    report.reason = "health check could not run: " + outcome.status().message();
    return report;
  }
  if (outcome->timed_out) {
    report.reason = "health check timed out after " + options_.timeout.to_string();
    return report;
  }
  if (outcome->succeeded()) {
    report.healthy = true;
    return report;
  }
  report.reason = outcome->first_line();
  if (report.reason.empty()) {
    report.reason = outcome->signal != 0
                        ? "health check killed by signal " + std::to_string(outcome->signal)
                        : "health check exited with code " + std::to_string(outcome->exit_code);
  }
  return report;
}

}  // namespace allot::local
