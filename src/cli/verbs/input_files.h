// InputFiles: the files named by `-f` (`allot apply`, `allot submit`), where
// `-` means standard input.
//
// Contract: read_input_file() returns the whole content; "-" reads io.in (or
// std::cin when io.in is null) to its end. A file that cannot be read is
// kInvalidArgument naming it (exit 2: the user can fix the path).
#pragma once

#include <string>

#include "base/result.h"
#include "cli/verbs/command.h"

namespace allot::cli {

Result<std::string> read_input_file(const std::string& path, CliIo& io);

}  // namespace allot::cli
