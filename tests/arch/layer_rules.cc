#include "arch/layer_rules.h"

#include <algorithm>
#include <array>

namespace allot::arch {
namespace {

struct LayerRule {
  std::string_view layer;
  std::vector<std::string_view> may_use;
  bool pure = false;      // no I/O, threads or clock
  bool std_only = false;  // no third-party headers
};

const std::vector<LayerRule>& layer_table() {
  static const std::vector<LayerRule> kTable = {
      {"base", {}, false, true},
      {"model", {"base"}, false, true},
      {"scheduler", {"model", "base"}, true, true},
      {"authz", {"model", "base"}, true, true},
      {"accounting", {"model", "base"}, true, true},
      {"governance", {"model", "base"}, true, true},
      {"store", {"model", "base"}},
      {"backends", {"model", "base"}},
      {"identity", {"model", "base"}},
      {"api", {"model", "base"}},
      {"service",
       {"base", "model", "scheduler", "authz", "accounting", "governance", "store", "backends",
        "identity", "api"}},
      {"server",
       {"service", "api", "scheduler", "authz", "accounting", "governance", "model", "base"}},
      {"cli",
       {"service", "api", "scheduler", "authz", "accounting", "governance", "model", "base"}},
      {"app",
       {"base", "model", "scheduler", "authz", "accounting", "governance", "store", "backends",
        "identity", "api", "service", "server", "cli"}},
  };
  return kTable;
}

const LayerRule* find_rule(std::string_view layer) {
  const auto& table = layer_table();
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const LayerRule& rule) { return rule.layer == layer; });
  return it == table.end() ? nullptr : &*it;
}

// Standard headers that do I/O, start threads or read a clock.
constexpr std::array<std::string_view, 19> kImpureHeaders = {
    "thread",  "mutex",      "shared_mutex", "condition_variable",
    "future",  "atomic",     "stop_token",   "semaphore",
    "latch",   "barrier",    "chrono",       "ctime",
    "time.h",  "fstream",    "iostream",     "cstdio",
    "stdio.h", "filesystem", "random"};

// Project headers that pure layers may not see (the Clock contract, base/clock.h).
constexpr std::array<std::string_view, 1> kImpureProjectHeaders = {"base/clock.h"};

std::string_view first_folder(std::string_view path) {
  const size_t slash = path.find('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

std::string join(const std::vector<std::string_view>& items) {
  std::string out;
  for (std::string_view item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out.empty() ? "std only" : out;
}

bool is_standard_header(std::string_view header) {
  return !header.empty() && std::all_of(header.begin(), header.end(),
                                        [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
}

template <size_t N>
bool contains(const std::array<std::string_view, N>& items, std::string_view item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::string check_include(std::string_view layer, const LayerRule& rule,
                          const IncludeLine& include) {
  const std::string layer_name(layer);
  if (include.angled) {
    if (rule.pure && contains(kImpureHeaders, include.header)) {
      return "pure layer '" + layer_name + "' may not do I/O, start threads or read a clock";
    }
    if (rule.std_only && !is_standard_header(include.header)) {
      return "layer '" + layer_name + "' may use the C++ standard library only";
    }
    return {};
  }
  const std::string_view target = first_folder(include.header);
  if (!is_known_layer(target)) {
    return "quoted includes name project headers rooted at src/ (\"base/status.h\"); use <...> "
           "for third-party headers";
  }
  if (rule.pure && contains(kImpureProjectHeaders, include.header)) {
    return "pure layer '" + layer_name + "' receives `now` as an argument; it holds no Clock";
  }
  if (target == layer ||
      std::find(rule.may_use.begin(), rule.may_use.end(), target) != rule.may_use.end()) {
    return {};
  }
  return "layer '" + layer_name + "' may not use '" + std::string(target) +
         "' (it may use: " + join(rule.may_use) + "; DESIGN.md section 10)";
}

}  // namespace

std::string Violation::to_string() const {
  if (include.empty()) return "src/" + path + ": " + reason;
  return "src/" + path + ":" + std::to_string(line) + ": #include " + include + ": " + reason;
}

std::vector<std::string_view> allowed_layers(std::string_view layer) {
  const LayerRule* rule = find_rule(layer);
  return rule == nullptr ? std::vector<std::string_view>() : rule->may_use;
}

bool is_known_layer(std::string_view layer) { return find_rule(layer) != nullptr; }

bool is_pure_layer(std::string_view layer) {
  const LayerRule* rule = find_rule(layer);
  return rule != nullptr && rule->pure;
}

std::vector<Violation> find_violations(const std::vector<SourceFile>& files) {
  std::vector<Violation> violations;
  for (const SourceFile& file : files) {
    const std::string_view layer = first_folder(file.path);
    const LayerRule* rule = find_rule(layer);
    if (rule == nullptr) {
      violations.push_back({file.path, 0, "",
                            "'" + std::string(layer) +
                                "' is not a layer of DESIGN.md section 10; add it to "
                                "tests/arch/layer_rules.cc or move the file"});
      continue;
    }
    for (const IncludeLine& include : file.includes) {
      std::string reason = check_include(layer, *rule, include);
      if (reason.empty()) continue;
      const std::string written =
          include.angled ? "<" + include.header + ">" : "\"" + include.header + "\"";
      violations.push_back({file.path, include.line, written, std::move(reason)});
    }
  }
  return violations;
}

}  // namespace allot::arch
