// ResourceTime: allocated resources x time, exact.
//
// Contract: a value type holding, per resource, amount x milliseconds in the
// resource's base units (GPU devices, CPU millicores, memory bytes) as a
// 128-bit integer, so that sums over millions of allocations neither round
// nor overflow (a terabyte held for a year is ~2^75 byte-ms). Figures are
// turned into hours only when read: GPU-hours, CPU(core)-hours and
// memory-GiB-hours. Reconciliation (used + idle == capacity x time) is
// therefore exact, to the millisecond.
#pragma once

#include <array>

#include "base/quantity.h"
#include "base/time.h"

namespace allot {

__extension__ typedef __int128 WideInt;  // NOLINT(modernize-use-using): needs __extension__

class ResourceTime {
 public:
  ResourceTime() = default;
  // `amount` held for `duration`. REQUIRES: duration >= 0.
  static ResourceTime of(const ResourceVector& amount, Duration duration);

  [[nodiscard]] WideInt operator[](Resource r) const { return values_[static_cast<size_t>(r)]; }
  WideInt& operator[](Resource r) { return values_[static_cast<size_t>(r)]; }

  ResourceTime& operator+=(const ResourceTime& other);
  ResourceTime& operator-=(const ResourceTime& other);
  ResourceTime operator+(const ResourceTime& other) const;
  ResourceTime operator-(const ResourceTime& other) const;

  // GPU-hours, CPU core-hours or memory GiB-hours (unrounded).
  [[nodiscard]] double hours(Resource r) const;
  [[nodiscard]] bool is_zero() const;

  friend bool operator==(const ResourceTime&, const ResourceTime&) = default;

 private:
  std::array<WideInt, kResourceCount> values_{};
};

}  // namespace allot
