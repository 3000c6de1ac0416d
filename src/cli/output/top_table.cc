#include "cli/output/top_table.h"

#include "cli/client/json_fields.h"
#include "cli/output/text_table.h"

namespace allot::cli {

nlohmann::json filter_top(const nlohmann::json& answer, const std::string& team) {
  if (team.empty()) return answer;
  nlohmann::json filtered = answer;
  nlohmann::json rows = nlohmann::json::array();
  for (const nlohmann::json& row : array_at(answer, "teams")) {
    if (text_at(row, {"team"}) == team) rows.push_back(row);
  }
  filtered["teams"] = std::move(rows);
  return filtered;
}

std::string top_table(const nlohmann::json& answer) {
  TextTable table({"TEAM", "COHORT", "FLAVOR", "RESOURCE", "NOMINAL", "USAGE", "BORROWED", "LENT",
                   "PENDING", "ADMITTED"},
                  TextTable::Alignment::kLeft);
  for (const nlohmann::json& row : array_at(answer, "teams")) {
    std::vector<std::string> cells;
    for (const char* key : {"team", "cohort", "flavor", "resource", "nominal", "usage", "borrowed",
                            "lent", "pending", "admitted"}) {
      cells.push_back(text_at(row, {key}));
    }
    table.add_row(std::move(cells));
  }
  return table.render();
}

}  // namespace allot::cli
