// EvidenceReport: the files `allot evidence export` writes beside
// evidence.json (docs/governance.md), rendered from it, and the manifest of
// them all that allotd signs (server/evidence_routes.cc) and `allot evidence
// verify` checks: allotd and allot render the same bytes from one
// evidence.json.
//
// Contract: pure formatting of the evidence JSON (GET /api/v1/evidence), no
// I/O; fields missing from it render empty. The CSV tables have a header
// line and one line per row (fields quoted as RFC 4180 asks):
//   history.csv     contract,action,from,to,by,at,reason (every transition)
//   exceptions.csv  name,team,relaxes,owner,approver,reason,expires,phase,
//                   requestedBy,decidedBy,decidedAt,decisionReason
//   bindings.csv    kind,namespace,name,roleKind,role,subjects
//                   (subjects as kind:name joined by ';')
//   usage.csv       the usage report's CSV (usage_report_csv.h); a
//                   header only when the project has no team
// evidence.html is one self-contained page (no script, style sheet, font or
// image fetched): the project and period, the contracts with their terms and
// history, approvals, reviews, exceptions, bindings, usage and cost, and the
// audit-log range with its verification result; every text is escaped.
// SHA256SUMS (evidence_manifest()) lists the SHA-256 of evidence.json and of
// these five files, one "HEX  NAME" line each in name order, as sha256sum
// writes it (`sha256sum -c SHA256SUMS` checks the files against it);
// SHA256SUMS.sig is allotd's signature of it with the audit key.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace allot {

inline constexpr const char* kEvidenceManifest = "SHA256SUMS";

// File name -> contents, for the five files above.
std::map<std::string, std::string> evidence_files(const nlohmann::json& evidence);

// The manifest of `files` (name -> contents) with `hex_sha256` the hash:
// "HEX  NAME\n" lines in name order.
std::string evidence_manifest(const std::map<std::string, std::string>& files,
                              const std::function<std::string(std::string_view)>& hex_sha256);

}  // namespace allot
