// JSON diff: what `allot apply --dry-run` shows for a changed object.
//
// Contract: one line per leaf that differs between `before` and `after`,
// "path: old -> new", with "(absent)" for a missing side; paths use dots and
// [i] ("spec.quota[0].resources.gpu.nominal"). Object keys in sorted order,
// so the result is deterministic. Equal values give no lines.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace allot {

std::vector<std::string> json_diff(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace allot
