#include "cli/verbs/evidence_command.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/client/api_paths.h"
#include "cli/output/evidence_report.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"
#include "identity/credentials/signing_key.h"
#include "service/audit/audit_key.h"

namespace allot::cli {
namespace {

Status write_evidence_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  out.close();
  if (!out) return Status(ErrorCode::kUnavailable, "cannot write " + path.string());
  return {};
}

Result<std::string> read_evidence_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(ErrorCode::kNotFound, "cannot read " + path.string());
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

class EvidenceCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("action", action_, "export (from allotd) or verify (offline)")
        ->required()
        ->check(CLI::IsMember({"export", "verify"}));
    subcommand.add_option("dir", verify_dir_, "verify: the folder an export wrote");
    subcommand.add_option("--project", project_, "export: the project (its contracts' project)");
    subcommand.add_option("--from", from_,
                          "export: from this time (RFC 3339; default: the "
                          "creation of the project's first contract)");
    subcommand.add_option("--to", to_, "export: before this time (RFC 3339; default: now)");
    subcommand.add_option("--out", out_, "export: the folder to write");
    subcommand.add_option("--key", key_, "verify: the audit log's public key file");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override { return action_ == "export" ? export_evidence(io) : verify(io); }

 private:
  int export_evidence(CliIo& io) const {
    if (project_.empty() || out_.empty()) {
      io.err << "error: allot evidence export needs --project and --out\n";
      return kExitUsage;
    }
    Result<ApiClient> client = open_api_client(server_);
    if (!client.ok()) return report_error(io, client.status());
    std::string path = "/api/v1/evidence?project=" + percent_encode(project_);
    if (!from_.empty()) path += "&from=" + percent_encode(from_);
    if (!to_.empty()) path += "&to=" + percent_encode(to_);
    const Result<ApiResponse> response = client->get(path);
    if (!response.ok()) return report_error(io, response.status());
    const Result<nlohmann::json> evidence = response->json();
    if (!evidence.ok()) return report_error(io, evidence.status());
    const std::string signature = response->header("X-Allot-Evidence-Signature");
    if (signature.empty()) {
      return report_error(io, Status(ErrorCode::kInternal, "allotd sent no signature"));
    }
    std::error_code made;
    std::filesystem::create_directories(out_, made);
    if (made) return report_error(io, Status(ErrorCode::kUnavailable, "cannot make " + out_));
    const std::filesystem::path dir(out_);
    std::map<std::string, std::string> files = evidence_files(*evidence);
    files["evidence.json"] = response->body;
    files["evidence.json.sig"] = signature + "\n";
    for (const auto& [name, bytes] : files) {
      if (Status written = write_evidence_file(dir / name, bytes); !written.ok()) {
        return report_error(io, written);
      }
    }
    io.out << "evidence of project " << project_ << " written to " << out_ << " (" << files.size()
           << " files; signature in evidence.json.sig)\n";
    return kExitOk;
  }

  int verify(CliIo& io) const {
    if (verify_dir_.empty() || key_.empty()) {
      io.err << "error: allot evidence verify needs DIR and --key\n";
      return kExitUsage;
    }
    const std::filesystem::path dir(verify_dir_);
    // A file that cannot be read: exit 2, as a usage error.
    const auto unreadable = [&io](const Status& status) {
      io.err << "error: " << error_text(status) << "\n";
      return kExitUsage;
    };
    const Result<std::string> key = audit::read_audit_public_key(key_);
    if (!key.ok()) return unreadable(key.status());
    const Result<std::string> evidence = read_evidence_file(dir / "evidence.json");
    if (!evidence.ok()) return unreadable(evidence.status());
    const Result<std::string> signature = read_evidence_file(dir / "evidence.json.sig");
    if (!signature.ok()) return unreadable(signature.status());
    std::string hex = *signature;
    while (!hex.empty() && (hex.back() == '\n' || hex.back() == '\r')) hex.pop_back();
    if (!identity::verify_hex(*key, *evidence, hex)) {
      io.out << "evidence NOT verified: evidence.json.sig is not the audit key's signature of "
                "evidence.json\n";
      return kExitFailure;
    }
    io.out << "evidence verified: evidence.json is signed by the audit key\n";
    return kExitOk;
  }

  std::string action_;
  std::string verify_dir_;
  std::string project_;
  std::string from_;
  std::string to_;
  std::string out_;
  std::string key_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_evidence_command() { return std::make_unique<EvidenceCommand>(); }

}  // namespace allot::cli
