#include "cli/output/apply_output.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "cli/client/json_fields.h"

namespace allot::cli {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

void append_diff(std::string& out, const std::string& diff) {
  std::istringstream lines(diff);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) out += "    " + line + "\n";
  }
}

}  // namespace

std::string apply_summary(const nlohmann::json& answer) {
  const nlohmann::json* dry_run = find_at(answer, {"dryRun"});
  const bool dry = dry_run != nullptr && dry_run->is_boolean() && dry_run->get<bool>();
  std::string out;
  for (const nlohmann::json& change : array_at(answer, "changes")) {
    const std::string action = text_at(change, {"action"});
    const std::string kind = text_at(change, {"kind"});
    const bool rbac = kind == "Role" || kind == "ClusterRole" || kind == "RoleBinding" ||
                      kind == "ClusterRoleBinding";
    out += lower(kind) + (rbac ? ".rbac.authorization.k8s.io/" : ".allot/") +
           text_at(change, {"name"});
    if (const std::string ns = text_at(change, {"namespace"}); rbac && !ns.empty()) {
      out += " -n " + ns;
    }
    out += " " + action;
    out += dry ? " (dry run)\n" : "\n";
    if (action == "configured") append_diff(out, text_at(change, {"diff"}));
  }
  return out;
}

}  // namespace allot::cli
