#include "cli/client/server_address.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "api/yaml_shape.h"

namespace allot::cli {
namespace {

bool valid_port(std::string_view port) {
  if (port.empty() || port.size() > 5) return false;
  int value = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  return value >= 1 && value <= 65535;
}

// Checks "host[:port]" (IPv6 hosts in brackets).
Status check_authority(std::string_view authority, const std::string& url,
                       const std::string& source) {
  std::string_view host = authority;
  std::string_view port;
  const size_t bracket = authority.rfind(']');
  const size_t colon = authority.rfind(':');
  if (colon != std::string_view::npos && (bracket == std::string_view::npos || colon > bracket)) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (!valid_port(port)) {
      return invalid_argument("bad port '" + std::string(port) + "' in server address '" + url +
                                  "' (expected 1 to 65535)",
                              source);
    }
  }
  if (host.empty() || host.find_first_of("/?#@ ") != std::string_view::npos) {
    return invalid_argument("bad host in server address '" + url + "' (expected http://host:port)",
                            source);
  }
  return {};
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

}  // namespace

std::string env_value(const Environment& env, std::string_view name) {
  const auto it = env.find(name);
  return it == env.end() ? std::string() : it->second;
}

std::string config_file_path(const Environment& env) {
  if (std::string explicit_path = env_value(env, kConfigEnvVar); !explicit_path.empty()) {
    return explicit_path;
  }
  if (const std::string xdg = env_value(env, "XDG_CONFIG_HOME"); !xdg.empty()) {
    return xdg + "/allot/config.yaml";
  }
  if (const std::string home = env_value(env, "HOME"); !home.empty()) {
    return home + "/.config/allot/config.yaml";
  }
  return {};
}

Result<std::string> normalize_server_url(std::string_view url, const std::string& source) {
  const std::string original(url);
  std::string scheme = "http";
  if (const size_t separator = url.find("://"); separator != std::string_view::npos) {
    scheme = std::string(url.substr(0, separator));
    url.remove_prefix(separator + 3);
  }
  if (scheme != "http" && scheme != "https") {
    return invalid_argument(
        "unsupported scheme '" + scheme + "' in server address '" + original + "' (expected http)",
        source);
  }
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  if (url.find('/') != std::string_view::npos) {
    return invalid_argument(
        "server address '" + original + "' has a path; give only http://host:port", source);
  }
  ALLOT_RETURN_IF_ERROR(check_authority(url, original, source));
  return scheme + "://" + std::string(url);
}

Result<std::optional<std::string>> server_from_config(const std::string& text,
                                                      const std::string& path) {
  // yaml-cpp's loader may never return on some text (api/yaml_shape.h).
  ALLOT_RETURN_IF_ERROR(check_yaml_shape(text, path));
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    return invalid_argument("malformed config file: " + error.msg, path);
  }
  if (root.IsNull()) return std::optional<std::string>();
  if (!root.IsMap()) {
    return invalid_argument("the config file must be a YAML map (server: http://host:port)", path);
  }
  const YAML::Node server = root["server"];
  if (!server || server.IsNull()) return std::optional<std::string>();
  if (!server.IsScalar()) {
    return invalid_argument("`server` must be a string such as http://127.0.0.1:7800",
                            path + ": server");
  }
  return std::optional<std::string>(server.Scalar());
}

Result<std::string> resolve_server_address(const std::string& flag, const Environment& env,
                                           const std::optional<std::string>& config_text) {
  if (!flag.empty()) return normalize_server_url(flag, "--server");
  if (const std::string from_env = env_value(env, kServerEnvVar); !from_env.empty()) {
    return normalize_server_url(from_env, std::string(kServerEnvVar));
  }
  if (config_text) {
    const std::string path = config_file_path(env);
    ALLOT_ASSIGN_OR_RETURN(std::optional<std::string> from_file,
                           server_from_config(*config_text, path));
    if (from_file && !from_file->empty()) {
      return normalize_server_url(*from_file, path + ": server");
    }
  }
  return std::string(kDefaultServer);
}

Result<std::string> server_address(const std::string& flag) {
  Environment env;
  for (const char* name : {"ALLOT_SERVER", "ALLOT_CONFIG", "XDG_CONFIG_HOME", "HOME"}) {
    if (const char* value = std::getenv(name)) env.emplace(name, value);
  }
  std::optional<std::string> config_text;
  if (flag.empty() && env_value(env, kServerEnvVar).empty()) {
    const std::string path = config_file_path(env);
    if (!path.empty()) config_text = read_file(path);
    if (!config_text && !env_value(env, kConfigEnvVar).empty()) {
      return invalid_argument("cannot read the config file named by ALLOT_CONFIG", path);
    }
  }
  return resolve_server_address(flag, env, config_text);
}

}  // namespace allot::cli
