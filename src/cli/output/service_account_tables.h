// ServiceAccountTables: `allot get serviceaccounts` and `allot get tokens`
// for people.
//
// Contract: kubectl-style tables (every column aligned left) of the JSON
// objects of docs/api.md, "Service accounts":
//   serviceaccounts  NAME NAMESPACE TOKENS AGE
//   tokens           ID AGE EXPIRES STATUS   (EXPIRES: "<never>" or the time;
//                                             STATUS: Active or Expired)
// AGE is measured at `now`. Never prints a token (the objects hold none). Pure.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/time.h"

namespace allot::cli {

std::string service_accounts_table(const std::vector<nlohmann::json>& items, Timestamp now);
std::string service_account_tokens_table(const std::vector<nlohmann::json>& items, Timestamp now);

}  // namespace allot::cli
