#include "cli/client/credentials.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <unistd.h>

namespace allot::cli {
namespace {

Status file_error(const std::string& what, const std::string& path) {
  return Status(ErrorCode::kUnavailable, what + ": " + std::strerror(errno), path);
}

Result<nlohmann::json> read_credentials(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    if (errno == ENOENT) return nlohmann::json::object();
    return file_error("cannot read the credentials file", path);
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, false);
  if (!json.is_object()) {
    return invalid_argument("the credentials file is not a JSON object; delete it and log in again",
                            path);
  }
  return json;
}

// Writes `text` to `path` (0600) through a temporary file and a rename.
Status write_private_file(const std::string& path, const std::string& text) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  std::error_code error;
  if (!folder.empty() && !std::filesystem::exists(folder, error)) {
    std::filesystem::create_directories(folder, error);
    if (error) return Status(ErrorCode::kUnavailable, "cannot make " + folder.string());
    ::chmod(folder.c_str(), 0700);
  }
  const std::string temporary = path + ".tmp";
  const int fd =
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return file_error("cannot write the credentials file", temporary);
  const bool written = ::fchmod(fd, 0600) == 0 &&
                       ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                       ::fsync(fd) == 0;
  ::close(fd);
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    Status failed = file_error("cannot write the credentials file", path);
    std::remove(temporary.c_str());
    return failed;
  }
  return {};
}

}  // namespace

std::string credentials_file_path(const Environment& env) {
  if (std::string path = env_value(env, kCredentialsEnvVar); !path.empty()) return path;
  if (std::string config = env_value(env, "XDG_CONFIG_HOME"); !config.empty()) {
    return config + "/allot/credentials.json";
  }
  if (std::string home = env_value(env, "HOME"); !home.empty()) {
    return home + "/.config/allot/credentials.json";
  }
  return {};
}

Result<std::optional<SavedSession>> read_saved_session(const std::string& path,
                                                       const std::string& server_url) {
  ALLOT_ASSIGN_OR_RETURN(nlohmann::json all, read_credentials(path));
  if (!all.contains(server_url)) return std::optional<SavedSession>();
  const nlohmann::json& entry = all[server_url];
  SavedSession session;
  try {
    session.token = entry.at("token").get<std::string>();
    session.expires_at = entry.value("expiresAt", "");
    session.subject = entry.value("subject", "");
    session.groups = entry.value("groups", std::vector<std::string>());
    session.team = entry.value("team", "");
    session.role = entry.value("role", "");
  } catch (const nlohmann::json::exception&) {
    return invalid_argument(
        "the credentials file has a malformed entry for " + server_url + "; log in again", path);
  }
  return std::optional<SavedSession>(std::move(session));
}

Status save_session(const std::string& path, const std::string& server_url,
                    const SavedSession& session) {
  ALLOT_ASSIGN_OR_RETURN(nlohmann::json all, read_credentials(path));
  all[server_url] = {{"token", session.token},     {"expiresAt", session.expires_at},
                     {"subject", session.subject}, {"groups", session.groups},
                     {"team", session.team},       {"role", session.role}};
  return write_private_file(path, all.dump(2) + "\n");
}

std::string resolve_token(const std::string& flag, const Environment& env,
                          const std::optional<SavedSession>& saved) {
  if (!flag.empty()) return flag;
  if (std::string token = env_value(env, kTokenEnvVar); !token.empty()) return token;
  return saved ? saved->token : std::string();
}

Environment process_environment() {
  Environment env;
  for (const char* name : {"ALLOT_SERVER", "ALLOT_CONFIG", "ALLOT_TOKEN", "ALLOT_CREDENTIALS",
                           "XDG_CONFIG_HOME", "HOME"}) {
    if (const char* value = std::getenv(name)) env.emplace(name, value);
  }
  return env;
}

Result<std::string> bearer_token(const std::string& flag, const std::string& server_url) {
  const Environment env = process_environment();
  std::optional<SavedSession> saved;
  if (flag.empty() && env_value(env, kTokenEnvVar).empty()) {
    const std::string path = credentials_file_path(env);
    if (!path.empty()) {
      ALLOT_ASSIGN_OR_RETURN(saved, read_saved_session(path, server_url));
    }
  }
  return resolve_token(flag, env, saved);
}

}  // namespace allot::cli
