#include "cli/verbs/server_verb.h"

#include <CLI/CLI.hpp>

#include "cli/client/server_address.h"
#include "cli/verbs/exit_codes.h"

namespace allot::cli {

void add_server_flag(CLI::App& subcommand, std::string& server) {
  subcommand
      .add_option("--server", server,
                  "allotd address, http://HOST:PORT (default: $ALLOT_SERVER, the config "
                  "file's server:, then http://127.0.0.1:7800)")
      ->check(CLI::Validator(
          [](const std::string& value) {
            // An empty value is a mistake (an unset variable), not "the default".
            return value.empty() ? std::string("empty: give allotd's address, http://HOST:PORT")
                                 : std::string();
          },
          "URL"));
}

Result<ApiClient> open_api_client(const std::string& server_flag) {
  ALLOT_ASSIGN_OR_RETURN(std::string url, server_address(server_flag));
  return ApiClient(std::move(url));
}

std::string error_text(const Status& status) {
  std::string text =
      status.message().empty() ? std::string(error_code_name(status.code())) : status.message();
  if (!status.details().empty()) {
    text += " (at " + status.details() + ")";
  }
  return text;
}

int report_error(CliIo& io, const Status& status) {
  io.err << "error: " << error_text(status) << "\n";
  if (const std::string hint = connection_hint(status); !hint.empty()) {
    io.err << "hint: " << hint << "\n";
  }
  return exit_code_for(status);
}

}  // namespace allot::cli
