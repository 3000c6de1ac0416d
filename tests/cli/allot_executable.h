// Runs the built `allot` executable the way users do (a shell command with its
// output streams redirected to files), for the tests that check its exit codes
// and outputs from outside the process.
//
// Contract: run_allot(args) returns the exit code (-1 when the process did not
// exit normally) and both streams whole; the files live under gtest's TempDir,
// named after the running test and `prefix`.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>

namespace allot::cli::testing {

struct ExecutableOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_text_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

inline void write_text_file(const std::string& path, const std::string& content) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << content;
}

// A path under TempDir named after the running test: "<prefix>_<test>_<name>".
inline std::string test_temp_path(const std::string& prefix, const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + prefix + "_" + info->name() + "_" + name;
}

inline ExecutableOutcome run_allot_executable(const std::string& prefix, const std::string& args) {
  const std::string out_path = test_temp_path(prefix, "stdout");
  const std::string err_path = test_temp_path(prefix, "stderr");
  const std::string command =
      std::string("'") + ALLOT_BIN + "' " + args + " >'" + out_path + "' 2>'" + err_path + "'";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text_file(out_path),
          read_text_file(err_path)};
}

}  // namespace allot::cli::testing
