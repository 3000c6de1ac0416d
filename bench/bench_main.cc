// allot-bench: `scale` runs the scale test and prints its figures
// against the goals; `micro` runs the Google Benchmark microbenchmarks.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/micro_bench.h"
#include "bench/scale_bench.h"
#include "bench/scale_report.h"

namespace {

constexpr const char* kUsage =
    "usage: allot-bench scale [-o json|table] [--seed N] [--pending N] [--nodes N] [--teams N]\n"
    "                         [--urgent-teams N] [--runs N] [--preemption-runs N]\n"
    "                         [--fair-sharing]\n"
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
  if (command == "micro") {
    // "micro" takes argv[0]'s place, so that Google Benchmark sees its flags only.
    return allot::bench::run_micro(argc - 1, argv + 1);
  }
  const bool help = command == "-h" || command == "--help";
  std::fputs(kUsage, help ? stdout : stderr);
  return help ? 0 : 2;
}
