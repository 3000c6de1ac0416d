#include "bench/chaos_client.h"

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "bench/load_cluster.h"

namespace allot::bench {
namespace {

// Between two requests that found allotd down, so that an outage is not a
// busy loop of connects on the two cores allotd restarts on.
constexpr std::chrono::milliseconds kOutageBackoff{20};

// False when the connect failed: allotd was down and nothing was sent.
bool sent(const HttpAnswer& answer) {
  return answer.status != 0 || !answer.error.starts_with("connect");
}

}  // namespace

void ChaosClient::run_until(const std::atomic<bool>& stop, ChaosGate& gate) {
  while (!stop.load()) {
    gate.pass();
    step();
  }
  gate.leave();
}

void ChaosClient::step() {
  LoadOp op = pick_load_op(rng_);
  const int64_t mine = pick_mine();
  if ((op == LoadOp::kGet || op == LoadOp::kCancel || op == LoadOp::kDelete) && mine < 0) {
    op = LoadOp::kSubmit;
  }
  switch (op) {
    case LoadOp::kSubmit: submit(); return;
    case LoadOp::kGet: get(ledger_.workloads[static_cast<size_t>(mine)]); return;
    case LoadOp::kCancel: cancel(ledger_.workloads[static_cast<size_t>(mine)]); return;
    case LoadOp::kDelete: erase(ledger_.workloads[static_cast<size_t>(mine)]); return;
    case LoadOp::kList:
      send(op, "GET", workloads_path("t" + std::to_string(rng_() % kLoadTeams)) + "?limit=100");
      return;
    case LoadOp::kTop: send(op, "GET", "/api/v1/top"); return;
    case LoadOp::kApply:
      send(op, "POST", "/api/v1/apply",
           load_policy_yaml({.nodes = config_.nodes,
                             .first_team_nominal = rng_() % 2 == 0 ? 8 : 6,
                             .cycle = config_.cycle}),
           "application/yaml");
      return;
    default: {
      const std::string node =
          "/api/v1/nodes/" + load_node_name(static_cast<int32_t>(rng_() % config_.nodes));
      send(LoadOp::kDrain, "POST", node + "/drain");
      send(LoadOp::kUncordon, "POST", node + "/uncordon");
      return;
    }
  }
}

void ChaosClient::submit() {
  TrackedWorkload workload;
  workload.team = "t" + std::to_string(rng_() % kLoadTeams);
  workload.name = "c" + std::to_string(id_) + "-" + std::to_string(next_++);
  // Short pods of one or two GPUs, one or two of them, so that work finishes,
  // waits, and is stopped at every stage.
  const LoadWorkload shape{.name = workload.name,
                           .pods = static_cast<int32_t>(1 + rng_() % 2),
                           .gpus_per_pod = static_cast<int32_t>(1 + rng_() % 2),
                           .sleep_s = static_cast<int32_t>(1 + rng_() % 8)};
  const HttpAnswer answer =
      send(LoadOp::kSubmit, "POST", workloads_path(workload.team), load_workload_json(shape));
  workload.submit = outcome_of(answer.status, sent(answer));
  if (workload.submit == WriteOutcome::kAcked) {
    const nlohmann::json body = nlohmann::json::parse(answer.body, nullptr, false);
    if (body.is_discarded() || !body.contains("metadata")) {
      violations_.push_back("submit of " + workload.key() + ": 201 without the object");
    } else {
      workload.uid = body["metadata"].value("uid", uint64_t{0});
    }
    ++ledger_.acked_submits;
  }
  if (workload.submit == WriteOutcome::kUnknown) ++ledger_.unknown_writes;
  if (workload.submit == WriteOutcome::kRefused) return;  // a 4xx: nothing to remember
  live_.push_back(ledger_.workloads.size());
  ledger_.workloads.push_back(std::move(workload));
}

int64_t ChaosClient::pick_mine() {
  if (live_.empty()) return -1;
  return static_cast<int64_t>(live_[rng_() % live_.size()]);
}

void ChaosClient::expect_found(const TrackedWorkload& workload, int status, const char* what) {
  if (status == 404 && workload.must_exist()) {
    violations_.push_back(std::string(what) + " of " + workload.key() + " (uid " +
                          std::to_string(workload.uid) +
                          ") answered 404: an acknowledged submit is lost");
  }
}

void ChaosClient::get(TrackedWorkload& workload) {
  const HttpAnswer answer = send(LoadOp::kGet, "GET", workloads_path(workload.key()));
  expect_found(workload, answer.status, "get");
  if (answer.status != 200 || workload.cancel != WriteOutcome::kAcked) return;
  // Acknowledged cancel: never waiting or running again (stopping is allowed).
  const nlohmann::json body = nlohmann::json::parse(answer.body, nullptr, false);
  if (body.is_discarded()) return;
  const nlohmann::json& status = body["status"];
  const std::string phase = status.value("phase", "");
  const bool stopping = status.value("stopping", false);
  const bool holds_or_waits =
      phase == "Pending" || phase == "Preempted" || phase == "Admitted" || phase == "Running";
  if (holds_or_waits && !stopping) {
    violations_.push_back("get of " + workload.key() + " after an acknowledged cancel: phase " +
                          phase + (stopping ? " (stopping)" : ""));
  }
}

void ChaosClient::cancel(TrackedWorkload& workload) {
  const HttpAnswer answer =
      send(LoadOp::kCancel, "POST", workloads_path(workload.key()) + "/cancel");
  expect_found(workload, answer.status, "cancel");
  const WriteOutcome outcome = outcome_of(answer.status, sent(answer));
  if (outcome == WriteOutcome::kAcked && workload.cancel != WriteOutcome::kAcked) {
    ++ledger_.acked_cancels;
  }
  if (outcome == WriteOutcome::kUnknown) ++ledger_.unknown_writes;
  record_outcome(workload.cancel, outcome);
}

void ChaosClient::erase(TrackedWorkload& workload) {
  const HttpAnswer answer = send(LoadOp::kDelete, "DELETE", workloads_path(workload.key()));
  expect_found(workload, answer.status, "delete");
  WriteOutcome outcome = outcome_of(answer.status, sent(answer));
  if (outcome == WriteOutcome::kUnknown) ++ledger_.unknown_writes;
  if (outcome == WriteOutcome::kAcked) ++ledger_.acked_deletes;
  // A 404 says it is gone; nothing this client sends can bring it back.
  if (answer.status == 404) outcome = WriteOutcome::kAcked;
  record_outcome(workload.erase, outcome);
  if (workload.erase == WriteOutcome::kAcked) {
    const size_t index = static_cast<size_t>(&workload - ledger_.workloads.data());
    std::erase(live_, index);
  }
}

HttpAnswer ChaosClient::send(LoadOp op, const char* method, const std::string& path,
                             const std::string& body, const char* type) {
  ++requests_;
  if (const int port = port_.load(); http_ == nullptr || port != connected_port_) {
    http_ = std::make_unique<HttpLoadClient>(port, config_.timeout_s, config_.token);
    connected_port_ = port;
  }
  HttpAnswer answer = http_->request(method, path, body.empty() ? "" : type, body);
  if (!sent(answer)) {
    ++not_sent_;
    std::this_thread::sleep_for(kOutageBackoff);
    return answer;
  }
  if (answer.status == 0) {
    ++unanswered_;
    return answer;
  }
  // 503: allotd is starting (or its store fails): an outage, not an answer.
  if (answer.status != 503 && !expected_status(op, answer.status)) {
    ++errors_;
    if (first_error_.empty()) {
      first_error_ = std::string(method) + " " + path + ": " + std::to_string(answer.status) + " " +
                     answer.body.substr(0, 300);
    }
  }
  return answer;
}

}  // namespace allot::bench
