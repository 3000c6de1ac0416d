// ChaosReader: how the chaos bench's checks read a restarted allotd: GET with
// the JSON body, every page of a list, and the first failure kept; plus the
// bounded poll with which the checks wait for what is in motion to settle.
//
// Contract: one keep-alive connection to 127.0.0.1:port; not thread-safe. A
// 404 is an answer, not a failure; any other status but 200 is one.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/http_load_client.h"

namespace allot::bench {

// How long what is in motion may take to settle: pods of a cancel or delete
// stopping (grace 0 s), a drained node's pods exiting, a quiet moment.
constexpr std::chrono::milliseconds kSettleLimit{30'000};

// Calls `done` every 50 ms until it returns true (true) or `limit` passed (false).
template <typename Done>
bool poll_until(Done&& done, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

inline bool terminal_phase(const std::string& phase) {
  return phase == "Cancelled" || phase == "Succeeded" || phase == "Failed";
}

// A quantity of the API ("8") or a number, as an integer.
inline int64_t quantity_of(const nlohmann::json& value) {
  return value.is_string() ? std::stoll(value.get<std::string>()) : value.get<int64_t>();
}

// "namespace/name" of a workload object.
inline std::string workload_key(const nlohmann::json& workload) {
  const nlohmann::json& meta = workload.at("metadata");
  return meta.at("namespace").get<std::string>() + "/" + meta.at("name").get<std::string>();
}

class ChaosReader {
 public:
  ChaosReader(int port, const std::string& token) : http_(port, 60, token) {}

  // The body of a 200, or a discarded value; `status` is the answer's.
  nlohmann::json get(const std::string& path, int& status) {
    const HttpAnswer answer = http_.request("GET", path);
    status = answer.status;
    if (status != 200) {
      if (error_.empty() && status != 404) {
        error_ = "GET " + path + ": " +
                 (status == 0 ? answer.error
                              : std::to_string(status) + " " + answer.body.substr(0, 200));
      }
      return nlohmann::json(nlohmann::json::value_t::discarded);
    }
    return nlohmann::json::parse(answer.body, nullptr, false);
  }
  nlohmann::json get(const std::string& path) {
    int status = 0;
    return get(path, status);
  }
  // Every page of `path` (which has a query already); false on a failure.
  bool pages(const std::string& path, std::vector<nlohmann::json>& items) {
    items.clear();
    std::string token;
    do {
      const nlohmann::json page = get(path + (token.empty() ? "" : "&continue=" + token));
      if (page.is_discarded()) return false;
      for (const nlohmann::json& item : page.at("items")) items.push_back(item);
      token = page.value("continue", "");
    } while (!token.empty());
    return true;
  }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  HttpLoadClient http_;
  std::string error_;
};

}  // namespace allot::bench
