#include "api/evidence_report.h"

#include <sstream>
#include <string>
#include <vector>

#include "api/markup_escape.h"
#include "api/usage_report_csv.h"

namespace allot {
namespace {

using EvidenceJson = nlohmann::json;

// A member of `object` as text: strings as they are, other values as JSON,
// "" when absent.
std::string evidence_text(const EvidenceJson& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) return {};
  const EvidenceJson& value = object.at(key);
  if (value.is_string()) return value.get<std::string>();
  return value.is_null() ? std::string() : value.dump();
}

const EvidenceJson& evidence_member(const EvidenceJson& object, const char* key) {
  static const EvidenceJson kNull;
  return object.is_object() && object.contains(key) ? object.at(key) : kNull;
}

const EvidenceJson& evidence_list(const EvidenceJson& object, const char* key) {
  static const EvidenceJson kEmpty = EvidenceJson::array();
  const EvidenceJson& value = evidence_member(object, key);
  return value.is_array() ? value : kEmpty;
}

using EvidenceRows = std::vector<std::vector<std::string>>;

std::string evidence_csv(const std::vector<std::string>& header, const EvidenceRows& rows) {
  std::string out;
  const auto line = [&out](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + csv_field(cells[i]);
    out += "\n";
  };
  line(header);
  for (const auto& row : rows) line(row);
  return out;
}

const std::vector<std::string> kHistoryHeader = {"contract", "action", "from",  "to",
                                                 "by",       "at",     "reason"};
const std::vector<std::string> kExceptionHeader = {
    "name",    "team",  "relaxes",     "owner",     "approver",  "reason",
    "expires", "phase", "requestedBy", "decidedBy", "decidedAt", "decisionReason"};
const std::vector<std::string> kBindingHeader = {"kind",     "namespace", "name",
                                                 "roleKind", "role",      "subjects"};

EvidenceRows history_rows(const EvidenceJson& evidence) {
  EvidenceRows rows;
  for (const EvidenceJson& contract : evidence_list(evidence, "contracts")) {
    const std::string name = evidence_text(evidence_member(contract, "metadata"), "name");
    for (const EvidenceJson& step : evidence_list(evidence_member(contract, "status"), "history")) {
      rows.push_back({name, evidence_text(step, "action"), evidence_text(step, "from"),
                      evidence_text(step, "to"), evidence_text(step, "by"),
                      evidence_text(step, "at"), evidence_text(step, "reason")});
    }
  }
  return rows;
}

EvidenceRows exception_rows(const EvidenceJson& evidence) {
  EvidenceRows rows;
  for (const EvidenceJson& exception : evidence_list(evidence, "exceptions")) {
    const EvidenceJson& spec = evidence_member(exception, "spec");
    const EvidenceJson& status = evidence_member(exception, "status");
    rows.push_back({evidence_text(evidence_member(exception, "metadata"), "name"),
                    evidence_text(spec, "team"), evidence_text(spec, "relaxes"),
                    evidence_text(spec, "owner"), evidence_text(spec, "approver"),
                    evidence_text(spec, "reason"), evidence_text(spec, "expires"),
                    evidence_text(status, "phase"), evidence_text(status, "requestedBy"),
                    evidence_text(status, "decidedBy"), evidence_text(status, "decidedAt"),
                    evidence_text(status, "decisionReason")});
  }
  return rows;
}

EvidenceRows binding_rows(const EvidenceJson& evidence) {
  EvidenceRows rows;
  const EvidenceJson& bindings = evidence_member(evidence, "bindings");
  for (const char* list : {"roleBindings", "clusterRoleBindings"}) {
    for (const EvidenceJson& binding : evidence_list(bindings, list)) {
      std::string subjects;
      for (const EvidenceJson& subject : evidence_list(binding, "subjects")) {
        subjects += (subjects.empty() ? "" : ";") + evidence_text(subject, "kind") + ":" +
                    evidence_text(subject, "name");
      }
      const EvidenceJson& meta = evidence_member(binding, "metadata");
      const EvidenceJson& role = evidence_member(binding, "roleRef");
      rows.push_back({evidence_text(binding, "kind"), evidence_text(meta, "namespace"),
                      evidence_text(meta, "name"), evidence_text(role, "kind"),
                      evidence_text(role, "name"), subjects});
    }
  }
  return rows;
}

std::string evidence_html_table(const std::vector<std::string>& header, const EvidenceRows& rows,
                                const std::string& id) {
  std::string out = "<table id=\"" + id + "\"><thead><tr>";
  for (const std::string& cell : header) out += "<th>" + escape_markup(cell) + "</th>";
  out += "</tr></thead><tbody>";
  for (const auto& row : rows) {
    out += "<tr>";
    for (const std::string& cell : row) out += "<td>" + escape_markup(cell) + "</td>";
    out += "</tr>";
  }
  if (rows.empty()) {
    out += "<tr><td colspan=\"" + std::to_string(header.size()) + "\">none</td></tr>";
  }
  return out + "</tbody></table>\n";
}

// The entries (approvals or reviews) of the evidence as rows.
EvidenceRows entry_rows(const EvidenceJson& evidence, const char* key) {
  EvidenceRows rows;
  for (const EvidenceJson& entry : evidence_list(evidence, key)) {
    rows.push_back({evidence_text(entry, "contract"), evidence_text(entry, "action"),
                    evidence_text(entry, "by"), evidence_text(entry, "at"),
                    evidence_text(entry, "reason")});
  }
  return rows;
}

std::string contracts_html(const EvidenceJson& evidence) {
  std::string out;
  for (const EvidenceJson& contract : evidence_list(evidence, "contracts")) {
    const EvidenceJson& status = evidence_member(contract, "status");
    out += "<h3>Contract " +
           escape_markup(evidence_text(evidence_member(contract, "metadata"), "name")) + "</h3>";
    EvidenceRows terms = {{"phase", evidence_text(status, "phase")},
                          {"requestedBy", evidence_text(status, "requestedBy")},
                          {"approvedBy", evidence_text(status, "approvedBy")},
                          {"reviewedAt", evidence_text(status, "reviewedAt")},
                          {"reviewDue", evidence_text(status, "reviewDue")},
                          {"reviewGraceEnds", evidence_text(status, "reviewGraceEnds")}};
    const EvidenceJson& spec = evidence_member(contract, "spec");
    if (spec.is_object()) {
      for (const auto& [key, value] : spec.items()) {
        terms.push_back({key, value.is_string() ? value.get<std::string>() : value.dump()});
      }
    }
    out += evidence_html_table({"field", "value"}, terms, "contract-terms");
  }
  return out;
}

std::string audit_html(const EvidenceJson& evidence) {
  const EvidenceJson& audit = evidence_member(evidence, "audit");
  const EvidenceJson& verification = evidence_member(audit, "verification");
  const bool verified = evidence_member(verification, "verified") == EvidenceJson(true);
  EvidenceRows facts = {{"first sequence in period", evidence_text(audit, "firstSequence")},
                        {"last sequence in period", evidence_text(audit, "lastSequence")},
                        {"records in period", evidence_text(audit, "recordsInPeriod")},
                        {"records of the project", evidence_text(audit, "projectRecords")},
                        {"verified", verified ? "yes" : "NO"},
                        {"records verified", evidence_text(verification, "records")},
                        {"valid checkpoints", evidence_text(verification, "checkpoints")},
                        {"covered through", evidence_text(verification, "coveredThrough")},
                        {"uncovered tail", evidence_text(verification, "uncoveredTail")},
                        {"audit public key", evidence_text(audit, "publicKey")}};
  for (const EvidenceJson& problem : evidence_list(verification, "problems")) {
    facts.push_back(
        {"problem: " + evidence_text(problem, "kind"), evidence_text(problem, "message")});
  }
  EvidenceRows records;
  for (const EvidenceJson& record : evidence_list(audit, "records")) {
    const EvidenceJson& ref = evidence_member(record, "objectRef");
    records.push_back({evidence_text(record, "sequence"), evidence_text(record, "stageTimestamp"),
                       evidence_text(evidence_member(record, "user"), "username"),
                       evidence_text(record, "verb"), evidence_text(ref, "resource"),
                       evidence_text(ref, "namespace"), evidence_text(ref, "name"),
                       evidence_text(evidence_member(record, "responseStatus"), "code")});
  }
  return evidence_html_table({"what", "value"}, facts, "audit-range") +
         evidence_html_table(
             {"seq", "time", "user", "verb", "resource", "namespace", "name", "code"}, records,
             "audit-records");
}

std::string evidence_html(const EvidenceJson& evidence, const std::string& usage_csv) {
  const std::string project = escape_markup(evidence_text(evidence, "project"));
  const EvidenceJson& period = evidence_member(evidence, "period");
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      << "<title>Evidence: " << project << "</title><style>"
      << "body{font-family:sans-serif;margin:1.5em;max-width:70em}"
      << "table{border-collapse:collapse;margin:.5em 0 1.5em;display:block;overflow-x:auto}"
      << "th,td{border:1px solid #999;padding:.2em .5em;text-align:left;vertical-align:top}"
      << "</style></head><body>\n<h1>Evidence: project " << project << "</h1>\n<p>Period "
      << escape_markup(evidence_text(period, "from")) << " to "
      << escape_markup(evidence_text(period, "to")) << "; generated "
      << escape_markup(evidence_text(evidence, "generatedAt")) << " for "
      << escape_markup(evidence_text(evidence, "generatedBy"))
      << ". Namespaces: " << escape_markup(evidence_text(evidence, "namespaces"))
      << ". Signed with the audit key: evidence.json (evidence.json.sig) and every file of the "
      << "export (SHA256SUMS, SHA256SUMS.sig).</p>\n<h2>Contracts</h2>\n"
      << contracts_html(evidence) << "<h2>History</h2>\n"
      << evidence_html_table(kHistoryHeader, history_rows(evidence), "history")
      << "<h2>Approvals</h2>\n"
      << evidence_html_table({"contract", "action", "by", "at", "reason"},
                             entry_rows(evidence, "approvals"), "approvals")
      << "<h2>Reviews</h2>\n"
      << evidence_html_table({"contract", "action", "by", "at", "reason"},
                             entry_rows(evidence, "reviews"), "reviews")
      << "<h2>Exceptions</h2>\n"
      << evidence_html_table(kExceptionHeader, exception_rows(evidence), "exceptions")
      << "<h2>RBAC bindings in force</h2>\n"
      << evidence_html_table(kBindingHeader, binding_rows(evidence), "bindings")
      << "<h2>Usage and cost</h2>\n<pre id=\"usage\">" << escape_markup(usage_csv) << "</pre>\n"
      << "<h2>Audit log</h2>\n"
      << audit_html(evidence) << "</body></html>\n";
  return out.str();
}

}  // namespace

std::map<std::string, std::string> evidence_files(const EvidenceJson& evidence) {
  const EvidenceJson& usage = evidence_member(evidence, "usage");
  const std::string usage_csv = usage.is_object() ? usage_report_csv(usage) : "team\n";
  return {{"history.csv", evidence_csv(kHistoryHeader, history_rows(evidence))},
          {"exceptions.csv", evidence_csv(kExceptionHeader, exception_rows(evidence))},
          {"bindings.csv", evidence_csv(kBindingHeader, binding_rows(evidence))},
          {"usage.csv", usage_csv},
          {"evidence.html", evidence_html(evidence, usage_csv)}};
}

std::string evidence_manifest(const std::map<std::string, std::string>& files,
                              const std::function<std::string(std::string_view)>& hex_sha256) {
  std::string manifest;
  for (const auto& [name, bytes] : files) manifest += hex_sha256(bytes) + "  " + name + "\n";
  return manifest;
}

}  // namespace allot
