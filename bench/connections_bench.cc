#include "bench/connections_bench.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string_view>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench/percentile.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr milliseconds kConnectionsStartLimit{60'000};
constexpr std::string_view kSlowStart = "GET /healthz HTTP/1.1\r\nHost: bench\r\nX-Slow: ";

int remaining_ms(SteadyClock::time_point end) {
  const auto left = std::chrono::duration_cast<milliseconds>(end - SteadyClock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// A non-blocking socket connecting to 127.0.0.1:port; -1 on failure.
int start_connect(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 &&
      errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool wait_for(int fd, short events, SteadyClock::time_point end) {
  pollfd watched{fd, events, 0};
  return ::poll(&watched, 1, remaining_ms(end)) == 1 && (watched.revents & events) != 0;
}

// A connection that completed its handshake within `end`; -1 otherwise.
int connect_by(int port, SteadyClock::time_point end) {
  const int fd = start_connect(port);
  if (fd < 0) return -1;
  int error = 0;
  socklen_t length = sizeof(error);
  if (!wait_for(fd, POLLOUT, end) || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 ||
      error != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

enum class Probe { kOk, kError, kTimeout };

// Whether `answer` holds a whole HTTP answer (header and Content-Length body).
bool complete(const std::string& answer) {
  const size_t header_end = answer.find("\r\n\r\n");
  if (header_end == std::string::npos) return false;
  const size_t length_at = answer.find("Content-Length: ");
  if (length_at == std::string::npos || length_at > header_end) return true;
  const size_t length = std::strtoul(answer.c_str() + length_at + 16, nullptr, 10);
  return answer.size() >= header_end + 4 + length;
}

Probe probe_healthz(int port, milliseconds timeout) {
  const SteadyClock::time_point end = SteadyClock::now() + timeout;
  const int fd = connect_by(port, end);
  if (fd < 0) return SteadyClock::now() >= end ? Probe::kTimeout : Probe::kError;
  Probe result = Probe::kError;
  std::string answer;
  if (send_all(fd, "GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")) {
    char chunk[4096];
    while (true) {
      if (!wait_for(fd, POLLIN, end)) {
        result = Probe::kTimeout;
        break;
      }
      const ssize_t got = ::recv(fd, chunk, sizeof(chunk), 0);
      if (got <= 0) break;
      answer.append(chunk, static_cast<size_t>(got));
      if (complete(answer)) {
        result = answer.starts_with("HTTP/1.1 200") ? Probe::kOk : Probe::kError;
        break;
      }
    }
  }
  ::close(fd);
  return result;
}

bool still_open(int fd) {
  pollfd watched{fd, POLLIN | POLLRDHUP, 0};
  if (::poll(&watched, 1, 0) == 0) return true;
  char byte = 0;
  return ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// The slowloris clients: one header byte each per interval, reopened when closed.
class SlowClients {
 public:
  SlowClients(int port, int32_t count, milliseconds interval)
      : port_(port), fds_(static_cast<size_t>(count), -1), interval_(interval) {}
  ~SlowClients() { stop(); }
  SlowClients(const SlowClients&) = delete;
  SlowClients& operator=(const SlowClients&) = delete;

  void start() {
    for (int& fd : fds_) open(fd);
    thread_ = std::thread([this] { run(); });
  }
  void stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
    for (int& fd : fds_) {
      if (fd >= 0) ::close(fd);
      fd = -1;
    }
  }
  [[nodiscard]] int64_t reopened() const { return reopened_.load(); }

 private:
  void open(int& fd) {
    fd = connect_by(port_, SteadyClock::now() + milliseconds(5'000));
    if (fd >= 0 && !send_all(fd, kSlowStart)) {
      ::close(fd);
      fd = -1;
    }
  }
  void run() {
    while (!stopping_) {
      const SteadyClock::time_point next = SteadyClock::now() + interval_;
      for (int& fd : fds_) {
        if (fd >= 0 && send_all(fd, "a") && still_open(fd)) continue;
        if (fd >= 0) ::close(fd);
        ++reopened_;
        open(fd);
      }
      while (!stopping_ && SteadyClock::now() < next) std::this_thread::sleep_for(milliseconds(10));
    }
  }

  int port_;
  std::vector<int> fds_;
  milliseconds interval_;
  std::atomic<bool> stopping_{false};
  std::atomic<int64_t> reopened_{0};
  std::thread thread_;
};

void probe_all(const ConnectionsConfig& config, int port, ConnectionsReport& report) {
  std::vector<double> latencies;
  for (int32_t i = 0; i < config.probes; ++i) {
    const SteadyClock::time_point start = SteadyClock::now();
    const Probe result = probe_healthz(port, milliseconds(config.probe_timeout_ms));
    const double ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
    latencies.push_back(ms);
    if (result == Probe::kOk) ++report.probes_ok;
    if (result == Probe::kError) ++report.probe_errors;
    if (result == Probe::kTimeout) ++report.probe_timeouts;
    std::this_thread::sleep_for(milliseconds(config.probe_gap_ms));
  }
  report.probe_p50_ms = percentile(latencies, 50);
  report.probe_p99_ms = percentile(latencies, 99);
  report.probe_max_ms = percentile(latencies, 100);
}

std::string measure(const ConnectionsConfig& config, int port, ConnectionsReport& report,
                    std::FILE* log) {
  std::vector<int> idle;
  idle.reserve(static_cast<size_t>(config.idle));
  for (int32_t i = 0; i < config.idle; ++i) {
    const int fd = connect_by(port, SteadyClock::now() + milliseconds(5'000));
    if (fd < 0) break;
    idle.push_back(fd);
  }
  report.idle_open = static_cast<int32_t>(idle.size());
  std::fprintf(log, "%d idle connections open; starting %d slow clients\n", report.idle_open,
               config.slow);
  SlowClients slow(port, config.slow, milliseconds(config.slow_interval_ms));
  slow.start();
  std::fprintf(log, "probing /healthz %d times\n", config.probes);
  probe_all(config, port, report);
  slow.stop();
  report.slow_reopened = slow.reopened();
  for (const int fd : idle) {
    if (still_open(fd)) ++report.idle_alive;
    ::close(fd);
  }
  if (report.idle_open < config.idle) {
    return "only " + std::to_string(report.idle_open) + " of " + std::to_string(config.idle) +
           " idle connections could be made";
  }
  return {};
}

}  // namespace

ConnectionsReport run_connections(const ConnectionsConfig& config, std::FILE* log) {
  ConnectionsReport report;
  report.config = config;
  raise_open_file_limit();
  const std::filesystem::path work =
      std::filesystem::temp_directory_path() / ("allot-connections-" + std::to_string(getpid()));
  std::filesystem::create_directories(work);
  {
    tools::AllotdChild allotd(
        {config.allotd,
         (work / "data").string(),
         "127.0.0.1:0",
         (work / "allotd.err").string(),
         {"--no-cgroups", "--memory-store", "--threads", std::to_string(config.allotd_threads)}});
    if (std::string error = allotd.start(kConnectionsStartLimit); !error.empty()) {
      report.error = "allotd did not start: " + error;
    } else {
      std::fprintf(log, "allotd %d on port %d\n", allotd.pid(), allotd.port());
      report.error = measure(config, allotd.port(), report, log);
      allotd.stop(milliseconds(10'000));
    }
  }
  tools::remove_host_accounts(config.allotd, (work / "data").string(), log);
  std::error_code ignored;
  std::filesystem::remove_all(work, ignored);
  return report;
}

std::string connections_report_json(const ConnectionsReport& r) {
  const nlohmann::json out = {
      {"idle", r.config.idle},
      {"slow", r.config.slow},
      {"probes", r.config.probes},
      {"allotd", r.config.allotd},
      {"error", r.error},
      {"idle_open", r.idle_open},
      {"idle_alive_after", r.idle_alive},
      {"slow_reopened", r.slow_reopened},
      {"probes_ok", r.probes_ok},
      {"probe_errors", r.probe_errors},
      {"probe_timeouts", r.probe_timeouts},
      {"healthz_p50_ms", r.probe_p50_ms},
      {"healthz_p99_ms", r.probe_p99_ms},
      {"healthz_max_ms", r.probe_max_ms},
  };
  return out.dump(2) + "\n";
}

std::string connections_report_text(const ConnectionsReport& r) {
  char text[1024];
  std::snprintf(text, sizeof(text),
                "idle connections      %d open, %d still open after the probes\n"
                "slow (slowloris)      %d, reopened %lld times after the server closed them\n"
                "/healthz probes       %lld ok, %lld errors, %lld timeouts (of %d)\n"
                "/healthz latency      p50 %.2f ms, p99 %.2f ms (goal <= 50), max %.2f ms\n",
                r.idle_open, r.idle_alive, r.config.slow, static_cast<long long>(r.slow_reopened),
                static_cast<long long>(r.probes_ok), static_cast<long long>(r.probe_errors),
                static_cast<long long>(r.probe_timeouts), r.config.probes, r.probe_p50_ms,
                r.probe_p99_ms, r.probe_max_ms);
  std::string out = text;
  if (!r.error.empty()) out += "error: " + r.error + "\n";
  return out;
}

}  // namespace allot::bench
