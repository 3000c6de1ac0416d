// ServerAddress: which allotd the CLI talks to.
//
// Contract: the first of these that is set wins: the --server flag, the
// ALLOT_SERVER environment variable, the `server:` key of the config file,
// then kDefaultServer. The config file is $ALLOT_CONFIG, else
// $XDG_CONFIG_HOME/allot/config.yaml, else $HOME/.config/allot/config.yaml
// (YAML: `server: http://127.0.0.1:7800`). Addresses are normalised to
// "http://host:port" (a missing scheme means http; a trailing slash is
// dropped); other schemes, paths and bad ports are kInvalidArgument errors
// that name where the address came from. resolve_server_address() is pure;
// server_address() reads the process environment and the file.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace allot::cli {

inline constexpr std::string_view kDefaultServer = "http://127.0.0.1:7800";
inline constexpr std::string_view kServerEnvVar = "ALLOT_SERVER";
inline constexpr std::string_view kConfigEnvVar = "ALLOT_CONFIG";

// Environment variables by name; unset ones are absent (or empty).
using Environment = std::map<std::string, std::string, std::less<>>;

// The value of `name` in `env`, or "" when it is not set.
std::string env_value(const Environment& env, std::string_view name);

// The config file to read, or "" when neither ALLOT_CONFIG, XDG_CONFIG_HOME
// nor HOME is set.
std::string config_file_path(const Environment& env);

// "host:port", "http://host:port/" -> "http://host:port". `source` names the
// origin of the address in errors ("--server", "ALLOT_SERVER").
Result<std::string> normalize_server_url(std::string_view url, const std::string& source);

// The `server:` of a config file's text, or nullopt when it has none.
// Errors: malformed YAML, a top level that is not a map, a server that is not
// a string (details: the path).
Result<std::optional<std::string>> server_from_config(const std::string& text,
                                                      const std::string& path);

// flag > env ALLOT_SERVER > config file > default. `config_text` is the
// content of the file at config_file_path(env), nullopt when there is none.
Result<std::string> resolve_server_address(const std::string& flag, const Environment& env,
                                           const std::optional<std::string>& config_text);

// The same, reading the process environment and the config file (only when
// neither the flag nor ALLOT_SERVER decides). A missing default config file is
// no error; a missing $ALLOT_CONFIG is.
Result<std::string> server_address(const std::string& flag);

}  // namespace allot::cli
