// Issue 10, clear errors 13: a server that accepts but never answers was
// reported only after 60 s. --request-timeout bounds one request.
#include <chrono>
#include <string>

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli_run.h"

namespace allot::cli::testing {
namespace {

// A listening socket that never accepts: connections complete in the
// kernel's backlog and then wait for an answer that never comes.
class SilentServer {
 public:
  SilentServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(addr);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    EXPECT_EQ(::listen(fd_, 8), 0);
    EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &length), 0);
    port_ = ntohs(addr.sin_port);
  }
  ~SilentServer() { ::close(fd_); }
  SilentServer(const SilentServer&) = delete;
  SilentServer& operator=(const SilentServer&) = delete;
  [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(RequestTimeout, AServerThatNeverAnswersIsReportedAfterTheTimeout) {
  const SilentServer silent;
  const auto started = std::chrono::steady_clock::now();

  const CliOutcome outcome =
      run_allot({"get", "workloads", "--server", silent.url(), "--request-timeout", "300ms"});

  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_NE(outcome.err.find("no answer came in time"), std::string::npos) << outcome.err;
  EXPECT_LT(waited, std::chrono::seconds(20)) << "the 60 s default would still be waiting";
}

TEST(RequestTimeout, ABadTimeoutNamesTheFlag) {
  const CliOutcome outcome = run_allot({"get", "workloads", "--request-timeout", "soon"});

  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_NE(outcome.err.find("--request-timeout"), std::string::npos) << outcome.err;
}

}  // namespace
}  // namespace allot::cli::testing
