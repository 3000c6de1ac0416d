// TopTable: `allot top`, the quota and usage of every team, for people.
//
// Contract: one row per element of the answer's "teams" array
// (GET /api/v1/top, docs/api.md), columns TEAM COHORT FLAVOR RESOURCE NOMINAL
// USAGE BORROWED LENT PENDING ADMITTED in that order, amounts as the server
// wrote them (numbers, or quantities such as "64Gi"), every column aligned
// left as kubectl's are. `team` (when not empty) keeps only that team's rows. Pure.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace allot::cli {

// The answer with only `team`'s rows ("" keeps them all).
nlohmann::json filter_top(const nlohmann::json& answer, const std::string& team);

std::string top_table(const nlohmann::json& answer);

}  // namespace allot::cli
