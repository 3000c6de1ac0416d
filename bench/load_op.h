// The requests of the load benches (`allot-bench mixed`, `allot-bench chaos`)
// and their mix: submit (30%), get (20%), list a page (15%), cancel (10%),
// delete (10%), top (5%), apply of the policy with a team's quota changed
// (5%), and a drain followed by an uncordon of a node (5%).
//
// Contract: pure; pick_load_op() draws from `rng` only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

namespace allot::bench {

enum class LoadOp : uint8_t {
  kSubmit,
  kGet,
  kList,
  kCancel,
  kDelete,
  kTop,
  kApply,
  kDrain,
  kUncordon
};
constexpr size_t kLoadOpCount = 9;

const char* load_op_name(LoadOp op);

// One op of the mix; never kUncordon (it follows each drain).
LoadOp pick_load_op(std::mt19937_64& rng);

// The statuses the API documents for `op` in a busy cluster (e.g. a cancel of
// a workload that another request already ended is a 409, not an error).
bool expected_status(LoadOp op, int status);

}  // namespace allot::bench
