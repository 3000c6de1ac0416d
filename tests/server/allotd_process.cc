#include "allotd_process.h"

#include <cerrno>
#include <system_error>
#include <utility>

#include <stdlib.h>

namespace allot::server_test {

std::string AllotdProcess::binary() { return ALLOT_BINARY_DIR "/src/app/allotd"; }

AllotdProcess::AllotdProcess() {
  std::string pattern = (std::filesystem::temp_directory_path() / "allotd-itest-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::system_error(errno, std::generic_category());
  temp_dir_ = pattern;
  // Pods run as allot-<team>: they must be able to reach the data folder and
  // the files tests leave here for them.
  std::filesystem::permissions(temp_dir_, std::filesystem::perms(0755));
}

AllotdProcess::~AllotdProcess() {
  if (running()) stop();
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir_, ignored);
}

std::string AllotdProcess::stderr_text() const { return child_ ? child_->stderr_text() : ""; }

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

}  // namespace allot::server_test
