#include "backends/slurm/slurm_accounting.h"

#include <algorithm>
#include <charconv>

namespace allot::slurm {
namespace {

std::vector<std::string> split_on(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

std::vector<std::string> split_lines(std::string_view output) {
  std::vector<std::string> lines;
  for (std::string& line : split_on(output, '\n')) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

std::vector<std::string> sorted_list(std::string_view text) {
  std::vector<std::string> items;
  if (text.empty()) return items;
  for (std::string& item : split_on(text, ',')) {
    if (!item.empty()) items.push_back(std::move(item));
  }
  std::sort(items.begin(), items.end());
  return items;
}

Result<int64_t> parse_count(std::string_view text, std::string_view what) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return invalid_argument(std::string(what) + ": \"" + std::string(text) +
                            "\" is not a whole number");
  }
  return value;
}

// Memory as Slurm prints it ("1000M", "64G", "1T", bare MiB) in MiB.
Result<int64_t> parse_mebibytes(std::string_view text) {
  int64_t scale = 1;
  if (!text.empty() && (text.back() == 'M' || text.back() == 'G' || text.back() == 'T')) {
    scale = text.back() == 'M' ? 1 : text.back() == 'G' ? 1024 : 1024 * 1024;
    text.remove_suffix(1);
  }
  ALLOT_ASSIGN_OR_RETURN(int64_t amount, parse_count(text, "TRES mem"));
  return amount * scale;
}

Status line_error(const std::string& line, std::string_view why) {
  return invalid_argument("sacctmgr output line \"" + line + "\": " + std::string(why));
}

}  // namespace

Result<TresMap> parse_tres(std::string_view text) {
  TresMap tres;
  for (const std::string& item : sorted_list(text)) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos) {
      return invalid_argument("TRES \"" + item + "\": expected name=amount");
    }
    const std::string name = item.substr(0, eq);
    const std::string_view amount = std::string_view(item).substr(eq + 1);
    Result<int64_t> value =
        name == "mem" ? parse_mebibytes(amount) : parse_count(amount, "TRES " + name);
    if (!value.ok()) return value.status();
    tres[name] = *value;
  }
  return tres;
}

std::string format_tres(const TresMap& tres) {
  std::string out;
  for (const auto& [name, amount] : tres) {
    if (!out.empty()) out += ',';
    out += name + "=" + std::to_string(amount) + (name == "mem" && amount >= 0 ? "M" : "");
  }
  return out;
}

Result<std::vector<SlurmAssociation>> parse_associations(std::string_view output) {
  std::vector<SlurmAssociation> out;
  for (const std::string& line : split_lines(output)) {
    const std::vector<std::string> f = split_on(line, '|');
    if (f.size() != 7)
      return line_error(line, "expected 7 fields (" + std::string(kAssociationFormat) + ")");
    SlurmAssociation a;
    a.account = f[0];
    a.user = f[1];
    a.parent = f[2];
    if (!f[3].empty()) {
      Result<int64_t> share = parse_count(f[3], "fairshare");
      if (!share.ok()) return line_error(line, share.status().message());
      a.fairshare = *share;
    }
    Result<TresMap> tres = parse_tres(f[4]);
    if (!tres.ok()) return line_error(line, tres.status().message());
    a.grp_tres = std::move(*tres);
    a.qos = sorted_list(f[5]);
    a.default_qos = f[6];
    out.push_back(std::move(a));
  }
  return out;
}

Result<std::vector<SlurmQos>> parse_qos(std::string_view output) {
  std::vector<SlurmQos> out;
  for (const std::string& line : split_lines(output)) {
    const std::vector<std::string> f = split_on(line, '|');
    if (f.size() != 5)
      return line_error(line, "expected 5 fields (" + std::string(kQosFormat) + ")");
    SlurmQos q;
    q.name = f[0];
    Result<int64_t> priority = parse_count(f[1].empty() ? "0" : f[1], "priority");
    if (!priority.ok()) return line_error(line, priority.status().message());
    q.priority = *priority;
    q.preempt = sorted_list(f[2]);
    q.preempt_mode = f[3];
    std::transform(q.preempt_mode.begin(), q.preempt_mode.end(), q.preempt_mode.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    q.description = f[4];
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace allot::slurm
