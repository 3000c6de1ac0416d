#include "backends/slurm/sbatch_flags.h"

#include <charconv>

namespace allot::slurm {

std::vector<SbatchFlag> sbatch_flags(const std::vector<std::string>& argv) {
  std::vector<SbatchFlag> out;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string_view arg = argv[i];
    if (!arg.starts_with("--")) continue;
    const size_t eq = arg.find('=');
    if (eq == std::string_view::npos) {
      out.push_back({std::string(arg.substr(2)), ""});
    } else {
      out.push_back({std::string(arg.substr(2, eq - 2)), std::string(arg.substr(eq + 1))});
    }
  }
  return out;
}

std::string script_path_of(const std::vector<std::string>& argv) {
  for (size_t i = argv.size(); i > 1; --i) {
    if (!argv[i - 1].starts_with("--")) return argv[i - 1];
  }
  return "";
}

Result<int64_t> sbatch_flag_number(std::string_view flag, std::string_view value) {
  int64_t out = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (error != std::errc() || end != value.data() + value.size()) {
    return invalid_argument("sbatch option " + std::string(flag) +
                            " is not a number: " + std::string(value));
  }
  return out;
}

}  // namespace allot::slurm
