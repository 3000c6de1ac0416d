#include "accounting/rate_card.h"

#include <algorithm>

namespace allot {
namespace {

const FlavorPrice& zero_price() {
  static const FlavorPrice kZero{0, 0, 0, ""};
  return kZero;
}

}  // namespace

Result<RateCard> RateCard::create(std::vector<RateCardVersion> versions) {
  std::sort(versions.begin(), versions.end(),
            [](const auto& a, const auto& b) { return a.version < b.version; });
  RateCard card;
  for (size_t i = 0; i < versions.size(); ++i) {
    const RateCardVersion& v = versions[i];
    if (v.version <= 0) {
      return invalid_argument("rate card version " + std::to_string(v.version) + " of flavor '" +
                              v.flavor + "' is not positive");
    }
    if (i > 0 && versions[i - 1].version == v.version) {
      return invalid_argument("rate card version " + std::to_string(v.version) + " appears twice");
    }
    std::vector<size_t>& flavor = card.by_flavor_[v.flavor];
    if (!flavor.empty() && versions[flavor.back()].from >= v.from) {
      return invalid_argument("rate card version " + std::to_string(v.version) + " of flavor '" +
                              v.flavor + "' does not start after version " +
                              std::to_string(versions[flavor.back()].version));
    }
    flavor.push_back(i);
  }
  card.versions_ = std::move(versions);
  return card;
}

std::vector<RateCard::Segment> RateCard::segments(const std::string& flavor, Timestamp from,
                                                  Timestamp to) const {
  std::vector<Segment> out;
  int64_t current = kNoRateCard;
  Timestamp cursor = from;
  auto it = by_flavor_.find(flavor);
  if (it != by_flavor_.end()) {
    for (size_t index : it->second) {
      const RateCardVersion& v = versions_[index];
      if (v.from <= from) {
        current = v.version;
        continue;
      }
      if (v.from >= to) break;
      out.push_back({current, cursor, v.from});
      current = v.version;
      cursor = v.from;
    }
  }
  out.push_back({current, cursor, to});
  return out;
}

const RateCardVersion* RateCard::find(int64_t version) const {
  auto it = std::lower_bound(versions_.begin(), versions_.end(), version,
                             [](const RateCardVersion& v, int64_t x) { return v.version < x; });
  if (it == versions_.end() || it->version != version) return nullptr;
  return &*it;
}

const FlavorPrice& RateCard::price(int64_t version) const {
  const RateCardVersion* found = find(version);
  return found == nullptr ? zero_price() : found->price;
}

}  // namespace allot
