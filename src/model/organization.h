// Organization (issue 15, item 2): the organisation level of DESIGN.md
// section 1, one per installation: the data classifications it knows, in
// order from the least to the most sensitive. A Cluster's
// maxDataClassification and a Contract's dataClassification name one.
//
// Contract: plain values; validate_policy() checks there is at most one, that
// the levels are unique and not empty, and that the references name a level.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/object_meta.h"

namespace allot {

struct Organization {
  ObjectMeta meta;
  std::vector<std::string> data_classifications;  // ascending sensitivity

  // The rank of `level` (0 for the first), or nullopt when it is no level.
  [[nodiscard]] std::optional<size_t> rank(std::string_view level) const {
    for (size_t i = 0; i < data_classifications.size(); ++i) {
      if (data_classifications[i] == level) return i;
    }
    return std::nullopt;
  }

  friend bool operator==(const Organization&, const Organization&) = default;
};

}  // namespace allot
