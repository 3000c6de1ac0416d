#include "cli/verbs/logs_command.h"

#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "base/time.h"
#include "cli/client/log_follower.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

// A real client polling a real server: waiting between polls is the point.
void wait_for(std::chrono::milliseconds interval) {
  if (interval.count() > 0) std::this_thread::sleep_for(interval);
}

class LogsCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("name", name_, "The workload: NAME (with -n) or NS/NAME")->required();
    subcommand.add_option("-n,--namespace", namespace_, "Namespace of the workload");
    subcommand.add_option("--pod", pod_, "Which pod, from 0 (default 0)");
    subcommand.add_flag("-f,--follow", follow_, "Keep printing until the workload finishes");
    subcommand.add_option("--poll-interval", poll_interval_, "How often -f polls (500ms)")
        ->group("");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Status printed = print_logs(io);
    return printed.ok() ? kExitOk : report_error(io, printed);
  }

 private:
  Status print_logs(CliIo& io) {
    LogRequest request;
    ALLOT_ASSIGN_OR_RETURN(request.workload, parse_workload_ref(name_, namespace_));
    if (pod_ < 0) return invalid_argument("--pod must not be negative");
    request.pod = pod_;
    request.follow = follow_;
    if (!poll_interval_.empty()) {
      const Result<Duration> interval = parse_duration(poll_interval_);
      if (!interval.ok()) return interval.status().with_context("--poll-interval");
      request.poll_interval = std::chrono::milliseconds(interval->ms());
    }
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    return stream_logs(client, request, io.out, wait_for);
  }

  std::string name_;
  std::string namespace_;
  int pod_ = 0;
  bool follow_ = false;
  std::string poll_interval_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_logs_command() { return std::make_unique<LogsCommand>(); }

}  // namespace allot::cli
