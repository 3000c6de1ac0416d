#include "service/audit/audit_reading.h"

#include <deque>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "governance/hash_chain.h"
#include "identity/credentials/signing_key.h"
#include "service/audit/audit_files.h"

namespace allot::audit {
namespace {

std::string string_at(const nlohmann::json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

bool matches(const nlohmann::json& record, const AuditQuery& query) {
  if (!record.is_object()) return false;
  if (query.user) {
    const auto user = record.find("user");
    if (user == record.end() || !user->is_object() || string_at(*user, "username") != *query.user) {
      return false;
    }
  }
  if (query.verb && string_at(record, "verb") != *query.verb) return false;
  if (query.namespace_name) {
    const auto ref = record.find("objectRef");
    if (ref == record.end() || !ref->is_object() ||
        string_at(*ref, "namespace") != *query.namespace_name) {
      return false;
    }
  }
  if (query.since || query.until) {
    const Result<Timestamp> at = parse_rfc3339(string_at(record, "stageTimestamp"));
    if (!at.ok()) return false;
    if (query.since && *at < *query.since) return false;
    if (query.until && !(*at < *query.until)) return false;
  }
  return true;
}

}  // namespace

Result<governance::VerificationReport> verify_audit_log(const std::string& dir,
                                                        const std::string& checkpoint_dir,
                                                        const std::string& public_key) {
  std::vector<governance::AuditLineText> checkpoints;
  const std::string checkpoint_path = checkpoint_dir + "/" + std::string(kCheckpointFile);
  if (std::filesystem::exists(checkpoint_path)) {
    ALLOT_ASSIGN_OR_RETURN(
        const std::string torn,
        for_each_line(checkpoint_path, [&](uint64_t line, std::string_view text) {
          checkpoints.push_back({checkpoint_path, line, std::string(text)});
        }));
    if (!torn.empty()) checkpoints.push_back({checkpoint_path, checkpoints.size() + 1, torn});
  }
  const governance::CheckSignature check = [&](std::string_view payload,
                                               std::string_view signature) {
    return identity::verify_hex(public_key, payload, signature);
  };
  governance::ChainVerifier verifier(audit_sha256_hex, check, checkpoints);
  ALLOT_ASSIGN_OR_RETURN(const std::vector<std::string> files, audit_log_files(dir));
  for (const std::string& file : files) {
    uint64_t last = 0;
    ALLOT_ASSIGN_OR_RETURN(const std::string torn,
                           for_each_line(file, [&](uint64_t line, std::string_view text) {
                             last = line;
                             verifier.add_line(file, line, text);
                           }));
    if (!torn.empty()) verifier.add_torn_line(file, last + 1, torn);
  }
  return verifier.finish();
}

Result<std::vector<std::string>> query_audit_log(const std::string& dir, const AuditQuery& query) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<std::string> files, audit_log_files(dir));
  std::deque<std::string> found;
  for (const std::string& file : files) {
    ALLOT_ASSIGN_OR_RETURN(
        const std::string torn, for_each_line(file, [&](uint64_t, std::string_view text) {
          const nlohmann::json record = nlohmann::json::parse(text, nullptr, false);
          if (record.is_discarded() || !matches(record, query)) return;
          found.emplace_back(text);
          if (found.size() > query.limit) found.pop_front();
        }));
    (void)torn;
  }
  return std::vector<std::string>(found.begin(), found.end());
}

nlohmann::json verification_report_json(const governance::VerificationReport& report) {
  nlohmann::json problems = nlohmann::json::array();
  for (const governance::AuditProblem& problem : report.problems) {
    problems.push_back({{"kind", governance::audit_problem_name(problem.kind)},
                        {"sequence", problem.sequence},
                        {"file", problem.file},
                        {"line", problem.line},
                        {"message", problem.message}});
  }
  return {{"verified", report.ok()},
          {"records", report.records},
          {"lastSequence", report.last_sequence},
          {"checkpoints", report.checkpoints},
          {"coveredThrough", report.covered_through},
          {"uncoveredTail", report.uncovered_tail},
          {"problems", problems}};
}

Result<std::unordered_set<std::string>> audit_ids_after(const std::string& dir, uint64_t after) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<std::string> files, audit_log_files(dir));
  std::unordered_set<std::string> ids;
  for (auto file = files.rbegin(); file != files.rend(); ++file) {
    bool reached = false;
    const Result<std::string> read = for_each_line(*file, [&](uint64_t, std::string_view text) {
      const std::optional<governance::LineHeader> header = governance::parse_line_header(text);
      if (!header) return;
      if (header->sequence <= after) {
        reached = true;
        return;
      }
      const nlohmann::json record = nlohmann::json::parse(text, nullptr, false);
      if (record.is_object()) ids.insert(string_at(record, "auditID"));
    });
    if (!read.ok()) return read.status();
    if (reached) break;
  }
  return ids;
}

}  // namespace allot::audit
