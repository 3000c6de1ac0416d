#include "bench/chaos_checks.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "bench/chaos_pod_check.h"
#include "bench/chaos_reader.h"
#include "bench/chaos_usage_check.h"
#include "bench/load_cluster.h"
#include "tools/allotd_child.h"

namespace allot::bench {
namespace {

using nlohmann::json;

// A workload that must reach a state: 404 (`gone`) or a terminal phase.
struct Settling {
  std::string key;
  bool gone = false;
  std::string why;
};

void check_one_ack(const TrackedWorkload& w, const std::map<std::string, json>& stored,
                   ChaosCheckResult& result, std::vector<Settling>& settling) {
  const auto found = stored.find(w.key());
  result.submits_checked += w.submit == WriteOutcome::kAcked ? 1 : 0;
  result.deletes_checked += w.erase == WriteOutcome::kAcked ? 1 : 0;
  if (w.erase == WriteOutcome::kAcked) {
    if (found != stored.end()) settling.push_back({w.key(), true, "deleted (acknowledged)"});
    return;
  }
  if (w.must_exist()) {
    if (found == stored.end()) {
      result.violations.push_back("acknowledged submit " + w.key() + " (uid " +
                                  std::to_string(w.uid) + ") is lost");
      return;
    }
    const uint64_t uid = found->second.at("metadata").value("uid", uint64_t{0});
    if (uid != w.uid) {
      result.violations.push_back(w.key() + " has uid " + std::to_string(uid) +
                                  ", its acknowledged submit got " + std::to_string(w.uid));
    }
  }
  if (w.cancel != WriteOutcome::kAcked) return;
  ++result.cancels_checked;
  if (found == stored.end()) return;  // a delete of unknown outcome landed
  const json& status = found->second.at("status");
  if (terminal_phase(status.value("phase", ""))) return;
  if (status.value("stopping", false)) {
    settling.push_back({w.key(), false, "cancelled (acknowledged)"});
    return;
  }
  result.violations.push_back("acknowledged cancel of " + w.key() + " is undone: phase " +
                              status.value("phase", "?"));
}

// Polls each settling workload until it is gone or terminal; the rest are violations.
void settle(ChaosReader& reader, std::vector<Settling> settling, ChaosCheckResult& result) {
  poll_until(
      [&] {
        std::erase_if(settling, [&](const Settling& s) {
          int status = 0;
          const json w = reader.get(workloads_path(s.key), status);
          if (s.gone) return status == 404;
          return status == 404 ||
                 (!w.is_discarded() && terminal_phase(w["status"].value("phase", "")));
        });
        return settling.empty();
      },
      kSettleLimit);
  for (const Settling& s : settling) {
    result.violations.push_back(s.key + " was " + s.why + " but is still " +
                                (s.gone ? "stored" : "not finished") + " after " +
                                std::to_string(kSettleLimit.count()) + " ms");
  }
}

void check_acks(ChaosReader& reader, const std::vector<const ChaosLedger*>& ledgers,
                ChaosCheckResult& result) {
  std::vector<json> items;
  if (!reader.pages("/api/v1/workloads?limit=10000", items)) return;
  std::map<std::string, json> stored;
  std::set<uint64_t> uids;
  for (json& item : items) {
    const uint64_t uid = item.at("metadata").value("uid", uint64_t{0});
    if (!uids.insert(uid).second)
      result.violations.push_back("uid listed twice: " + workload_key(item));
    std::string key = workload_key(item);
    if (!stored.emplace(key, std::move(item)).second) {
      result.violations.push_back("listed twice: " + key);
    }
  }
  result.workloads_stored = static_cast<int64_t>(stored.size());
  std::vector<Settling> settling;
  for (const ChaosLedger* ledger : ledgers) {
    for (const TrackedWorkload& w : ledger->workloads) check_one_ack(w, stored, result, settling);
  }
  settle(reader, std::move(settling), result);
}

}  // namespace

ChaosCheckResult check_chaos_invariants(int port, const std::vector<const ChaosLedger*>& ledgers,
                                        const std::string& data_dir) {
  ChaosCheckResult result;
  ChaosReader reader(port, tools::read_admin_token(data_dir));
  check_acks(reader, ledgers, result);
  if (!reader.error().empty()) {
    result.error = reader.error();
    return result;
  }
  check_usage(reader, result);
  if (result.error.empty()) check_pods(reader, data_dir, result);
  return result;
}

}  // namespace allot::bench
