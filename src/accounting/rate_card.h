// RateCard: the versioned prices of the flavors. A price change applies from
// its time on; every figure names the version it was priced with.
//
// Contract: immutable once created. create() checks that versions are unique
// and positive and that each flavor's versions start at strictly increasing
// times with increasing version numbers. A span of a flavor before its first
// version is priced at zero under version 0 ("no rate card"). Pure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/resource_flavor.h"

namespace allot {

struct RateCardVersion {
  int64_t version = 0;  // 1, 2, ... across all flavors, in the order they were recorded
  std::string flavor;
  Timestamp from;
  FlavorPrice price;

  friend bool operator==(const RateCardVersion&, const RateCardVersion&) = default;
};

inline constexpr int64_t kNoRateCard = 0;

class RateCard {
 public:
  struct Segment {
    int64_t version = kNoRateCard;
    Timestamp from;
    Timestamp to;
  };

  RateCard() = default;
  static Result<RateCard> create(std::vector<RateCardVersion> versions);

  // The spans of [from, to) under each version of `flavor`, in time order,
  // covering it exactly. REQUIRES: from < to.
  [[nodiscard]] std::vector<Segment> segments(const std::string& flavor, Timestamp from,
                                              Timestamp to) const;
  // The price of a version; zero (and no currency) for kNoRateCard or an unknown one.
  [[nodiscard]] const FlavorPrice& price(int64_t version) const;
  [[nodiscard]] const RateCardVersion* find(int64_t version) const;
  [[nodiscard]] const std::vector<RateCardVersion>& versions() const { return versions_; }

 private:
  std::vector<RateCardVersion> versions_;                 // by version
  std::map<std::string, std::vector<size_t>> by_flavor_;  // indexes, by time
};

}  // namespace allot
