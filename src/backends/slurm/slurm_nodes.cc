#include "backends/slurm/slurm_nodes.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <sstream>

namespace allot::slurm {
namespace {

using Fields = std::map<std::string, std::string>;

bool is_key(std::string_view token) {
  const size_t eq = token.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  return std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(eq),
                     [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// "A=1 B=two words C=3": a token without a key continues the value before it.
Fields fields_of(const std::string& line) {
  Fields out;
  std::istringstream in(line);
  std::string token;
  std::string last;
  while (in >> token) {
    if (is_key(token)) {
      const size_t eq = token.find('=');
      last = token.substr(0, eq);
      out[last] = token.substr(eq + 1);
    } else if (!last.empty()) {
      out[last] += " " + token;
    }
  }
  return out;
}

Result<int64_t> number(const Fields& f, const std::string& node, const std::string& key) {
  auto it = f.find(key);
  if (it == f.end() || it->second.empty()) return int64_t{0};
  int64_t value = 0;
  const std::string& text = it->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return invalid_argument("scontrol show nodes: node " + node + ": " + key + "=\"" + text +
                            "\" is not a number");
  }
  return value;
}

struct Gres {
  int64_t gpus = 0;
  std::vector<std::string> types;
};

Result<Gres> gres_of(const std::string& text, const std::string& node) {
  Gres out;
  std::istringstream in(text);
  std::string entry;
  while (std::getline(in, entry, ',')) {
    if (const size_t paren = entry.find('('); paren != std::string::npos) entry.resize(paren);
    if (!entry.starts_with("gpu:")) continue;
    const std::string rest = entry.substr(4);
    const size_t colon = rest.rfind(':');
    const std::string count = colon == std::string::npos ? rest : rest.substr(colon + 1);
    int64_t n = 0;
    const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (error != std::errc() || end != count.data() + count.size()) {
      std::string why = "scontrol show nodes: node ";
      why.append(node).append(": Gres entry \"").append(entry).append("\" has no GPU count");
      return invalid_argument(why);
    }
    out.gpus += n;
    if (colon != std::string::npos) out.types.push_back(rest.substr(0, colon));
  }
  return out;
}

bool has_flag(const std::string& state, std::string_view flag) {
  std::istringstream in(state);
  std::string part;
  while (std::getline(in, part, '+')) {
    while (!part.empty() && (part.back() == '*' || part.back() == '~' || part.back() == '#')) {
      part.pop_back();
    }
    if (part == flag) return true;
  }
  return false;
}

std::map<std::string, std::string> labels_of(const std::string& features) {
  std::map<std::string, std::string> out;
  std::istringstream in(features);
  std::string feature;
  while (std::getline(in, feature, ',')) {
    if (feature.empty() || feature == "(null)") continue;
    if (feature.starts_with("rack-")) {
      out["rack"] = feature.substr(5);
    } else if (feature.starts_with("block-")) {
      out["block"] = feature.substr(6);
    } else {
      out[feature] = "";
    }
  }
  return out;
}

}  // namespace

Result<InventoryNode> node_of_scontrol_fields(const std::map<std::string, std::string>& f) {
  InventoryNode node;
  const std::string name = f.at("NodeName");
  node.name = NodeId(name);
  ALLOT_ASSIGN_OR_RETURN(const int64_t cpus, number(f, name, "CPUTot"));
  ALLOT_ASSIGN_OR_RETURN(const int64_t memory_mib, number(f, name, "RealMemory"));
  ALLOT_ASSIGN_OR_RETURN(const Gres gres, gres_of(f.contains("Gres") ? f.at("Gres") : "", name));
  node.capacity = ResourceVector(gres.gpus, cpus * 1000, memory_mib << 20);
  if (gres.types.size() == 1) node.flavor = gres.types.front();
  node.labels = labels_of(f.contains("AvailableFeatures") ? f.at("AvailableFeatures") : "");
  const std::string state = f.contains("State") ? f.at("State") : "UNKNOWN";
  node.state = state;
  for (std::string_view flag :
       {"DOWN", "FAIL", "FAILING", "NOT_RESPONDING", "POWERED_DOWN", "FUTURE"}) {
    if (has_flag(state, flag)) node.up = false;
  }
  node.drained =
      has_flag(state, "DRAIN") || has_flag(state, "DRAINING") || has_flag(state, "DRAINED");
  if (!node.up || node.drained) {
    auto reason = f.find("Reason");
    node.reason =
        reason != f.end() && !reason->second.empty() ? reason->second : "Slurm state " + state;
  }
  return node;
}

Result<std::vector<InventoryNode>> parse_slurm_nodes(std::string_view scontrol_output) {
  std::vector<InventoryNode> out;
  std::istringstream in{std::string(scontrol_output)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const Fields f = fields_of(line);
    if (!f.contains("NodeName") || f.at("NodeName").empty()) {
      return invalid_argument("scontrol show nodes: a line without NodeName: \"" +
                              line.substr(0, 80) + "\"");
    }
    ALLOT_ASSIGN_OR_RETURN(InventoryNode node, node_of_scontrol_fields(f));
    out.push_back(std::move(node));
  }
  std::sort(out.begin(), out.end(), [](const InventoryNode& a, const InventoryNode& b) {
    return a.name.str() < b.name.str();
  });
  return out;
}

}  // namespace allot::slurm
