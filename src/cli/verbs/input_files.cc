#include "cli/verbs/input_files.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace allot::cli {

Result<std::string> read_input_file(const std::string& path, CliIo& io) {
  std::stringstream content;
  if (path == "-") {
    std::istream& in = io.in != nullptr ? *io.in : std::cin;
    content << in.rdbuf();
    return content.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return invalid_argument("cannot read the file", path);
  }
  content << file.rdbuf();
  if (file.bad()) {
    return invalid_argument("cannot read the file", path);
  }
  return content.str();
}

}  // namespace allot::cli
