// ChangeFeed: what changed in allotd's state, for those watching it (the
// dashboard's server-sent events, GET /api/v1/watch; docs/web.md), each
// told only what it may list.
//
// Contract:
// - publish() is given every batch of changes as it is queued for the store
//   (ClusterState), in the order the changes were made; each batch gets
//   the next id (1, 2, ...: the feed's resourceVersion, counted from
//   allotd's start), and a watcher that hears of it gets a notice with it.
// - What a watcher hears of a batch (visible_changes()): a workload it may
//   `list` in that namespace (AccessControl::authorize) by kind, namespace,
//   name and phase; any other workload change (another team's, a delete),
//   and the usage ledger (allocations, measured GPU utilisation), as the
//   bare kind ("Workload", "Usage"): the
//   aggregate numbers everyone sees changed, never whose; an object by its
//   kind alone, except the secrets' kinds (tokens, keys, passwords,
//   directory records, revoked sessions), never told. At most
//   kMaxChangesPerNotice named changes a notice (then `truncated`), besides
//   the bare kinds (each once).
// - subscribe() admits at most `limits.total` watchers, `limits.per_subject`
//   of one subject (kResourceExhausted beyond); a Subscription counts until
//   it is destroyed. attach() gives it the sink its notices go to; one whose
//   sink refuses (returns false) is dropped.
// - close() ends every sink and refuses later subscriptions (kUnavailable):
//   allotd stops.
// Thread-safe; publish() takes the feed's lock and AccessControl's (shared),
// nothing else, and may be called with the cluster state held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "base/result.h"
#include "model/principal.h"
#include "store/store.h"

namespace allot {

class AccessControl;

inline constexpr size_t kMaxChangesPerNotice = 100;

struct FeedChange {
  std::string kind;            // "Workload", "Usage", or an object's kind
  std::string namespace_name;  // empty unless the watcher may see it
  std::string name;
  std::string phase;  // a visible workload's

  friend bool operator==(const FeedChange&, const FeedChange&) = default;
};

struct FeedNotice {
  uint64_t id = 0;
  std::vector<FeedChange> changes;
  bool truncated = false;
};

// Where a watcher's notices go. Called with the feed's lock held: must
// return at once (queue, not write).
class FeedSink {
 public:
  FeedSink() = default;
  virtual ~FeedSink() = default;
  FeedSink(const FeedSink&) = delete;
  FeedSink& operator=(const FeedSink&) = delete;
  // First, once: the id of the last batch before the notices that follow.
  virtual void start(uint64_t last_id) = 0;
  // false: the watcher is gone (the feed drops it).
  virtual bool notify(const FeedNotice& notice) = 0;
  virtual void end() = 0;
};

struct FeedLimits {
  size_t total = 256;
  size_t per_subject = 8;
};

// What `caller` hears of `batch` (see the contract); empty: nothing.
[[nodiscard]] FeedNotice visible_changes(const AccessControl& access, const Principal& caller,
                                         const WriteBatch& batch);

class ChangeFeed {
  struct Watcher;

 public:
  explicit ChangeFeed(const AccessControl& access, FeedLimits limits = {})
      : access_(access), limits_(limits) {}
  ChangeFeed(const ChangeFeed&) = delete;
  ChangeFeed& operator=(const ChangeFeed&) = delete;

  class Subscription {
   public:
    Subscription(ChangeFeed& feed, std::shared_ptr<Watcher> watcher)
        : feed_(feed), watcher_(std::move(watcher)) {}
    ~Subscription();
    Subscription(const Subscription&) = delete;
    Subscription& operator=(const Subscription&) = delete;
    // From now on the watcher's notices go to `sink`, which first hears
    // (FeedSink::start) the id of the last batch it will not be told of.
    void attach(std::shared_ptr<FeedSink> sink);

   private:
    ChangeFeed& feed_;
    std::shared_ptr<Watcher> watcher_;
  };

  Result<std::unique_ptr<Subscription>> subscribe(const Principal& caller) ALLOT_EXCLUDES(mu_);
  void publish(const WriteBatch& batch) ALLOT_EXCLUDES(mu_);
  [[nodiscard]] uint64_t last_id() const ALLOT_EXCLUDES(mu_);
  void close() ALLOT_EXCLUDES(mu_);

 private:
  struct Watcher {
    Principal caller;
    std::shared_ptr<FeedSink> sink;  // none until attached
  };
  void drop(const std::shared_ptr<Watcher>& watcher) ALLOT_EXCLUDES(mu_);

  const AccessControl& access_;
  const FeedLimits limits_;
  mutable Mutex mu_;
  std::vector<std::shared_ptr<Watcher>> watchers_ ALLOT_GUARDED_BY(mu_);
  uint64_t last_id_ ALLOT_GUARDED_BY(mu_) = 0;
  bool closed_ ALLOT_GUARDED_BY(mu_) = false;
};

}  // namespace allot
