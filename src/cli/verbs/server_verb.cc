#include "cli/verbs/server_verb.h"

#include <algorithm>
#include <chrono>

#include <CLI/CLI.hpp>

#include "base/time.h"
#include "cli/client/credentials.h"
#include "cli/client/server_address.h"
#include "cli/verbs/exit_codes.h"

namespace allot::cli {

void add_server_flags(CLI::App& subcommand, ServerFlags& flags) {
  subcommand
      .add_option("--server", flags.server,
                  "allotd address, http://HOST:PORT (default: $ALLOT_SERVER, the config "
                  "file's server:, then http://127.0.0.1:7800)")
      ->check(CLI::Validator(
          [](const std::string& value) {
            // An empty value is a mistake (an unset variable), not "the default".
            return value.empty() ? std::string("empty: give allotd's address, http://HOST:PORT")
                                 : std::string();
          },
          "URL"));
  subcommand.add_option("--token", flags.token,
                        "bearer token for allotd (default: $ALLOT_TOKEN, then the session "
                        "'allot login' saved for the server)");
  subcommand
      .add_option("--request-timeout", flags.request_timeout,
                  "how long one request to allotd may take (e.g. 500ms, 30s, 2m)")
      ->capture_default_str();
}

Result<ApiClient> open_api_client(const ServerFlags& flags) {
  const Result<Duration> timeout = parse_duration(flags.request_timeout);
  if (!timeout.ok() || *timeout <= Duration()) {
    return invalid_argument(
        "'" + flags.request_timeout + "' is not a positive duration (e.g. 500ms, 30s, 2m)",
        "--request-timeout");
  }
  ALLOT_ASSIGN_OR_RETURN(std::string url, server_address(flags.server));
  ApiClientOptions options;
  if (!flags.anonymous) {
    ALLOT_ASSIGN_OR_RETURN(options.bearer_token, bearer_token(flags.token, url));
  }
  options.read_timeout = std::chrono::milliseconds(timeout->ms());
  options.connect_timeout = std::min(options.connect_timeout, options.read_timeout);
  return ApiClient(std::move(url), options);
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
