#include "service/control/change_feed.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <utility>

#include "model/workload_status.h"
#include "service/control/access_control.h"

namespace allot {
namespace {

// Kinds no watcher hears of: secrets and the directory (whose names are
// people), and the ledger's own bookkeeping (which changes nothing shown).
constexpr std::array<std::string_view, 10> kUntoldFeedKinds = {
    "ApiToken",      "SessionKeys",         "ServiceAccount", "ScimUser",          "ScimGroup",
    "LocalPassword", "ScimRetiredUserName", "RevokedSession", "MeteringHeartbeat", "MeteringGap"};

bool untold_feed_kind(std::string_view kind) {
  return std::find(kUntoldFeedKinds.begin(), kUntoldFeedKinds.end(), kind) !=
         kUntoldFeedKinds.end();
}

// Adds a bare kind once.
void add_feed_kind(FeedNotice& notice, std::string_view kind) {
  for (const FeedChange& change : notice.changes) {
    if (change.kind == kind && change.name.empty()) return;
  }
  notice.changes.push_back({std::string(kind), "", "", ""});
}

void add_feed_change(FeedNotice& notice, FeedChange change) {
  if (notice.changes.size() >= kMaxChangesPerNotice) {
    notice.truncated = true;
    return;
  }
  notice.changes.push_back(std::move(change));
}

}  // namespace

FeedNotice visible_changes(const AccessControl& access, const Principal& caller,
                           const WriteBatch& batch) {
  FeedNotice notice;
  std::map<std::string, bool, std::less<>> may_list;  // by namespace
  const auto listable = [&](const std::string& namespace_name) {
    const auto found = may_list.find(namespace_name);
    if (found != may_list.end()) return found->second;
    const bool allowed = access.authorize(caller, "list", "workloads", namespace_name).ok();
    may_list.emplace(namespace_name, allowed);
    return allowed;
  };
  for (const WorkloadRecord& workload : batch.put_workloads) {
    if (!listable(workload.namespace_name)) {
      add_feed_kind(notice, "Workload");
      continue;
    }
    add_feed_change(notice, {"Workload", workload.namespace_name, workload.name,
                             std::string(workload_phase_name(workload.phase))});
  }
  if (!batch.delete_workloads.empty()) add_feed_kind(notice, "Workload");
  // The ledger: allocations, and measured GPU utilisation (efficiency).
  if (!batch.put_allocations.empty() || !batch.put_gpu_utilization.empty()) {
    add_feed_kind(notice, "Usage");
  }
  for (const ObjectRecord& object : batch.put_objects) {
    if (!untold_feed_kind(object.kind)) add_feed_kind(notice, object.kind);
  }
  for (const ObjectKey& object : batch.delete_objects) {
    if (!untold_feed_kind(object.kind)) add_feed_kind(notice, object.kind);
  }
  return notice;
}

ChangeFeed::Subscription::~Subscription() { feed_.drop(watcher_); }

void ChangeFeed::Subscription::attach(std::shared_ptr<FeedSink> sink) {
  const MutexLock lock(feed_.mu_);
  if (feed_.closed_) {
    sink->end();
    return;
  }
  sink->start(feed_.last_id_);
  watcher_->sink = std::move(sink);
}

Result<std::unique_ptr<ChangeFeed::Subscription>> ChangeFeed::subscribe(const Principal& caller) {
  const MutexLock lock(mu_);
  if (closed_) return Status(ErrorCode::kUnavailable, "allotd is stopping");
  if (watchers_.size() >= limits_.total) {
    return Status(ErrorCode::kResourceExhausted, "allotd serves at most " +
                                                     std::to_string(limits_.total) +
                                                     " change streams at once; retry later");
  }
  const size_t mine = static_cast<size_t>(std::count_if(
      watchers_.begin(), watchers_.end(),
      [&](const auto& watcher) { return watcher->caller.subject == caller.subject; }));
  if (mine >= limits_.per_subject) {
    return Status(ErrorCode::kResourceExhausted,
                  caller.subject + " already has " + std::to_string(mine) +
                      " change streams open (at most " + std::to_string(limits_.per_subject) +
                      "); close a dashboard tab");
  }
  auto watcher = std::make_shared<Watcher>(Watcher{caller, nullptr});
  watchers_.push_back(watcher);
  return std::make_unique<Subscription>(*this, std::move(watcher));
}

void ChangeFeed::publish(const WriteBatch& batch) {
  const MutexLock lock(mu_);
  if (closed_ || watchers_.empty()) {
    // Ids count changes watchers could have missed, watched or not.
    if (!closed_) ++last_id_;
    return;
  }
  const uint64_t id = ++last_id_;
  std::vector<std::shared_ptr<Watcher>> gone;
  for (const std::shared_ptr<Watcher>& watcher : watchers_) {
    if (!watcher->sink) continue;
    FeedNotice notice = visible_changes(access_, watcher->caller, batch);
    if (notice.changes.empty()) continue;
    notice.id = id;
    if (!watcher->sink->notify(notice)) gone.push_back(watcher);
  }
  for (const std::shared_ptr<Watcher>& watcher : gone) watcher->sink.reset();
}

uint64_t ChangeFeed::last_id() const {
  const MutexLock lock(mu_);
  return last_id_;
}

void ChangeFeed::close() {
  const MutexLock lock(mu_);
  closed_ = true;
  for (const std::shared_ptr<Watcher>& watcher : watchers_) {
    if (watcher->sink) watcher->sink->end();
    watcher->sink.reset();
  }
}

void ChangeFeed::drop(const std::shared_ptr<Watcher>& watcher) {
  const MutexLock lock(mu_);
  std::erase(watchers_, watcher);
}

}  // namespace allot
