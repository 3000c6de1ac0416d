#include "cli/verbs/evidence_command.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "api/evidence_report.h"
#include "cli/client/api_paths.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"
#include "identity/credentials/signing_key.h"
#include "service/audit/audit_files.h"
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

std::string evidence_hex_sha256(std::string_view bytes) { return audit::audit_sha256_hex(bytes); }

// The first file whose hash differs from allotd's (NAME=HEX,... as the
// X-Allot-Evidence-Manifest header sends them); "" when all agree.
std::string evidence_render_mismatch(const std::map<std::string, std::string>& files,
                                     const std::string& header) {
  std::map<std::string, std::string> sent;
  std::istringstream items(header);
  for (std::string item; std::getline(items, item, ',');) {
    const size_t equals = item.find('=');
    if (equals != std::string::npos) sent[item.substr(0, equals)] = item.substr(equals + 1);
  }
  for (const auto& [name, bytes] : files) {
    const auto it = sent.find(name);
    if (it == sent.end() || it->second != evidence_hex_sha256(bytes)) return name;
  }
  return sent.size() == files.size() ? std::string() : std::string("(a file allotd lists)");
}

// Each line "HEX  NAME" of a manifest: the first file missing or with another
// hash, "" when all match; `count` the files listed.
Result<std::string> evidence_manifest_mismatch(const std::filesystem::path& dir,
                                               const std::string& manifest, size_t& count) {
  std::istringstream lines(manifest);
  count = 0;
  bool evidence_listed = false;
  for (std::string line; std::getline(lines, line);) {
    const size_t gap = line.find("  ");
    if (gap == std::string::npos) return std::string(kEvidenceManifest);
    const std::string name = line.substr(gap + 2);
    if (name.empty() || name.find('/') != std::string::npos || name.starts_with(".")) {
      return std::string(kEvidenceManifest);
    }
    Result<std::string> bytes = read_evidence_file(dir / name);
    if (!bytes.ok()) return bytes.status();
    if (evidence_hex_sha256(*bytes) != line.substr(0, gap)) return name;
    evidence_listed = evidence_listed || name == "evidence.json";
    ++count;
  }
  return evidence_listed ? std::string() : std::string("evidence.json (not listed)");
}

// Reads NAME.sig beside NAME and checks it is `key`'s signature of NAME's bytes.
Result<bool> evidence_signed(const std::filesystem::path& dir, const std::string& name,
                             const std::string& key) {
  ALLOT_ASSIGN_OR_RETURN(const std::string bytes, read_evidence_file(dir / name));
  ALLOT_ASSIGN_OR_RETURN(std::string hex, read_evidence_file(dir / (name + ".sig")));
  while (!hex.empty() && (hex.back() == '\n' || hex.back() == '\r')) hex.pop_back();
  return identity::verify_hex(key, bytes, hex);
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
    const std::string manifest_signature = response->header("X-Allot-Evidence-Manifest-Signature");
    if (signature.empty() || manifest_signature.empty()) {
      return report_error(io, Status(ErrorCode::kInternal, "allotd sent no signature"));
    }
    std::map<std::string, std::string> files = evidence_files(*evidence);
    files["evidence.json"] = response->body;
    const std::string differs =
        evidence_render_mismatch(files, response->header("X-Allot-Evidence-Manifest"));
    if (!differs.empty()) {
      return report_error(
          io, Status(ErrorCode::kFailedPrecondition,
                     "allotd renders " + differs +
                         " otherwise than this allot (another version?): its signature would "
                         "not cover it; export with the allot of allotd's version"));
    }
    files[kEvidenceManifest] = evidence_manifest(files, evidence_hex_sha256);
    files[std::string(kEvidenceManifest) + ".sig"] = manifest_signature + "\n";
    files["evidence.json.sig"] = signature + "\n";
    std::error_code made;
    std::filesystem::create_directories(out_, made);
    if (made) return report_error(io, Status(ErrorCode::kUnavailable, "cannot make " + out_));
    const std::filesystem::path dir(out_);
    for (const auto& [name, bytes] : files) {
      if (Status written = write_evidence_file(dir / name, bytes); !written.ok()) {
        return report_error(io, written);
      }
    }
    io.out << "evidence of project " << project_ << " written to " << out_ << " (" << files.size()
           << " files; signed: evidence.json.sig, and SHA256SUMS.sig for every file)\n";
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
    for (const char* name : {"evidence.json", kEvidenceManifest}) {
      const Result<bool> signed_by_key = evidence_signed(dir, name, *key);
      if (!signed_by_key.ok()) return unreadable(signed_by_key.status());
      if (!*signed_by_key) {
        io.out << "evidence NOT verified: " << name << ".sig is not the audit key's signature of "
               << name << "\n";
        return kExitFailure;
      }
    }
    const Result<std::string> manifest = read_evidence_file(dir / kEvidenceManifest);
    if (!manifest.ok()) return unreadable(manifest.status());
    size_t count = 0;
    const Result<std::string> changed = evidence_manifest_mismatch(dir, *manifest, count);
    if (!changed.ok()) return unreadable(changed.status());
    if (!changed->empty()) {
      io.out << "evidence NOT verified: " << *changed << " does not match the signed "
             << kEvidenceManifest << "\n";
      return kExitFailure;
    }
    io.out << "evidence verified: evidence.json and " << kEvidenceManifest
           << " are signed by the audit key, and the " << count << " files it lists match\n";
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
