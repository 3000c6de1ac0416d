#include "service/ordered_workers.h"

#include <utility>

namespace allot {

OrderedWorkers::OrderedWorkers(size_t threads) {
  for (size_t i = 0; i < threads; ++i) {
    lanes_.push_back(std::make_unique<Lane>());
    Lane& lane = *lanes_.back();
    lane.thread = std::thread([&lane] { drain(lane); });
  }
}

OrderedWorkers::~OrderedWorkers() {
  for (auto& lane : lanes_) {
    {
      std::lock_guard lock(lane->mu);
      lane->stopping = true;
    }
    lane->ready.notify_all();
  }
  for (auto& lane : lanes_) lane->thread.join();
}

void OrderedWorkers::run(uint64_t key, std::function<void()> task) {
  if (lanes_.empty()) {
    task();
    return;
  }
  Lane& lane = *lanes_[key % lanes_.size()];
  {
    std::lock_guard lock(lane.mu);
    lane.tasks.push_back(std::move(task));
  }
  lane.ready.notify_one();
}

void OrderedWorkers::drain(Lane& lane) {
  while (true) {
    std::function<void()> task;
    {
      std::unique_lock lock(lane.mu);
      lane.ready.wait(lock, [&] { return lane.stopping || !lane.tasks.empty(); });
      if (lane.tasks.empty()) return;  // stopping, and nothing left to do
      task = std::move(lane.tasks.front());
      lane.tasks.pop_front();
    }
    task();
  }
}

}  // namespace allot
