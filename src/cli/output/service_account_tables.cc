#include "cli/output/service_account_tables.h"

#include "cli/client/json_fields.h"
#include "cli/output/human_time.h"
#include "cli/output/text_table.h"

namespace allot::cli {

std::string service_accounts_table(const std::vector<nlohmann::json>& items, Timestamp now) {
  TextTable table({"NAME", "NAMESPACE", "TOKENS", "AGE"}, TextTable::Alignment::kLeft);
  for (const nlohmann::json& item : items) {
    table.add_row({text_at(item, {"metadata", "name"}), text_at(item, {"metadata", "namespace"}),
                   std::to_string(array_at(item, "tokens").size()),
                   age_of(find_at(item, {"metadata", "creationTimestamp"}), now)});
  }
  return table.render();
}

std::string service_account_tokens_table(const std::vector<nlohmann::json>& items, Timestamp now) {
  TextTable table({"ID", "AGE", "EXPIRES", "STATUS"}, TextTable::Alignment::kLeft);
  for (const nlohmann::json& item : items) {
    const std::string expires = text_at(item, {"expiresAt"});
    const nlohmann::json* expired = find_at(item, {"expired"});
    const bool is_expired = expired != nullptr && expired->is_boolean() && expired->get<bool>();
    table.add_row({text_at(item, {"id"}), age_of(find_at(item, {"createdAt"}), now),
                   expires.empty() ? "<never>" : expires, is_expired ? "Expired" : "Active"});
  }
  return table.render();
}

}  // namespace allot::cli
