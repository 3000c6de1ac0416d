#include "cli/verbs/report_command.h"

#include <string>

#include <CLI/CLI.hpp>

#include "cli/client/api_paths.h"
#include "cli/output/backend_usage_output.h"
#include "cli/output/usage_report_output.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

class ReportCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("report", report_, "The report: usage or backend-usage")
        ->required()
        ->check(CLI::IsMember({"usage", "backend-usage"}));
    subcommand.add_option("--from", from_, "Start of the period (RFC 3339)")->required();
    subcommand.add_option("--to", to_, "End of the period (RFC 3339, exclusive)")->required();
    by_option_ = subcommand.add_option(
        "--by", by_, "Grouping: team, project, user, workload, flavor, day (comma list)");
    idle_option_ =
        subcommand
            .add_option("--idle", idle_, "Idle capacity: separate, share-even, share-nominal")
            ->check(CLI::IsMember({"separate", "share-even", "share-nominal"}));
    subcommand.add_option("-o,--output", output_, "Output format: table, csv or json")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    if (report_ == "backend-usage") return run_backend_usage(io);
    const Result<nlohmann::json> answer =
        fetch(std::string(kUsageReportPath) + period() + "&by=" + percent_encode(by_) +
              "&idle=" + percent_encode(idle_));
    if (!answer.ok()) return report_error(io, answer.status());
    if (output_ == "json") {
      io.out << answer->dump(2) << "\n";
    } else if (output_ == "csv") {
      io.out << usage_report_csv(*answer);
    } else {
      io.out << usage_report_table(*answer);
    }
    return kExitOk;
  }

 private:
  // The server's answer to GET `path` (the report's path and query).
  Result<nlohmann::json> fetch(const std::string& path) {
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(path));
    return response.json();
  }

  [[nodiscard]] std::string period() const {
    return "?from=" + percent_encode(from_) + "&to=" + percent_encode(to_);
  }

  int run_backend_usage(CliIo& io) {
    if (by_option_->count() > 0 || idle_option_->count() > 0 || output_ == "csv") {
      io.err << "error: --by, --idle and -o csv belong to `allot report usage`; backend-usage "
                "compares GPU time per team (-o table or json)\n";
      return kExitUsage;
    }
    const Result<nlohmann::json> answer = fetch(std::string(kBackendUsagePath) + period());
    if (!answer.ok()) return report_error(io, answer.status());
    io.out << (output_ == "json" ? answer->dump(2) + "\n" : backend_usage_table(*answer));
    return kExitOk;
  }

  std::string report_;
  CLI::Option* by_option_ = nullptr;
  CLI::Option* idle_option_ = nullptr;
  std::string from_;
  std::string to_;
  std::string by_ = "team";
  std::string idle_ = "separate";
  std::string output_ = "table";
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_report_command() { return std::make_unique<ReportCommand>(); }

}  // namespace allot::cli
