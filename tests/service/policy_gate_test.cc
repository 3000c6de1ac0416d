// PolicyGate: submits share it, a policy change holds it alone, and a change
// that asked is served before the submits that come after it.
#include "service/control/policy_gate.h"

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace allot {
namespace {

class Order {
 public:
  void add(std::string what) {
    const std::lock_guard lock(mu_);
    seen_.push_back(std::move(what));
  }
  std::vector<std::string> seen() {
    const std::lock_guard lock(mu_);
    return seen_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> seen_;
};

TEST(PolicyGate, SubmitsShareItAndAChangeWaitsForThoseInFlight) {
  PolicyGate gate;
  Order order;
  gate.lock_shared();
  std::thread other_submit([&] {
    gate.lock_shared();  // not held back by the first
    order.add("submit");
    gate.unlock_shared();
  });
  other_submit.join();
  std::thread change([&] {
    gate.lock();
    order.add("change");
    gate.unlock();
  });
  gate.wait_until_changes_asked(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(order.seen(), std::vector<std::string>{"submit"}) << "the change ran beside a submit";
  gate.unlock_shared();
  change.join();
  EXPECT_EQ(order.seen(), (std::vector<std::string>{"submit", "change"}));
}

// std::shared_mutex on glibc lets new readers in while a writer waits: under
// a steady stream of submits an apply waited for a moment with none in flight.
TEST(PolicyGate, AChangeThatAskedGoesBeforeLaterSubmits) {
  PolicyGate gate;
  Order order;
  gate.lock_shared();  // a submit in flight
  std::thread change([&] {
    gate.lock();
    order.add("change");
    gate.unlock();
  });
  gate.wait_until_changes_asked(1);
  std::thread later_submit([&] {
    gate.lock_shared();
    order.add("submit");
    gate.unlock_shared();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(order.seen().empty()) << "a later submit went before the waiting change";
  gate.unlock_shared();
  change.join();
  later_submit.join();
  EXPECT_EQ(order.seen(), (std::vector<std::string>{"change", "submit"}));
}

}  // namespace
}  // namespace allot
