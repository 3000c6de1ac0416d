// A project's evidence report (issue 15, item 7; docs/governance.md):
// GET /api/v1/evidence?project=P[&from=T][&to=T]. The body is evidence.json
// itself (the bytes `allot evidence export` writes), and the header
// X-Allot-Evidence-Signature carries the Ed25519 signature (hex) of those
// bytes with the audit log's key. allotd renders the other files of the
// export from those bytes (api/evidence_report.h) and sends their SHA-256
// (X-Allot-Evidence-Manifest: NAME=HEX,... in name order, evidence.json
// among them) and the signature of their manifest, SHA256SUMS
// (X-Allot-Evidence-Manifest-Signature), so that every file of the export
// is signed. The audit section reads only the log files whose records can
// fall in the period, streaming (audit::read_audit_range()); its
// verification covers the whole chain. 404 audit_disabled without an audit
// log: there is nothing to sign with, and no audit range to show.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/cluster_view_json.h"
#include "api/evidence_report.h"
#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"
#include "server/usage_report_json.h"
#include "service/audit/audit_files.h"
#include "service/audit/audit_range.h"
#include "service/audit/audit_reading.h"

namespace allot::server {
namespace {

Result<std::optional<Timestamp>> evidence_time(const HttpRequest& req, const char* name) {
  if (!req.has_param(name)) return std::optional<Timestamp>();
  Result<Timestamp> at = parse_rfc3339(req.get_param_value(name));
  if (!at.ok()) return invalid_argument(at.status().message(), name);
  return std::optional<Timestamp>(*at);
}

std::string evidence_string(const nlohmann::json& object, const char* key) {
  return object.is_object() && object.contains(key) && object.at(key).is_string()
             ? object.at(key).get<std::string>()
             : std::string();
}

// Whether an audit record concerns the project: its namespaces, its
// contracts or its teams' exceptions.
bool concerns_project(const nlohmann::json& record, const std::set<std::string>& namespaces,
                      const std::set<std::string>& contracts,
                      const std::set<std::string>& exceptions) {
  if (!record.contains("objectRef")) return false;
  const nlohmann::json& ref = record.at("objectRef");
  const std::string resource = evidence_string(ref, "resource");
  const std::string name = evidence_string(ref, "name");
  if (namespaces.contains(evidence_string(ref, "namespace"))) return true;
  if (resource == "contracts") return contracts.contains(name);
  return resource == "policyexceptions" && exceptions.contains(name);
}

Result<nlohmann::json> audit_section(const audit::AuditLog& log, const ProjectEvidence& evidence) {
  std::set<std::string> namespaces(evidence.namespaces.begin(), evidence.namespaces.end());
  std::set<std::string> contracts;
  for (const PolicyObjectView& view : evidence.contracts) contracts.insert(view.name);
  std::set<std::string> exceptions;
  for (const PolicyObjectView& view : evidence.exceptions) exceptions.insert(view.name);
  uint64_t first = 0;
  uint64_t last = 0;
  nlohmann::json items = nlohmann::json::array();
  ALLOT_ASSIGN_OR_RETURN(
      const audit::AuditRangeRead read,
      audit::read_audit_range(log.options().dir, evidence.from, evidence.to,
                              [&](nlohmann::json record) {
                                const auto sequence = record.find("sequence");
                                if (sequence == record.end() || !sequence->is_number_unsigned()) {
                                  return;
                                }
                                if (first == 0) first = sequence->get<uint64_t>();
                                last = sequence->get<uint64_t>();
                                if (concerns_project(record, namespaces, contracts, exceptions)) {
                                  items.push_back(std::move(record));
                                }
                              }));
  ALLOT_ASSIGN_OR_RETURN(const governance::VerificationReport report, log.verify());
  nlohmann::json section = nlohmann::json::object();
  section["publicKey"] = log.public_key_hex();
  section["firstSequence"] = first;
  section["lastSequence"] = last;
  section["recordsInPeriod"] = read.records;
  section["projectRecords"] = items.size();
  section["filesRead"] = read.files_read;
  section["files"] = read.files;
  section["verification"] = audit::verification_report_json(report);
  section["records"] = std::move(items);
  return section;
}

Result<nlohmann::json> views_json(const std::vector<PolicyObjectView>& views) {
  nlohmann::json out = nlohmann::json::array();
  for (const PolicyObjectView& view : views) {
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json object, policy_object_json(view));
    out.push_back(std::move(object));
  }
  return out;
}

// Each exception's decision beside its status: status.decidedAt and
// status.decisionReason, from the last approve or reject of its history
// (absent while undecided: no decidedBy).
void add_exception_decisions(nlohmann::json& exceptions) {
  for (nlohmann::json& exception : exceptions) {
    if (!exception.contains("status") || !exception.at("status").is_object()) continue;
    nlohmann::json& status = exception.at("status");
    if (evidence_string(status, "decidedBy").empty()) continue;
    const nlohmann::json history = status.value("history", nlohmann::json::array());
    for (auto step = history.rbegin(); step != history.rend(); ++step) {
      const std::string action = evidence_string(*step, "action");
      if (action != "approve" && action != "reject") continue;
      status["decidedAt"] = evidence_string(*step, "at");
      status["decisionReason"] = evidence_string(*step, "reason");
      break;
    }
  }
}

// The approvals and reviews of every contract, from their histories.
void add_history_sections(nlohmann::json& body, const ProjectEvidence& evidence) {
  nlohmann::json approvals = nlohmann::json::array();
  nlohmann::json reviews = nlohmann::json::array();
  for (const PolicyObjectView& view : evidence.contracts) {
    const ContractStandingView& standing = *view.contract;
    for (const ContractTransition& step : standing.status.history) {
      const nlohmann::json entry = {{"contract", view.name},
                                    {"action", contract_action_name(step.action)},
                                    {"by", step.by},
                                    {"at", format_rfc3339(step.at)},
                                    {"reason", step.reason}};
      if (step.action == ContractAction::kApprove) approvals.push_back(entry);
      if (step.action == ContractAction::kReview || step.action == ContractAction::kRenew ||
          step.action == ContractAction::kActivate) {
        reviews.push_back(entry);
      }
    }
  }
  body["approvals"] = std::move(approvals);
  body["reviews"] = std::move(reviews);
}

Result<std::string> evidence_body(const Principal& caller, const audit::AuditLog& log,
                                  const ProjectEvidence& evidence) {
  nlohmann::json body = {
      {"apiVersion", "allot/v1"},
      {"kind", "Evidence"},
      {"project", evidence.project},
      {"period", {{"from", format_rfc3339(evidence.from)}, {"to", format_rfc3339(evidence.to)}}},
      {"generatedAt", format_rfc3339(evidence.generated_at)},
      {"generatedBy", caller.subject},
      {"namespaces", evidence.namespaces},
      {"teams", evidence.teams}};
  ALLOT_ASSIGN_OR_RETURN(body["contracts"], views_json(evidence.contracts));
  add_history_sections(body, evidence);
  ALLOT_ASSIGN_OR_RETURN(body["exceptions"], views_json(evidence.exceptions));
  add_exception_decisions(body["exceptions"]);
  ALLOT_ASSIGN_OR_RETURN(body["bindings"]["roleBindings"], views_json(evidence.role_bindings));
  ALLOT_ASSIGN_OR_RETURN(body["bindings"]["clusterRoleBindings"],
                         views_json(evidence.cluster_role_bindings));
  body["usage"] = evidence.usage ? usage_report_json(evidence.usage->report, evidence.usage->rates)
                                 : nlohmann::json();
  ALLOT_ASSIGN_OR_RETURN(body["audit"], audit_section(log, evidence));
  return body.dump(2) + "\n";
}

void get_evidence(ControlPlane& plane, audit::AuditLog& log, const HttpRequest& req,
                  HttpResponse& res) {
  if (!req.has_param("project")) {
    return send_error(res, invalid_argument("the evidence needs `project`", "project"));
  }
  const Result<std::optional<Timestamp>> from = evidence_time(req, "from");
  if (!from.ok()) return send_error(res, from.status());
  const Result<std::optional<Timestamp>> to = evidence_time(req, "to");
  if (!to.ok()) return send_error(res, to.status());
  const Principal caller = caller_of(req);
  const Result<ProjectEvidence> evidence =
      plane.evidence().collect(caller, req.get_param_value("project"), *from, *to);
  if (!evidence.ok()) return send_error(res, evidence.status());
  // The records of answered requests that wait for the log's writer thread.
  if (Status flushed = log.flush(); !flushed.ok()) return send_error(res, flushed);
  Result<std::string> body = evidence_body(caller, log, *evidence);
  if (!body.ok()) return send_error(res, body.status());
  std::map<std::string, std::string> files =
      evidence_files(nlohmann::json::parse(*body, nullptr, false));
  files["evidence.json"] = *body;
  std::string hashes;
  for (const auto& [name, bytes] : files) {
    hashes += (hashes.empty() ? "" : ",") + name + "=" + audit::audit_sha256_hex(bytes);
  }
  res.status = 200;
  res.set_header("X-Allot-Evidence-Signature", log.sign_hex(*body));
  res.set_header("X-Allot-Evidence-Manifest", hashes);
  res.set_header("X-Allot-Evidence-Manifest-Signature",
                 log.sign_hex(evidence_manifest(files, audit::audit_sha256_hex)));
  res.set_content(std::move(*body), "application/json");
}

}  // namespace

void add_evidence_routes(Router& http, ControlPlane& plane, audit::AuditLog* audit) {
  http.get("/api/v1/evidence", [&plane, audit](const HttpRequest& req, HttpResponse& res) {
    if (audit == nullptr) {
      return send_error(res, 404, "audit_disabled",
                        "this allotd keeps no audit log (--audit=off): no evidence to sign");
    }
    get_evidence(plane, *audit, req, res);
  });
}

}  // namespace allot::server
