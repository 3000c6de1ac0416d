// Helpers of the audit log tests: a fresh folder per test, events, files.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "base/clock.h"
#include "base/logger.h"
#include "governance/audit_event.h"
#include "service/audit/audit_log.h"

namespace allot::audit::testing {

inline std::string fresh_folder(const std::string& name) {
  const std::string path =
      std::string(ALLOT_BINARY_DIR) + "/test-tmp/audit-" + name + "-" + std::to_string(::getpid());
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path;
}

inline governance::AuditEvent event_of(const std::string& user, const std::string& verb) {
  governance::AuditEvent event;
  event.audit_id = user + "-" + verb;
  event.verb = verb;
  event.username = user;
  event.request_uri = "/api/v1/namespaces/vision/workloads";
  event.object_ref = governance::AuditObjectRef{"workloads", "vision", "w", "", "allot.dev"};
  event.response_code = 201;
  return event;
}

inline AuditLogOptions options_in(const std::string& root) {
  AuditLogOptions options;
  options.dir = root + "/audit";
  options.checkpoint_dir = root + "/audit-checkpoints";
  return options;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace allot::audit::testing
