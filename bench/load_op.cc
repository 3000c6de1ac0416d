#include "bench/load_op.h"

#include <iterator>

namespace allot::bench {
namespace {

constexpr const char* kOpNames[] = {"submit", "get",   "list",  "cancel",  "delete",
                                    "top",    "apply", "drain", "uncordon"};
static_assert(std::size(kOpNames) == kLoadOpCount);

// The mix in percent, in the order of LoadOp up to kDrain.
constexpr int kMix[] = {30, 20, 15, 10, 10, 5, 5, 5};

}  // namespace

const char* load_op_name(LoadOp op) { return kOpNames[static_cast<size_t>(op)]; }

LoadOp pick_load_op(std::mt19937_64& rng) {
  int roll = static_cast<int>(rng() % 100);
  for (size_t i = 0; i < std::size(kMix); ++i) {
    if (roll < kMix[i]) return static_cast<LoadOp>(i);
    roll -= kMix[i];
  }
  return LoadOp::kSubmit;
}

bool expected_status(LoadOp op, int status) {
  switch (op) {
    case LoadOp::kSubmit: return status == 201;
    case LoadOp::kGet: return status == 200 || status == 404;
    case LoadOp::kCancel:
    case LoadOp::kDelete: return status == 200 || status == 404 || status == 409;
    default: return status == 200;
  }
}

}  // namespace allot::bench
