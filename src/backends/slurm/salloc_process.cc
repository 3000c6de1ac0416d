#include "backends/slurm/salloc_process.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/syscall.h>
#include <unistd.h>

namespace allot::slurm {
namespace {

// /proc/PID/stat's fields after the command name: [0] is the state (field
// 3), [19] the start time (field 22).
constexpr size_t kStatStateField = 0;
constexpr size_t kStatStartField = 19;

template <typename T>
std::optional<T> answer_number(std::string_view text) {
  T value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string> answer_words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

int open_salloc_pidfd(int64_t pid) {
#ifdef SYS_pidfd_open
  const long fd = ::syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0);
  if (fd >= 0) return static_cast<int>(fd);  // pidfds are always close-on-exec
#else
  (void)pid;
  errno = ENOSYS;
#endif
  return -1;
}

int signal_through_pidfd(int pidfd, int signal) {
#ifdef SYS_pidfd_send_signal
  return static_cast<int>(::syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0));
#else
  (void)pidfd;
  (void)signal;
  errno = ENOSYS;
  return -1;
#endif
}

Signalled signal_outcome(int rc) {
  if (rc == 0) return Signalled::kSent;
  return errno == ESRCH ? Signalled::kGone : Signalled::kFailed;
}

}  // namespace

Result<AllocationAnswer> parse_allocation_answer(std::string_view answer) {
  const std::vector<std::string> w = answer_words(answer);
  if (w.empty() || !answer_number<uint64_t>(w[0])) {
    return invalid_argument("the allocation's launcher answered \"" + std::string(answer) +
                            "\", not a job id");
  }
  AllocationAnswer out{w[0], std::nullopt};
  const std::optional<int64_t> pid = w.size() == 3 ? answer_number<int64_t>(w[1]) : std::nullopt;
  const std::optional<uint64_t> start =
      w.size() == 3 ? answer_number<uint64_t>(w[2]) : std::nullopt;
  if (pid && *pid > 0 && start) out.salloc = SallocProcess{*pid, *start};
  return out;
}

std::optional<uint64_t> running_process_start(int64_t pid, const std::string& proc) {
  std::ifstream in(proc + "/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!in || !std::getline(in, stat)) return std::nullopt;
  const size_t name_end = stat.rfind(')');  // the name may hold spaces and ')'
  if (name_end == std::string::npos) return std::nullopt;
  const std::vector<std::string> fields = answer_words(std::string_view(stat).substr(name_end + 1));
  if (fields.size() <= kStatStartField) return std::nullopt;
  if (fields[kStatStateField] == "Z" || fields[kStatStateField] == "X") return std::nullopt;
  return answer_number<uint64_t>(fields[kStatStartField]);
}

namespace {

std::string small_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The NAME of an argument `--job-name=NAME` among `cmdline`'s (NUL-separated).
std::optional<std::string> job_name_argument(std::string_view cmdline) {
  constexpr std::string_view kFlag = "--job-name=";
  while (!cmdline.empty()) {
    const size_t end = std::min(cmdline.find('\0'), cmdline.size());
    const std::string_view argument = cmdline.substr(0, end);
    if (argument.starts_with(kFlag)) return std::string(argument.substr(kFlag.size()));
    cmdline.remove_prefix(std::min(end + 1, cmdline.size()));
  }
  return std::nullopt;
}

}  // namespace

RunningSallocs running_sallocs(const std::function<bool(std::string_view)>& wanted,
                               const std::string& proc) {
  RunningSallocs found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(proc, error)) {
    const std::optional<int64_t> pid = answer_number<int64_t>(entry.path().filename().string());
    if (!pid || small_file(entry.path() / "comm") != "salloc\n") continue;
    const std::optional<uint64_t> start = running_process_start(*pid, proc);
    const std::optional<std::string> name = job_name_argument(small_file(entry.path() / "cmdline"));
    if (!start || !name || !wanted(*name) || running_process_start(*pid, proc) != start) continue;
    if (!found.by_job_name.emplace(*name, SallocProcess{*pid, *start}).second) {
      found.ambiguous.push_back(*name);
    }
  }
  std::sort(found.ambiguous.begin(), found.ambiguous.end());
  found.ambiguous.erase(std::unique(found.ambiguous.begin(), found.ambiguous.end()),
                        found.ambiguous.end());
  for (const std::string& name : found.ambiguous) found.by_job_name.erase(name);
  return found;
}

Signalled signal_salloc(const SallocProcess& salloc, int signal, PidfdUse pidfds) {
  int pidfd = -1;
  if (pidfds == PidfdUse::kWhenTheKernelHasThem) {
    pidfd = open_salloc_pidfd(salloc.pid);
    if (pidfd < 0 && errno == ESRCH) return Signalled::kGone;
  }
  // Compared after the pidfd is open: it holds the process it was opened on.
  if (running_process_start(salloc.pid) != salloc.start) {
    if (pidfd >= 0) ::close(pidfd);
    return Signalled::kGone;
  }
  if (pidfd < 0) return signal_outcome(::kill(static_cast<pid_t>(salloc.pid), signal));
  const Signalled sent = signal_outcome(signal_through_pidfd(pidfd, signal));
  ::close(pidfd);
  return sent;
}

}  // namespace allot::slurm
