// EvidenceReport: the files `allot evidence export` writes beside
// evidence.json (docs/governance.md), rendered from it.
//
// Contract: pure formatting of the evidence JSON (GET /api/v1/evidence), no
// I/O; fields missing from it render empty. The CSV tables have a header
// line and one line per row (fields quoted as RFC 4180 asks):
//   history.csv     contract,action,from,to,by,at,reason (every transition)
//   exceptions.csv  name,team,relaxes,owner,approver,reason,expires
//   bindings.csv    kind,namespace,name,roleKind,role,subjects
//                   (subjects as kind:name joined by ';')
//   usage.csv       the usage report's CSV (usage_report_output.h); a
//                   header only when the project has no team
// evidence.html is one self-contained page (no script, style sheet, font or
// image fetched): the project and period, the contracts with their terms and
// history, approvals, reviews, exceptions, bindings, usage and cost, and the
// audit-log range with its verification result; every text is escaped.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace allot::cli {

// File name -> contents, for the five files above.
std::map<std::string, std::string> evidence_files(const nlohmann::json& evidence);

}  // namespace allot::cli
