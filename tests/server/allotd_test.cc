#include "allotd_test.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "service/audit/audit_key.h"
#include "service/audit/audit_reading.h"

namespace allot::server_test {

nlohmann::json workload_json(const std::string& name, const WorkloadSpec& spec) {
  return {{"apiVersion", "allot/v1"},
          {"kind", "Workload"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"priorityClass", spec.priority},
            {"podSets", {{{"count", spec.pods}, {"resources", {{"gpu", spec.gpus}}}}}},
            {"command", {"/bin/sh", "-c", spec.script}}}}};
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string phase_of(const nlohmann::json& workload) {
  if (!workload.is_object() || !workload.contains("status")) return "";
  return workload["status"].value("phase", "");
}

bool process_alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return false;
  // "pid (comm) STATE ...": the state follows the last ')'.
  const size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] != 'Z';
}

void AllotdTest::SetUp() {
  const std::string started = allotd_.start(allotd_flags());
  ASSERT_EQ(started, "");
}

void AllotdTest::TearDown() {
  if (allotd_.running()) {
    const ProcessExit exit = allotd_.stop();
    EXPECT_TRUE(exit.exited && exit.code == 0 && !exit.killed_after_deadline)
        << "allotd did not stop cleanly on SIGTERM: exited " << exit.exited << ", code "
        << exit.code << "; stderr: " << allotd_.stderr_text();
  }
  expect_audited(allotd_);
}

nlohmann::json AllotdTest::apply(const std::string& yaml) {
  const Reply reply = api_.post("/api/v1/apply", yaml);
  EXPECT_EQ(reply.status, 200) << reply.describe();
  return reply.json;
}

nlohmann::json AllotdTest::submit(const std::string& ns, const std::string& name,
                                  const WorkloadSpec& spec) {
  const Reply reply =
      api_.post_json("/api/v1/namespaces/" + ns + "/workloads", workload_json(name, spec));
  EXPECT_EQ(reply.status, 201) << reply.describe();
  return reply.json;
}

nlohmann::json AllotdTest::workload(const std::string& ns, const std::string& name) {
  const Reply reply = api_.get("/api/v1/namespaces/" + ns + "/workloads/" + name);
  return reply.status == 200 ? reply.json : nlohmann::json();
}

nlohmann::json AllotdTest::wait_until(const std::string& ns, const std::string& name,
                                      const std::function<bool(const nlohmann::json&)>& done,
                                      const std::string& what) {
  nlohmann::json last;
  const bool reached = eventually([&] {
    last = workload(ns, name);
    return done(last);
  });
  if (!reached) {
    const Reply events = api_.get("/api/v1/namespaces/" + ns + "/workloads/" + name + "/events");
    ADD_FAILURE() << ns << "/" << name << " never got " << what << "; last seen: " << last.dump()
                  << "\nits events: " << events.body
                  << "\nallotd stderr: " << allotd_.stderr_text();
  }
  return last;
}

nlohmann::json AllotdTest::wait_phase(const std::string& ns, const std::string& name,
                                      const std::string& phase) {
  return wait_until(
      ns, name, [&](const nlohmann::json& w) { return phase_of(w) == phase; }, "phase " + phase);
}

Reply AllotdTest::log(const std::string& ns, const std::string& name, int64_t offset, int pod) {
  return api_.get("/api/v1/namespaces/" + ns + "/workloads/" + name +
                  "/logs?pod=" + std::to_string(pod) + "&offset=" + std::to_string(offset));
}

std::string AllotdTest::wait_log(const std::string& ns, const std::string& name,
                                 const std::string& text) {
  std::string body;
  const bool seen = eventually([&] {
    const Reply reply = log(ns, name);
    body = reply.body;
    return reply.status == 200 && body.find(text) != std::string::npos;
  });
  if (!seen)
    ADD_FAILURE() << "the log of " << ns << "/" << name << " never showed '" << text
                  << "'; it has: " << body;
  return body;
}

std::vector<std::string> AllotdTest::event_types(const std::string& ns, const std::string& name) {
  const Reply reply = api_.get("/api/v1/namespaces/" + ns + "/workloads/" + name + "/events");
  EXPECT_EQ(reply.status, 200) << reply.describe();
  std::vector<std::string> types;
  if (reply.status != 200) return types;
  for (const auto& event : reply.json["items"]) types.push_back(event["type"]);
  return types;
}

std::vector<std::string> AllotdTest::wait_event(const std::string& ns, const std::string& name,
                                                const std::string& type) {
  std::vector<std::string> types;
  if (!eventually([&] {
        types = event_types(ns, name);
        return std::find(types.begin(), types.end(), type) != types.end();
      })) {
    ADD_FAILURE() << ns << "/" << name << " never had an event of type " << type;
  }
  return types;
}

std::string AllotdTest::temp_file(const std::string& name) const {
  return (allotd_.temp_dir() / name).string();
}

void AllotdTest::touch(const std::string& path) {
  std::ofstream out(path);
  ASSERT_TRUE(out.good()) << "cannot create " << path;
}

// Every request the test sent that changed state or was refused (401, 403)
// and was answered is in allotd's audit log, which verifies
// (docs/governance.md: no 2xx without its record).
void expect_audited(const AllotdProcess& allotd) {
  const std::filesystem::path data = allotd.data_dir();
  const std::string dir = (data / "audit").string();
  if (!std::filesystem::exists(dir)) return;  // allotd never started here
  const Result<std::string> key = audit::read_audit_public_key((data / "audit-key.pub").string());
  ASSERT_TRUE(key.ok()) << key.status().message();
  const Result<governance::VerificationReport> report =
      audit::verify_audit_log(dir, (data / "audit-checkpoints").string(), *key);
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_TRUE(report->ok()) << "audit log: " << report->problems.front().message;
  std::multiset<std::pair<std::string, int>> recorded;
  audit::AuditQuery every;
  every.limit = 10'000'000;
  const Result<std::vector<std::string>> lines = audit::query_audit_log(dir, every);
  ASSERT_TRUE(lines.ok()) << lines.status().message();
  for (const std::string& line : *lines) {
    const nlohmann::json record = nlohmann::json::parse(line);
    recorded.emplace(record.value("requestURI", ""), record["responseStatus"].value("code", 0));
  }
  for (const AllotdProcess::SentRequest& sent : allotd.sent()) {
    if (!(sent.status / 100 == 2 || sent.status == 401 || sent.status == 403)) continue;
    const auto found = recorded.find({sent.target, sent.status});
    EXPECT_TRUE(found != recorded.end()) << "no audit record of " << sent.method << " "
                                         << sent.target << " answered " << sent.status;
    if (found != recorded.end()) recorded.erase(found);
  }
}

}  // namespace allot::server_test
