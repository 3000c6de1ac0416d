// A project's evidence report (issue 15, item 7; docs/governance.md):
// GET /api/v1/evidence?project=P[&from=T][&to=T]. The body is evidence.json
// itself (the bytes `allot evidence export` writes), and the header
// X-Allot-Evidence-Signature carries the Ed25519 signature (hex) of those
// bytes with the audit log's key. 404 audit_disabled without an audit log:
// there is nothing to sign with, and no audit range to show.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/cluster_view_json.h"
#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"
#include "server/usage_report_json.h"
#include "service/audit/audit_reading.h"

namespace allot::server {
namespace {

// The newest records of the project an evidence report lists at most.
constexpr size_t kMaxEvidenceRecords = 10'000;

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
  audit::AuditQuery query;
  query.since = evidence.from;
  query.until = evidence.to;
  query.limit = SIZE_MAX;
  ALLOT_ASSIGN_OR_RETURN(const std::vector<std::string> lines,
                         audit::query_audit_log(log.options().dir, query));
  nlohmann::json section = nlohmann::json::object();
  uint64_t first = 0;
  uint64_t last = 0;
  std::vector<nlohmann::json> items;
  for (const std::string& line : lines) {
    nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    if (!record.is_object() || !record.contains("sequence") ||
        !record.at("sequence").is_number_unsigned()) {
      continue;
    }
    const auto sequence = record.at("sequence").get<uint64_t>();
    if (first == 0) first = sequence;
    last = sequence;
    if (concerns_project(record, namespaces, contracts, exceptions)) {
      items.push_back(std::move(record));
    }
  }
  const size_t total = items.size();
  if (items.size() > kMaxEvidenceRecords) {
    items.erase(items.begin(), items.end() - static_cast<std::ptrdiff_t>(kMaxEvidenceRecords));
  }
  ALLOT_ASSIGN_OR_RETURN(const governance::VerificationReport report, log.verify());
  section["publicKey"] = log.public_key_hex();
  section["firstSequence"] = first;
  section["lastSequence"] = last;
  section["recordsInPeriod"] = lines.size();
  section["projectRecords"] = total;
  section["projectRecordsListed"] = items.size();
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
  ALLOT_ASSIGN_OR_RETURN(body["bindings"]["roleBindings"], views_json(evidence.role_bindings));
  ALLOT_ASSIGN_OR_RETURN(body["bindings"]["clusterRoleBindings"],
                         views_json(evidence.cluster_role_bindings));
  body["usage"] = evidence.usage ? usage_report_json(evidence.usage->report, evidence.usage->rates)
                                 : nlohmann::json();
  ALLOT_ASSIGN_OR_RETURN(body["audit"], audit_section(log, evidence));
  return body.dump(2) + "\n";
}

void get_evidence(ControlPlane& plane, const audit::AuditLog& log, const HttpRequest& req,
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
  Result<std::string> body = evidence_body(caller, log, *evidence);
  if (!body.ok()) return send_error(res, body.status());
  res.status = 200;
  res.set_header("X-Allot-Evidence-Signature", log.sign_hex(*body));
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
