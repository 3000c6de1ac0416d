// GET /api/v1/watch through a real allotd (server/watch_routes.cc,
// service/control/change_feed.h): server-sent events of what changes, told to
// each caller only as it may list it; a policy apply told by kind; the
// limits on streams; a stream open does not keep allotd from stopping at once.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"
#include "raw_connection.h"

namespace allot::server_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class WatchStreamTest : public AllotdTest {
 protected:
  // A session of the administrator bound to `team` and `role`.
  std::string session(const std::string& team, const std::string& role) {
    const Reply reply = api_.post_json(
        "/api/v1/sessions", {{"token", allotd_.admin_token()}, {"team", team}, {"role", role}});
    EXPECT_EQ(reply.status, 201) << reply.describe();
    return reply.json.is_object() ? reply.json.value("token", "") : "";
  }

  // Opens GET /api/v1/watch with `token` and reads up to `marker` (the hello event).
  std::unique_ptr<RawConnection> open_watch(const std::string& token, std::string& seen,
                                            const std::string& extra_header = "",
                                            const std::string& marker = "event: hello") {
    auto connection = std::make_unique<RawConnection>(allotd_.port());
    EXPECT_TRUE(connection->connected());
    connection->send("GET /api/v1/watch HTTP/1.1\r\nHost: allot\r\nAuthorization: Bearer " + token +
                     "\r\nAccept: text/event-stream\r\n" + extra_header + "\r\n");
    seen = connection->read_until(marker, 1, seconds(10));
    return connection;
  }

  // Reads from `connection` into `seen` until `text` is there (or 10 s).
  static bool read_until_seen(RawConnection& connection, std::string& seen,
                              const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + seconds(10);
    while (seen.find(text) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      seen += connection.read_until(text, 1, milliseconds(500));
    }
    return seen.find(text) != std::string::npos;
  }
};

TEST_F(WatchStreamTest, AViewerHearsOfItsOwnTeamsWorkloadsOnlyByName) {
  apply(kTestPolicy);
  std::string viewer_seen;
  std::string admin_seen;
  const auto viewer = open_watch(session("research", "team-viewer"), viewer_seen);
  const auto admin = open_watch(allotd_.admin_token(), admin_seen);
  EXPECT_NE(viewer_seen.find("HTTP/1.1 200"), std::string::npos) << viewer_seen;
  EXPECT_NE(viewer_seen.find("text/event-stream"), std::string::npos) << viewer_seen;
  EXPECT_NE(viewer_seen.find("retry: 2000"), std::string::npos) << viewer_seen;

  ASSERT_EQ(api_.post_json("/api/v1/namespaces/prod/workloads",
                           workload_json("prod-hidden-job", {.script = "sleep 30"}))
                .status,
            201);
  ASSERT_EQ(
      api_.post_json("/api/v1/namespaces/research/workloads", workload_json("research-shown-job"))
          .status,
      201);
  // The administrator hears of both by name, so the other team's was told.
  EXPECT_TRUE(read_until_seen(*admin, admin_seen, "research-shown-job")) << admin_seen;
  EXPECT_TRUE(read_until_seen(*admin, admin_seen, "prod-hidden-job")) << admin_seen;
  EXPECT_TRUE(read_until_seen(*viewer, viewer_seen, "\"name\":\"research-shown-job\""))
      << viewer_seen;
  EXPECT_NE(viewer_seen.find(R"("namespace":"research")"), std::string::npos) << viewer_seen;
  // The other team's submit reached the viewer as the bare kind only.
  EXPECT_NE(viewer_seen.find(R"({"kind":"Workload"})"), std::string::npos) << viewer_seen;
  // Wait for prod's workload to be admitted (more batches), then look again.
  wait_phase("prod", "prod-hidden-job", "Running");
  viewer_seen += viewer->read_until("no such text", 1, milliseconds(1500));
  EXPECT_EQ(viewer_seen.find("prod-hidden-job"), std::string::npos) << viewer_seen;
  EXPECT_EQ(viewer_seen.find(R"("namespace":"prod")"), std::string::npos) << viewer_seen;
  EXPECT_NE(viewer_seen.find("event: change"), std::string::npos);
}

// A policy apply is stored outside the change pipeline: it is told too (by
// kind), or a view of a Contract, a Team's quota or a PriorityClass would
// not refresh until left (the dashboard's Contracts view, issue 16).
TEST_F(WatchStreamTest, AnAppliedPolicyObjectIsToldByKind) {
  apply(kTestPolicy);
  std::string admin_seen;
  std::string viewer_seen;
  const auto admin = open_watch(allotd_.admin_token(), admin_seen);
  const auto viewer = open_watch(session("research", "team-viewer"), viewer_seen);
  apply(
      "apiVersion: allot/v1\nkind: PriorityClass\nmetadata: {name: watched-class}\n"
      "spec: {value: 7}\n");
  EXPECT_TRUE(read_until_seen(*admin, admin_seen, R"({"kind":"PriorityClass"})")) << admin_seen;
  EXPECT_TRUE(read_until_seen(*viewer, viewer_seen, R"({"kind":"PriorityClass"})")) << viewer_seen;
  // By its kind alone: the object's name is not in the notice.
  EXPECT_EQ(admin_seen.find("watched-class"), std::string::npos) << admin_seen;
}

TEST_F(WatchStreamTest, AStreamNeedsALoginAndResyncsAfterAMissedChange) {
  RawConnection anonymous(allotd_.port());
  anonymous.send("GET /api/v1/watch HTTP/1.1\r\nHost: allot\r\n\r\n");
  EXPECT_NE(anonymous.read_until("\r\n", 1, seconds(5)).find(" 401 "), std::string::npos);

  apply(kTestPolicy);  // changes: the feed's last id is past 0
  std::string seen;
  const auto missed = open_watch(allotd_.admin_token(), seen, "Last-Event-ID: 0\r\n");
  seen += missed->read_until("\n\n", 2, seconds(2));
  EXPECT_NE(seen.find(R"("resync":true)"), std::string::npos) << seen;
  // The hello's id, given back as Last-Event-ID, missed nothing.
  const size_t at = seen.find("id: ");
  ASSERT_NE(at, std::string::npos) << seen;
  const std::string id = seen.substr(at + 4, seen.find('\n', at) - at - 4);
  std::string again;
  const auto resumed = open_watch(allotd_.admin_token(), again, "Last-Event-ID: " + id + "\r\n");
  again += resumed->read_until("\n\n", 2, seconds(2));
  EXPECT_NE(again.find(R"("resync":false)"), std::string::npos) << again << " after id " << id;
}

TEST_F(WatchStreamTest, ASubjectMayHoldEightStreams) {
  std::vector<std::unique_ptr<RawConnection>> streams;
  for (int i = 0; i < 8; ++i) {
    std::string seen;
    streams.push_back(open_watch(allotd_.admin_token(), seen));
    ASSERT_NE(seen.find("event: hello"), std::string::npos) << i << ": " << seen;
  }
  std::string refused;
  const auto ninth = open_watch(allotd_.admin_token(), refused, "", "too_many_requests");
  EXPECT_NE(refused.find(" 429 "), std::string::npos) << refused;
  EXPECT_NE(refused.find("Retry-After"), std::string::npos) << refused;
  // A closed stream gives its place back.
  streams.pop_back();
  ASSERT_TRUE(eventually([&] {
    std::string seen;
    const auto again = open_watch(allotd_.admin_token(), seen);
    return seen.find("event: hello") != std::string::npos;
  }));
}

TEST_F(WatchStreamTest, AllotdStopsAtOnceWithStreamsOpen) {
  std::vector<std::unique_ptr<RawConnection>> streams;
  for (int i = 0; i < 3; ++i) {
    std::string seen;
    streams.push_back(open_watch(allotd_.admin_token(), seen));
    ASSERT_NE(seen.find("event: hello"), std::string::npos) << seen;
  }
  const auto started = std::chrono::steady_clock::now();
  const ProcessExit exit = allotd_.stop(seconds(10));
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_TRUE(exit.exited && exit.code == 0 && !exit.killed_after_deadline)
      << allotd_.stderr_text();
  EXPECT_LT(took, seconds(3));
  for (const auto& stream : streams) EXPECT_TRUE(stream->closed_by_peer(seconds(2)));
}

}  // namespace
}  // namespace allot::server_test
