#include "allotd_process.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <stdlib.h>
#include <unistd.h>

namespace allot::server_test {

AllotdProcess::AllotdProcess() {
  std::string pattern = (std::filesystem::temp_directory_path() / "allotd-itest-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::system_error(errno, std::generic_category());
  temp_dir_ = pattern;
  // Pods run as allot-<team>: they must be able to reach the data folder and
  // the files tests leave here for them.
  std::filesystem::permissions(temp_dir_, std::filesystem::perms(0755));
}

AllotdProcess::AllotdProcess(std::filesystem::path shared_data_dir) : AllotdProcess() {
  shared_data_dir_ = std::move(shared_data_dir);
}

namespace {

// Keeps allotd's stderr in $ALLOT_TEST_LOG_DIR, when set, for the search of
// secrets in every log of a test run.
void keep_log(const std::filesystem::path& temp_dir) {
  const char* log_dir = std::getenv("ALLOT_TEST_LOG_DIR");
  const std::filesystem::path log = temp_dir / "allotd.stderr";
  std::error_code ignored;
  if (log_dir == nullptr || *log_dir == '\0' || !std::filesystem::exists(log, ignored)) return;
  std::filesystem::create_directories(log_dir, ignored);
  std::filesystem::copy_file(
      log, std::filesystem::path(log_dir) / (temp_dir.filename().string() + ".stderr"),
      std::filesystem::copy_options::overwrite_existing, ignored);
}

}  // namespace

std::string AllotdProcess::binary() { return ALLOT_BINARY_DIR "/src/app/allotd"; }

AllotdProcess::~AllotdProcess() {
  if (running()) stop();
  keep_log(temp_dir_);
  // Not a failure of the test: a pod that outlived allotd keeps its account.
  tools::remove_host_accounts(binary(), data_dir(), stderr);
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir_, ignored);
}

std::string AllotdProcess::stderr_text() const { return child_ ? child_->stderr_text() : ""; }

std::string AllotdProcess::admin_token() const {
  std::ifstream in(data_dir() / "admin-token");
  std::string token;
  std::getline(in, token);
  return token;
}

std::string AllotdProcess::start(std::vector<std::string> extra_flags,
                                 std::chrono::milliseconds deadline) {
  if (running()) return "allotd is already running";
  flags_ = std::move(extra_flags);
  child_ = std::make_unique<tools::AllotdChild>(
      tools::AllotdLaunch{binary(), data_dir().string(), "127.0.0.1:0",
                          (temp_dir_ / "allotd.stderr").string(), flags_});
  return child_->start(deadline);
}

ProcessExit AllotdProcess::stop(std::chrono::milliseconds deadline) {
  return child_ ? child_->stop(deadline) : ProcessExit{};
}

ProcessExit AllotdProcess::kill() { return child_ ? child_->kill() : ProcessExit{}; }

std::string AllotdProcess::restart() {
  const ProcessExit exit = stop();
  if (!exit.exited || exit.code != 0) {
    return "allotd did not stop cleanly (" + std::string(exit.exited ? "code " : "signal ") +
           std::to_string(exit.code) + ")";
  }
  return start(flags_);
}

std::string AllotdProcess::start_again() { return start(flags_); }

void AllotdProcess::note_sent(SentRequest sent) const {
  std::lock_guard lock(sent_mu_);
  sent_.push_back(std::move(sent));
}

std::vector<AllotdProcess::SentRequest> AllotdProcess::sent() const {
  std::lock_guard lock(sent_mu_);
  return sent_;
}

}  // namespace allot::server_test
