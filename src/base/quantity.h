// Resource quantities, in the units Kubernetes users know.
//
// Contract: three resources exist: `gpu` (whole devices), `cpu` (stored in
// millicores: "500m" = 500, "2" = 2000) and `memory` (stored in bytes: "64Gi",
// "512Mi", "1G"). parse_quantity() rejects negative, fractional-where-invalid
// and oversized values (above kMaxQuantity), so that sums of any realistic
// number of parsed values cannot overflow; ResourceVector's operators still
// check for overflow and abort on it (an invariant, unreachable from input).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace allot {

enum class Resource : uint8_t { kGpu = 0, kCpu = 1, kMemory = 2 };
inline constexpr int kResourceCount = 3;
inline constexpr std::array<Resource, kResourceCount> kAllResources = {
    Resource::kGpu, Resource::kCpu, Resource::kMemory};
// Largest value accepted from input for any resource (in base units): 2^50.
inline constexpr int64_t kMaxQuantity = int64_t{1} << 50;

std::string_view resource_name(Resource r);
Result<Resource> parse_resource_name(std::string_view name);

// Parses a quantity of `resource` from its text form into base units.
Result<int64_t> parse_quantity(Resource resource, std::string_view text);
// Formats base units back into the most readable text ("1500m", "64Gi", "8").
std::string format_quantity(Resource resource, int64_t amount);

class ResourceVector {
 public:
  constexpr ResourceVector() = default;
  constexpr ResourceVector(int64_t gpu, int64_t cpu_millis, int64_t memory_bytes)
      : values_{gpu, cpu_millis, memory_bytes} {}

  [[nodiscard]] constexpr int64_t operator[](Resource r) const {
    return values_[static_cast<size_t>(r)];
  }
  constexpr int64_t& operator[](Resource r) { return values_[static_cast<size_t>(r)]; }
  [[nodiscard]] constexpr int64_t gpu() const { return values_[0]; }
  [[nodiscard]] constexpr int64_t cpu_millis() const { return values_[1]; }
  [[nodiscard]] constexpr int64_t memory_bytes() const { return values_[2]; }

  ResourceVector operator+(const ResourceVector& other) const;
  ResourceVector operator-(const ResourceVector& other) const;
  ResourceVector operator*(int64_t factor) const;
  ResourceVector& operator+=(const ResourceVector& other);
  ResourceVector& operator-=(const ResourceVector& other);

  // True when every component of this is <= the same component of `other`.
  [[nodiscard]] bool fits_in(const ResourceVector& other) const {
    return values_[0] <= other.values_[0] && values_[1] <= other.values_[1] &&
           values_[2] <= other.values_[2];
  }
  [[nodiscard]] bool is_zero() const;
  [[nodiscard]] bool any_negative() const;
  // "gpu=8 cpu=96 memory=512Gi", omitting zero components (or "0" if all are).
  [[nodiscard]] std::string to_string() const;

  friend constexpr bool operator==(const ResourceVector&, const ResourceVector&) = default;

 private:
  std::array<int64_t, kResourceCount> values_{};
};

// Adds with an overflow check that reports instead of aborting (for input sums).
Result<ResourceVector> checked_add(const ResourceVector& a, const ResourceVector& b);
Result<ResourceVector> checked_multiply(const ResourceVector& a, int64_t factor);

}  // namespace allot
