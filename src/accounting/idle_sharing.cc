#include "accounting/idle_sharing.h"

#include <algorithm>
#include <numeric>

#include "base/check.h"

namespace allot {
namespace {

std::vector<WideInt> split_non_negative(WideInt total, const std::vector<WideInt>& weights) {
  const WideInt sum = std::accumulate(weights.begin(), weights.end(), WideInt{0});
  ALLOT_CHECK(sum > 0);
  // total * w / sum without overflow: total = q * sum + r with r < sum.
  const WideInt q = total / sum;
  const WideInt r = total % sum;
  std::vector<WideInt> shares(weights.size());
  std::vector<WideInt> fraction(weights.size());
  WideInt given = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    ALLOT_CHECK(weights[i] >= 0);
    shares[i] = q * weights[i] + (r * weights[i]) / sum;
    fraction[i] = (r * weights[i]) % sum;
    given += shares[i];
  }
  std::vector<size_t> order(weights.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return fraction[a] > fraction[b]; });
  for (size_t k = 0; given < total; ++k) {
    ++shares[order[k % order.size()]];
    ++given;
  }
  return shares;
}

}  // namespace

std::vector<WideInt> split_exact(WideInt total, const std::vector<WideInt>& weights) {
  if (total >= 0) return split_non_negative(total, weights);
  std::vector<WideInt> shares = split_non_negative(-total, weights);
  for (WideInt& share : shares) share = -share;
  return shares;
}

}  // namespace allot
