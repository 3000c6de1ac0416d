#include "accounting/ledger.h"

#include <algorithm>

namespace allot {

std::vector<Period> subtract_periods(Period whole, std::vector<Period> holes) {
  std::sort(holes.begin(), holes.end(),
            [](const Period& a, const Period& b) { return a.from < b.from; });
  std::vector<Period> left;
  Timestamp cursor = whole.from;
  for (const Period& hole : holes) {
    if (hole.to <= cursor || hole.from >= hole.to) continue;
    if (hole.from >= whole.to) break;
    if (hole.from > cursor) left.push_back({cursor, hole.from});
    cursor = std::max(cursor, hole.to);
  }
  if (cursor < whole.to) left.push_back({cursor, whole.to});
  return left;
}

}  // namespace allot
