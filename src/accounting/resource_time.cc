#include "accounting/resource_time.h"

#include "base/check.h"

namespace allot {
namespace {

constexpr double kMillisPerHour = 3'600'000.0;
constexpr double kMillicoresPerCore = 1000.0;
constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

double unit_of(Resource r) {
  switch (r) {
    case Resource::kGpu: return 1.0;
    case Resource::kCpu: return kMillicoresPerCore;
    case Resource::kMemory: return kBytesPerGiB;
  }
  return 1.0;
}

}  // namespace

ResourceTime ResourceTime::of(const ResourceVector& amount, Duration duration) {
  ALLOT_CHECK(duration.ms() >= 0);
  ResourceTime result;
  for (Resource r : kAllResources) {
    result[r] = static_cast<WideInt>(amount[r]) * static_cast<WideInt>(duration.ms());
  }
  return result;
}

ResourceTime& ResourceTime::operator+=(const ResourceTime& other) {
  for (Resource r : kAllResources) (*this)[r] += other[r];
  return *this;
}

ResourceTime& ResourceTime::operator-=(const ResourceTime& other) {
  for (Resource r : kAllResources) (*this)[r] -= other[r];
  return *this;
}

ResourceTime ResourceTime::operator+(const ResourceTime& other) const {
  ResourceTime sum = *this;
  sum += other;
  return sum;
}

ResourceTime ResourceTime::operator-(const ResourceTime& other) const {
  ResourceTime difference = *this;
  difference -= other;
  return difference;
}

double ResourceTime::hours(Resource r) const {
  return static_cast<double>((*this)[r]) / (kMillisPerHour * unit_of(r));
}

bool ResourceTime::is_zero() const {
  for (Resource r : kAllResources) {
    if ((*this)[r] != 0) return false;
  }
  return true;
}

}  // namespace allot
