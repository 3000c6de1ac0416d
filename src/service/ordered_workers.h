// OrderedWorkers: a few threads that carry out the admission loop's actions
// (pod launches and stops) off the loop, so that slow process starts do not
// delay scheduling.
//
// Contract: run(key, task) queues `task`; tasks with the same key run one at
// a time in the order they were queued (a workload's stop never overtakes its
// launch), tasks with different keys may run in parallel. With zero threads
// every task runs at once on the caller's thread (deterministic tests).
// The destructor finishes every queued task, then joins. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace allot {

class OrderedWorkers {
 public:
  explicit OrderedWorkers(size_t threads);
  ~OrderedWorkers();
  OrderedWorkers(const OrderedWorkers&) = delete;
  OrderedWorkers& operator=(const OrderedWorkers&) = delete;

  void run(uint64_t key, std::function<void()> task);

 private:
  struct Lane {
    std::mutex mu;
    std::condition_variable ready;
    std::deque<std::function<void()>> tasks;
    bool stopping = false;
    std::thread thread;
  };
  static void drain(Lane& lane);

  std::vector<std::unique_ptr<Lane>> lanes_;
};

}  // namespace allot
