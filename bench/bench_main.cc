// allot-bench: `scale` runs the scale test and prints its figures
// against the goals; `api` measures a real allotd through its REST API;
// `micro` runs the Google Benchmark microbenchmarks.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/api_bench.h"
#include "bench/micro_bench.h"
#include "bench/scale_bench.h"
#include "bench/scale_report.h"

namespace {

constexpr const char* kUsage =
    "usage: allot-bench scale [-o json|table] [--seed N] [--pending N] [--nodes N] [--teams N]\n"
    "                         [--urgent-teams N] [--runs N] [--preemption-runs N]\n"
    "                         [--fair-sharing]\n"
    "       allot-bench api [-o json|table] [--allotd PATH] [--data-dir DIR] [--clients N]\n"
    "                       [--submits N] [--list-runs N] [--restart-workloads N]\n"
    "                       [--apply-batch N] [--allotd-threads N]\n"
    "       allot-bench micro [Google Benchmark flags, e.g. --benchmark_filter=quota]\n";

template <typename T>
std::optional<T> parse_number(std::string_view text, T min, T max) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return std::nullopt;
  }
  return value;
}

struct ScaleArgs {
  allot::bench::ScaleConfig config;
  bool json = false;
};

// Parses the flags of `scale`; prints what is wrong and returns nullopt on error.
std::optional<ScaleArgs> parse_scale_args(const std::vector<std::string_view>& args) {
  ScaleArgs out;
  allot::bench::ScaleConfig& c = out.config;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view flag = args[i];
    if (flag == "--fair-sharing") {  // the only flag without a value
      c.fair_sharing = true;
      continue;
    }
    if (i + 1 >= args.size()) {
      std::fprintf(stderr, "allot-bench scale: '%.*s' needs a value\n",
                   static_cast<int>(flag.size()), flag.data());
      return std::nullopt;
    }
    const std::string_view value = args[++i];
    bool ok = true;
    auto set_int = [&](int32_t& field, int32_t min, int32_t max) {
      const auto parsed = parse_number<int32_t>(value, min, max);
      ok = parsed.has_value();
      if (ok) field = *parsed;
    };
    if (flag == "-o" || flag == "--output") {
      ok = value == "json" || value == "table";
      out.json = value == "json";
    } else if (flag == "--seed") {
      const auto parsed = parse_number<uint64_t>(value, 0, UINT64_MAX);
      ok = parsed.has_value();
      if (ok) c.seed = *parsed;
    } else if (flag == "--pending") {
      set_int(c.pending, 1, 10'000'000);
    } else if (flag == "--nodes") {
      set_int(c.nodes, allot::bench::kFlavorCount, 1'000'000);
    } else if (flag == "--teams") {
      set_int(c.teams, 1, 100'000);
    } else if (flag == "--urgent-teams") {
      set_int(c.urgent_teams, 1, 1'000);
    } else if (flag == "--runs") {
      set_int(c.runs, 1, 1'000);
    } else if (flag == "--preemption-runs") {
      set_int(c.preemption_runs, 1, 100'000);
    } else {
      std::fprintf(stderr, "allot-bench scale: unknown flag '%.*s'\n%s",
                   static_cast<int>(flag.size()), flag.data(), kUsage);
      return std::nullopt;
    }
    if (!ok) {
      std::fprintf(stderr, "allot-bench scale: bad value '%.*s' for %.*s\n",
                   static_cast<int>(value.size()), value.data(), static_cast<int>(flag.size()),
                   flag.data());
      return std::nullopt;
    }
  }
  return out;
}

struct ApiArgs {
  allot::bench::ApiConfig config;
  bool json = false;
};

// allotd of the same build: bench/allot-bench -> src/app/allotd.
std::string default_allotd() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "allotd";
  return (self.parent_path() / ".." / "src" / "app" / "allotd").lexically_normal().string();
}

// Parses the flags of `api`; prints what is wrong and returns nullopt on error.
std::optional<ApiArgs> parse_api_args(const std::vector<std::string_view>& args) {
  ApiArgs out;
  allot::bench::ApiConfig& c = out.config;
  c.allotd = default_allotd();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view flag = args[i];
    if (i + 1 >= args.size()) {
      std::fprintf(stderr, "allot-bench api: '%.*s' needs a value\n", static_cast<int>(flag.size()),
                   flag.data());
      return std::nullopt;
    }
    const std::string_view value = args[++i];
    bool ok = true;
    auto set_int = [&](int32_t& field, int32_t min, int32_t max) {
      const auto parsed = parse_number<int32_t>(value, min, max);
      ok = parsed.has_value();
      if (ok) field = *parsed;
    };
    if (flag == "-o" || flag == "--output") {
      ok = value == "json" || value == "table";
      out.json = value == "json";
    } else if (flag == "--allotd") {
      c.allotd = std::string(value);
    } else if (flag == "--data-dir") {
      c.data_dir = std::string(value);
    } else if (flag == "--clients") {
      set_int(c.clients, 1, 1'000);
    } else if (flag == "--submits") {
      set_int(c.submits, 1, 10'000'000);
    } else if (flag == "--list-runs") {
      set_int(c.list_runs, 1, 100'000);
    } else if (flag == "--restart-workloads") {
      set_int(c.restart_workloads, 1, 10'000'000);
    } else if (flag == "--apply-batch") {
      set_int(c.apply_batch, 1, 10'000);
    } else if (flag == "--allotd-threads") {
      set_int(c.allotd_threads, 1, 4'096);
    } else {
      std::fprintf(stderr, "allot-bench api: unknown flag '%.*s'\n%s",
                   static_cast<int>(flag.size()), flag.data(), kUsage);
      return std::nullopt;
    }
    if (!ok) {
      std::fprintf(stderr, "allot-bench api: bad value '%.*s' for %.*s\n",
                   static_cast<int>(value.size()), value.data(), static_cast<int>(flag.size()),
                   flag.data());
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view command = argc >= 2 ? argv[1] : "";
  if (command == "scale") {
    const std::optional<ScaleArgs> args =
        parse_scale_args(std::vector<std::string_view>(argv + 2, argv + argc));
    if (!args) return 2;
    const allot::bench::ScaleReport report = allot::bench::run_scale(args->config, stderr);
    if (args->json) {
      allot::bench::print_json(report, stdout);
    } else {
      allot::bench::print_table(report, stdout);
    }
    return 0;
  }
  if (command == "api") {
    const std::optional<ApiArgs> args =
        parse_api_args(std::vector<std::string_view>(argv + 2, argv + argc));
    if (!args) return 2;
    const allot::bench::ApiReport report = allot::bench::run_api(args->config, stderr);
    if (args->json) {
      allot::bench::print_json(report, stdout);
    } else {
      allot::bench::print_table(report, stdout);
    }
    if (!report.error.empty()) std::fprintf(stderr, "allot-bench api: %s\n", report.error.c_str());
    return report.error.empty() ? 0 : 1;
  }
  if (command == "micro") {
    // "micro" takes argv[0]'s place, so that Google Benchmark sees its flags only.
    return allot::bench::run_micro(argc - 1, argv + 1);
  }
  const bool help = command == "-h" || command == "--help";
  std::fputs(kUsage, help ? stdout : stderr);
  return help ? 0 : 2;
}
