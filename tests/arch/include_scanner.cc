#include "arch/include_scanner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace allot::arch {
namespace {

std::string_view trim_leading(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

bool is_source_file(const std::filesystem::path& path) {
  return path.extension() == ".h" || path.extension() == ".cc";
}

}  // namespace

std::vector<IncludeLine> parse_includes(std::string_view text) {
  std::vector<IncludeLine> includes;
  int line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);

    line = trim_leading(line);
    if (line.empty() || line.front() != '#') continue;
    line = trim_leading(line.substr(1));
    constexpr std::string_view kDirective = "include";
    if (!line.starts_with(kDirective)) continue;
    line = trim_leading(line.substr(kDirective.size()));
    if (line.empty()) continue;
    const char open = line.front();
    const char close = open == '<' ? '>' : '"';
    if (open != '<' && open != '"') continue;
    const size_t close_pos = line.find(close, 1);
    if (close_pos == std::string_view::npos) continue;
    includes.push_back({line_number, std::string(line.substr(1, close_pos - 1)), open == '<'});
  }
  return includes;
}

Result<std::vector<SourceFile>> scan_source_tree(const std::string& root) {
  std::error_code error;
  std::filesystem::recursive_directory_iterator it(root, error);
  if (error) {
    return not_found("cannot read source tree '" + root + "': " + error.message());
  }
  std::vector<SourceFile> files;
  for (const auto& entry : it) {
    if (!entry.is_regular_file() || !is_source_file(entry.path())) continue;
    std::ifstream in(entry.path());
    if (!in) {
      return not_found("cannot read '" + entry.path().string() + "'");
    }
    std::stringstream text;
    text << in.rdbuf();
    files.push_back({std::filesystem::relative(entry.path(), root).generic_string(),
                     parse_includes(text.str())});
  }
  std::sort(files.begin(), files.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.path < b.path; });
  return files;
}

}  // namespace allot::arch
