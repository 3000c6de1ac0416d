#include "service/audit/audit_files.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>

#include <openssl/evp.h>

namespace allot::audit {

namespace {

struct AuditDigestContextFree {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

}  // namespace

std::string audit_sha256_hex(std::string_view bytes) {
  // Fetched once, and one context per thread: EVP_Digest() fetches the
  // algorithm and allocates a context on every call, which cost more than
  // the hash of a record's line (a profile of allotd, docs/benchmarks.md).
  static EVP_MD* const kFetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  const EVP_MD* const md = kFetched != nullptr ? kFetched : EVP_sha256();
  thread_local const std::unique_ptr<EVP_MD_CTX, AuditDigestContextFree> kContext(EVP_MD_CTX_new());
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (kContext == nullptr || EVP_DigestInit_ex(kContext.get(), md, nullptr) != 1 ||
      EVP_DigestUpdate(kContext.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(kContext.get(), digest.data(), &size) != 1) {
    EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex(size_t{size} * 2, '0');
  for (size_t i = 0; i < size; ++i) {
    hex[2 * i] = kHex[digest[i] >> 4];
    hex[2 * i + 1] = kHex[digest[i] & 0xf];
  }
  return hex;
}

std::string audit_file_name(uint64_t number) {
  std::string digits = std::to_string(number);
  if (digits.size() < 6) digits.insert(0, 6 - digits.size(), '0');
  return "audit-" + digits + ".jsonl";
}

Result<std::vector<std::string>> audit_log_files(const std::string& dir) {
  std::error_code error;
  if (!std::filesystem::exists(dir, error)) return std::vector<std::string>{};
  std::vector<std::pair<uint64_t, std::string>> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("audit-") || !name.ends_with(".jsonl")) continue;
    const std::string digits = name.substr(6, name.size() - 12);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
    found.emplace_back(std::stoull(digits), entry.path().string());
  }
  if (error) {
    return Status(ErrorCode::kUnavailable,
                  "cannot list the audit log folder " + dir + ": " + error.message());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> files;
  files.reserve(found.size());
  for (auto& [number, path] : found) files.push_back(std::move(path));
  return files;
}

Result<std::string> for_each_line(const std::string& path, const LineVisitor& line) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(ErrorCode::kUnavailable, "cannot open " + path);
  std::string text;
  uint64_t number = 0;
  while (std::getline(in, text)) {
    if (in.eof()) return text;  // no newline after it: a torn last line
    line(++number, text);
  }
  if (in.bad()) return Status(ErrorCode::kUnavailable, "cannot read " + path);
  return std::string();
}

}  // namespace allot::audit
