#include "service/audit/audit_key.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace allot::audit {
namespace {

Status unavailable(const std::string& what, const std::string& path) {
  return Status(ErrorCode::kUnavailable, what + " " + path + ": " + std::strerror(errno));
}

Status write_file(const std::string& path, const std::string& text, mode_t mode, bool exclusive) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC);
  const int fd = ::open(path.c_str(), flags, mode);
  if (fd < 0) return unavailable("cannot create", path);
  const ssize_t written = ::write(fd, text.data(), text.size());
  const bool ok = written == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) return unavailable("cannot write", path);
  return {};
}

Result<std::string> read_trimmed(const std::string& path) {
  std::ifstream in(path);
  if (!in) return unavailable("cannot read", path);
  std::stringstream text;
  text << in.rdbuf();
  std::string content = text.str();
  while (!content.empty() && (content.back() == '\n' || content.back() == ' ')) content.pop_back();
  return content;
}

}  // namespace

Result<identity::SigningKey> load_or_create_audit_key(const std::string& secret_path) {
  struct stat info {};
  if (::stat(secret_path.c_str(), &info) != 0) {
    const identity::SigningKey key = identity::generate_signing_key();
    ALLOT_RETURN_IF_ERROR(
        write_file(secret_path, identity::signing_key_text(key) + "\n", 0600, true));
  } else if ((info.st_mode & 077) != 0) {
    return failed_precondition("the audit signing key " + secret_path +
                               " is readable by others than its owner: chmod 600 it");
  }
  ALLOT_ASSIGN_OR_RETURN(const std::string text, read_trimmed(secret_path));
  std::optional<identity::SigningKey> key = identity::parse_signing_key(text);
  if (!key) {
    return invalid_argument("the audit signing key " + secret_path +
                            " is not an Ed25519 secret key (128 hex digits)");
  }
  ALLOT_RETURN_IF_ERROR(
      write_file(secret_path + ".pub", identity::public_key_text(*key) + "\n", 0644, false));
  return *std::move(key);
}

Result<std::string> read_audit_public_key(const std::string& path) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, read_trimmed(path));
  if (std::optional<std::string> raw = identity::parse_public_key(text)) return *raw;
  if (std::optional<identity::SigningKey> key = identity::parse_signing_key(text)) {
    return key->public_key;
  }
  return invalid_argument("the audit key " + path +
                          " is neither an Ed25519 public key (64 hex digits) nor a secret key");
}

}  // namespace allot::audit
