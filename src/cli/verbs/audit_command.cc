#include "cli/verbs/audit_command.h"

#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/client/api_paths.h"
#include "cli/output/text_table.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"
#include "service/audit/audit_key.h"
#include "service/audit/audit_reading.h"

namespace allot::cli {
namespace {

using governance::VerificationReport;

void print_report(std::ostream& out, const VerificationReport& report) {
  for (const governance::AuditProblem& problem : report.problems) {
    out << governance::audit_problem_name(problem.kind) << ": " << problem.message << "\n";
  }
  out << (report.ok() ? "audit log verified: " : "audit log NOT verified: ") << report.records
      << " records (last sequence " << report.last_sequence << "), " << report.checkpoints
      << " valid checkpoints, covered through record " << report.covered_through << "; "
      << report.uncovered_tail << " records at the tail not yet covered by a checkpoint";
  if (!report.ok()) out << "; " << report.problems.size() << " problems";
  out << "\n";
}

std::string table_of(const nlohmann::json& list) {
  TextTable table({"TIME", "USER", "VERB", "NAMESPACE", "RESOURCE", "NAME", "CODE", "SEQ"});
  for (const nlohmann::json& item : list.value("items", nlohmann::json::array())) {
    const nlohmann::json ref = item.value("objectRef", nlohmann::json::object());
    const nlohmann::json user = item.value("user", nlohmann::json::object());
    table.add_row(
        {item.value("stageTimestamp", ""), user.value("username", ""), item.value("verb", ""),
         ref.value("namespace", ""), ref.value("resource", ""), ref.value("name", ""),
         std::to_string(item.value("responseStatus", nlohmann::json::object()).value("code", 0)),
         std::to_string(item.value("sequence", uint64_t{0}))});
  }
  return table.render();
}

class AuditCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("action", action_, "verify (offline) or log (from allotd)")
        ->required()
        ->check(CLI::IsMember({"verify", "log"}));
    subcommand.add_option("--dir", dir_, "verify: the audit log's folder")->capture_default_str();
    subcommand.add_option("--checkpoints", checkpoints_,
                          "verify: the checkpoint folder (default: audit-checkpoints next to "
                          "--dir)");
    subcommand.add_option("--key", key_,
                          "verify: the public key file (default: audit-key.pub next to --dir)");
    subcommand.add_option("--user", user_, "log: only this user's records");
    subcommand.add_option("--verb", verb_, "log: only this verb (create, delete, admit, ...)");
    subcommand.add_option("--namespace", namespace_, "log: only records of this namespace");
    subcommand.add_option("--since", since_, "log: from this time (RFC 3339)");
    subcommand.add_option("--until", until_, "log: before this time (RFC 3339)");
    subcommand.add_option("--limit", limit_, "log: at most this many (the newest)");
    subcommand.add_option("-o,--output", output_, "Output format: table or json")
        ->check(CLI::IsMember({"table", "json"}));
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override { return action_ == "verify" ? verify(io) : log(io); }

 private:
  int verify(CliIo& io) const {
    const std::filesystem::path parent =
        std::filesystem::path(dir_).lexically_normal().parent_path();
    const std::string checkpoints =
        checkpoints_.empty() ? (parent / "audit-checkpoints").string() : checkpoints_;
    const std::string key = key_.empty() ? (parent / "audit-key.pub").string() : key_;
    if (!std::filesystem::is_directory(dir_)) {
      io.err << "error: --dir " << dir_ << " is not a folder\n";
      return kExitUsage;
    }
    const Result<std::string> public_key = audit::read_audit_public_key(key);
    if (!public_key.ok()) return report_error(io, public_key.status());
    const Result<VerificationReport> report =
        audit::verify_audit_log(dir_, checkpoints, *public_key);
    if (!report.ok()) return report_error(io, report.status());
    if (output_ == "json") {
      io.out << audit::verification_report_json(*report).dump(2) << "\n";
    } else {
      print_report(io.out, *report);
    }
    return report->ok() ? kExitOk : kExitFailure;
  }

  int log(CliIo& io) const {
    Result<ApiClient> client = open_api_client(server_);
    if (!client.ok()) return report_error(io, client.status());
    std::string path = "/api/v1/audit?limit=" + std::to_string(limit_);
    const auto add = [&](const char* name, const std::string& value) {
      if (!value.empty()) path += std::string("&") + name + "=" + percent_encode(value);
    };
    add("user", user_);
    add("verb", verb_);
    add("namespace", namespace_);
    add("since", since_);
    add("until", until_);
    const Result<ApiResponse> response = client->get(path);
    if (!response.ok()) return report_error(io, response.status());
    const Result<nlohmann::json> list = response->json();
    if (!list.ok()) return report_error(io, list.status());
    if (output_ == "json") {
      io.out << list->dump(2) << "\n";
    } else {
      io.out << table_of(*list);
    }
    return kExitOk;
  }

  std::string action_;
  std::string dir_ = "audit";
  std::string checkpoints_;
  std::string key_;
  std::string user_;
  std::string verb_;
  std::string namespace_;
  std::string since_;
  std::string until_;
  size_t limit_ = 1000;
  std::string output_ = "table";
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_audit_command() { return std::make_unique<AuditCommand>(); }

}  // namespace allot::cli
