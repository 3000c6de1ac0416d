#include "arch/layer_rules.h"

#include <algorithm>
#include <array>

namespace allot::arch {
namespace {

struct LayerRule {
  std::string_view layer;
  std::vector<std::string_view> may_use;
  bool pure = false;                     // no I/O, threads or clock
  bool std_only = false;                 // no third-party headers
  bool chooses_implementations = false;  // may include any implementation folder
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
      // cli uses identity as an OIDC client (allot login's device flow, RFC 8628).
      {"cli",
       {"service", "api", "scheduler", "authz", "accounting", "governance", "identity", "model",
        "base"}},
      {.layer = "app",
       .may_use = {"base", "model", "scheduler", "authz", "accounting", "governance", "store",
                   "backends", "identity", "api", "service", "server", "cli"},
       .chooses_implementations = true},
  };
  return kTable;
}

// The concrete implementations of the ports of `store` and `backends`, one
// sub-folder (and one library) each. They follow their layer's row above;
// outside their own folder only `app` may include them, so that choosing an
// implementation stays in one place and the rest of the code sees the ports.
struct ImplementationRule {
  std::string_view folder;
  std::string_view ports;  // what every other layer includes instead
};

constexpr std::string_view kStorePorts = "store/store.h";
constexpr std::string_view kBackendPorts =
    "backends/executor.h, backends/stepped_executor.h, backends/node_health.h";

const std::vector<ImplementationRule>& implementation_table() {
  static const std::vector<ImplementationRule> kTable = {
      {"store/sqlite", kStorePorts},           // allot_store_sqlite
      {"store/postgres", kStorePorts},         // allot_store_postgres
      {"backends/local", kBackendPorts},       // allot_local
      {"backends/sim", kBackendPorts},         // allot_sim
      {"backends/slurm", kBackendPorts},       // allot_slurm
      {"backends/kubernetes", kBackendPorts},  // not yet present
  };
  return kTable;
}

// Layers whose sub-folders are implementations: each of their sub-folders
// must be a row of implementation_table(), so that a new adapter cannot
// escape the rule by being missing from it.
constexpr std::array<std::string_view, 2> kPortLayers = {"store", "backends"};

const ImplementationRule* find_implementation(std::string_view folder) {
  const auto& table = implementation_table();
  auto it = std::find_if(table.begin(), table.end(),
                         [&](const ImplementationRule& rule) { return rule.folder == folder; });
  return it == table.end() ? nullptr : &*it;
}

const LayerRule* find_top_level_rule(std::string_view layer) {
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

// The row a folder of layer_of() follows: its own for a top-level layer, its
// layer's for a known implementation; null for a folder missing from the tables.
const LayerRule* find_rule(std::string_view folder) {
  if (folder.find('/') == std::string_view::npos) return find_top_level_rule(folder);
  if (find_implementation(folder) == nullptr) return nullptr;
  return find_top_level_rule(first_folder(folder));
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

std::string check_include(std::string_view folder, const LayerRule& rule,
                          const IncludeLine& include) {
  const std::string layer_name(folder);
  if (include.angled) {
    if (rule.pure && contains(kImpureHeaders, include.header)) {
      return "pure layer '" + layer_name + "' may not do I/O, start threads or read a clock";
    }
    if (rule.std_only && !is_standard_header(include.header)) {
      return "layer '" + layer_name + "' may use the C++ standard library only";
    }
    return {};
  }
  const std::string_view target_layer = first_folder(include.header);
  if (!is_known_layer(target_layer)) {
    return "quoted includes name project headers rooted at src/ (\"base/status.h\"); use <...> "
           "for third-party headers";
  }
  const std::string_view target = layer_of(include.header);
  if (!is_known_layer(target)) {
    return "'" + std::string(target) +
           "' is not an implementation folder of the layer table (tests/arch/layer_rules.cc)";
  }
  if (rule.pure && contains(kImpureProjectHeaders, include.header)) {
    return "pure layer '" + layer_name + "' receives `now` as an argument; it holds no Clock";
  }
  if (target_layer != rule.layer &&
      std::find(rule.may_use.begin(), rule.may_use.end(), target_layer) == rule.may_use.end()) {
    return "layer '" + layer_name + "' may not use '" + std::string(target) +
           "' (it may use: " + join(rule.may_use) + "; DESIGN.md section 10)";
  }
  const ImplementationRule* implementation = find_implementation(target);
  if (implementation != nullptr && target != folder && !rule.chooses_implementations) {
    const std::string name(target);
    return "'" + name + "' is an implementation; only app/ (which chooses implementations) and " +
           name + "/ itself may include it: use the ports (" + std::string(implementation->ports) +
           ")";
  }
  return {};
}

std::vector<Violation> check_tree(const std::vector<SourceFile>& files) {
  std::vector<Violation> violations;
  for (const SourceFile& file : files) {
    const std::string_view folder = layer_of(file.path);
    const LayerRule* rule = find_rule(folder);
    if (rule == nullptr) {
      const std::string what = folder.find('/') == std::string_view::npos
                                   ? "is not a layer of DESIGN.md section 10"
                                   : "is not an implementation folder of the layer table";
      violations.push_back({file.path, 0, "",
                            "'" + std::string(folder) + "' " + what +
                                "; add it to tests/arch/layer_rules.cc or move the file"});
      continue;
    }
    for (const IncludeLine& include : file.includes) {
      std::string reason = check_include(folder, *rule, include);
      if (reason.empty()) continue;
      const std::string written =
          include.angled ? "<" + include.header + ">" : "\"" + include.header + "\"";
      violations.push_back({file.path, include.line, written, std::move(reason)});
    }
  }
  return violations;
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

bool is_implementation(std::string_view folder) { return find_implementation(folder) != nullptr; }

std::string_view layer_of(std::string_view path) {
  const std::string_view layer = first_folder(path);
  if (!contains(kPortLayers, layer)) return layer;
  const size_t slash = path.find('/', layer.size() + 1);
  return slash == std::string_view::npos ? layer : path.substr(0, slash);
}

std::vector<Violation> find_violations(const std::vector<SourceFile>& files) {
  return check_tree(files);
}

}  // namespace allot::arch
