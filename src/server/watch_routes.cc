// GET /api/v1/watch: the change feed (service/control/change_feed.h) as
// server-sent events (text/event-stream; docs/web.md#live-updates).
//
// Contract: any authenticated caller (each is told only what it may list);
// first `retry: 2000` and an event `hello` (id: the feed's last id; data
// {"id", "resync"}: resync is true unless Last-Event-ID names that id, i.e.
// unless nothing was missed), then an event `change` (id: the batch's id;
// data {"id", "changes": [{kind, namespace, name, phase}], "truncated"}) per
// batch the caller hears of, and a comment line every kWatchHeartbeat. No
// worker thread is held: the stream is written from the event loop
// (server/http). 429 beyond the feed's limits (Retry-After), 503 while
// allotd stops; the stream ends (last chunk) when allotd stops.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

constexpr std::chrono::seconds kWatchHeartbeat{15};
constexpr std::string_view kWatchRetryMs = "2000";

std::string sse_event(std::string_view event, uint64_t id, const nlohmann::json& data) {
  return "id: " + std::to_string(id) + "\nevent: " + std::string(event) + "\ndata: " + data.dump() +
         "\n\n";
}

nlohmann::json watch_change_json(const FeedChange& change) {
  nlohmann::json out = {{"kind", change.kind}};
  if (!change.namespace_name.empty()) out["namespace"] = change.namespace_name;
  if (!change.name.empty()) out["name"] = change.name;
  if (!change.phase.empty()) out["phase"] = change.phase;
  return out;
}

// A watcher's notices written as server-sent events.
class SseFeedSink final : public FeedSink {
 public:
  SseFeedSink(std::shared_ptr<StreamWriter> writer, std::optional<uint64_t> last_event_id)
      : writer_(std::move(writer)), last_event_id_(last_event_id) {}

  void start(uint64_t last_id) override {
    const bool resync = !last_event_id_ || *last_event_id_ != last_id;
    writer_->write("retry: " + std::string(kWatchRetryMs) + "\n" +
                   sse_event("hello", last_id, {{"id", last_id}, {"resync", resync}}));
  }

  bool notify(const FeedNotice& notice) override {
    nlohmann::json changes = nlohmann::json::array();
    for (const FeedChange& change : notice.changes) changes.push_back(watch_change_json(change));
    return writer_->write(sse_event(
        "change", notice.id,
        {{"id", notice.id}, {"changes", std::move(changes)}, {"truncated", notice.truncated}}));
  }

  void end() override { writer_->end(); }

 private:
  std::shared_ptr<StreamWriter> writer_;
  std::optional<uint64_t> last_event_id_;
};

std::optional<uint64_t> last_event_id_of(const HttpRequest& req) {
  const std::string text = req.get_header_value("Last-Event-ID");
  if (text.empty() || text.size() > 20) return std::nullopt;
  uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

void watch_changes(ChangeFeed& feed, const HttpRequest& req, HttpResponse& res) {
  Result<std::unique_ptr<ChangeFeed::Subscription>> subscribed = feed.subscribe(caller_of(req));
  if (!subscribed.ok()) {
    if (subscribed.status().code() != ErrorCode::kResourceExhausted) {
      return send_error(res, subscribed.status());
    }
    send_error(res, 429, "too_many_requests", subscribed.status().message());
    res.set_header("Retry-After", "10");
    return;
  }
  res.status = 200;
  res.set_header("Content-Type", "text/event-stream");
  res.set_header("Cache-Control", "no-store");
  res.set_header("X-Accel-Buffering", "no");
  auto stream = std::make_shared<HttpStream>();
  stream->keepalive = kWatchHeartbeat;
  stream->keepalive_chunk = ": heartbeat\n\n";
  std::shared_ptr<ChangeFeed::Subscription> held = std::move(subscribed).value();
  stream->start = [held, last = last_event_id_of(req)](std::shared_ptr<StreamWriter> writer) {
    held->attach(std::make_shared<SseFeedSink>(std::move(writer), last));
  };
  res.stream = std::move(stream);
}

}  // namespace

void add_watch_routes(Router& http, ChangeFeed& feed) {
  http.get("/api/v1/watch",
           [&feed](const HttpRequest& req, HttpResponse& res) { watch_changes(feed, req, res); });
}

}  // namespace allot::server
