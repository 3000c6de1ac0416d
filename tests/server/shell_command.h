// run_shell(): runs one command line through /bin/sh (popen) with its
// standard error joined to its output, and gives its exit status (-1 when it
// could not start or did not exit) and everything it printed. For tests that
// drive the real `allot` binary or a tool such as promtool.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <utility>

#include <sys/wait.h>

namespace allot::server_test {

inline std::pair<int, std::string> run_shell(const std::string& command) {
  std::string output;
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  std::array<char, 4096> buffer{};
  size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    output.append(buffer.data(), got);
  }
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace allot::server_test
