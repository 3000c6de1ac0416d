#include "base/quantity.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "base/check.h"

namespace allot {
namespace {

struct Suffix {
  std::string_view text;
  double factor;
};

// Kubernetes quantity suffixes (binary and decimal SI), as multipliers of one unit.
constexpr Suffix kSuffixes[] = {
    {"Ki", 1024.0},
    {"Mi", 1048576.0},
    {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0},
    {"k", 1e3},
    {"K", 1e3},
    {"M", 1e6},
    {"G", 1e9},
    {"T", 1e12},
    {"P", 1e15},
    {"m", 1e-3},
};

Result<double> suffix_factor(std::string_view suffix) {
  if (suffix.empty()) return 1.0;
  for (const auto& s : kSuffixes) {
    if (s.text == suffix) return s.factor;
  }
  return invalid_argument("unknown quantity suffix '" + std::string(suffix) +
                          "'; use m, k, M, G, T, Ki, Mi, Gi or Ti");
}

int64_t add_or_die(int64_t a, int64_t b) {
  int64_t out = 0;
  ALLOT_CHECK(!__builtin_add_overflow(a, b, &out));
  return out;
}

int64_t sub_or_die(int64_t a, int64_t b) {
  int64_t out = 0;
  ALLOT_CHECK(!__builtin_sub_overflow(a, b, &out));
  return out;
}

}  // namespace

std::string_view resource_name(Resource r) {
  switch (r) {
    case Resource::kGpu: return "gpu";
    case Resource::kCpu: return "cpu";
    case Resource::kMemory: return "memory";
  }
  return "unknown";
}

Result<Resource> parse_resource_name(std::string_view name) {
  for (Resource r : kAllResources) {
    if (resource_name(r) == name) return r;
  }
  return invalid_argument("unknown resource '" + std::string(name) +
                          "'; allot knows gpu, cpu and memory");
}

Result<int64_t> parse_quantity(Resource resource, std::string_view text) {
  if (text.empty()) return invalid_argument("empty quantity");
  if (text.front() == '-') {
    return invalid_argument("negative quantity '" + std::string(text) + "'");
  }
  size_t digits_end = 0;
  while (digits_end < text.size() &&
         ((text[digits_end] >= '0' && text[digits_end] <= '9') || text[digits_end] == '.')) {
    ++digits_end;
  }
  double number = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + digits_end, number);
  if (digits_end == 0 || ec != std::errc() || ptr != text.data() + digits_end) {
    return invalid_argument("malformed quantity '" + std::string(text) +
                            "'; expected a number like 8, 500m or 64Gi");
  }
  ALLOT_ASSIGN_OR_RETURN(double factor, suffix_factor(text.substr(digits_end)));
  // cpu is stored in millicores; gpu and memory in whole units.
  double base = number * factor * (resource == Resource::kCpu ? 1000.0 : 1.0);
  double rounded = std::round(base);
  // Absorbs binary floating point's rounding (relative error below 1e-15) but
  // no real half unit below 5e14 units; a relative 1e-6 accepted "1000000.5" gpus.
  if (std::fabs(base - rounded) > std::max(1e-6, 1e-15 * std::fabs(base))) {
    return invalid_argument("quantity '" + std::string(text) + "' is not a whole number of " +
                            (resource == Resource::kCpu ? "millicores" : "units"));
  }
  if (rounded > static_cast<double>(kMaxQuantity)) {
    return out_of_range("quantity '" + std::string(text) + "' is too large");
  }
  return static_cast<int64_t>(rounded);
}

std::string format_quantity(Resource resource, int64_t amount) {
  if (resource == Resource::kCpu) {
    if (amount % 1000 == 0) return std::to_string(amount / 1000);
    return std::to_string(amount) + "m";
  }
  if (resource == Resource::kMemory && amount != 0) {
    constexpr struct {
      int64_t factor;
      const char* suffix;
    } kUnits[] = {{int64_t{1} << 40, "Ti"},
                  {int64_t{1} << 30, "Gi"},
                  {int64_t{1} << 20, "Mi"},
                  {int64_t{1} << 10, "Ki"}};
    for (const auto& unit : kUnits) {
      if (amount % unit.factor == 0) return std::to_string(amount / unit.factor) + unit.suffix;
    }
  }
  return std::to_string(amount);
}

ResourceVector ResourceVector::operator+(const ResourceVector& other) const {
  ResourceVector out = *this;
  out += other;
  return out;
}

ResourceVector ResourceVector::operator-(const ResourceVector& other) const {
  ResourceVector out = *this;
  out -= other;
  return out;
}

ResourceVector ResourceVector::operator*(int64_t factor) const {
  ResourceVector out;
  for (size_t i = 0; i < values_.size(); ++i) {
    ALLOT_CHECK(!__builtin_mul_overflow(values_[i], factor, &out.values_[i]));
  }
  return out;
}

ResourceVector& ResourceVector::operator+=(const ResourceVector& other) {
  for (size_t i = 0; i < values_.size(); ++i) values_[i] = add_or_die(values_[i], other.values_[i]);
  return *this;
}

ResourceVector& ResourceVector::operator-=(const ResourceVector& other) {
  for (size_t i = 0; i < values_.size(); ++i) values_[i] = sub_or_die(values_[i], other.values_[i]);
  return *this;
}

bool ResourceVector::is_zero() const {
  return values_[0] == 0 && values_[1] == 0 && values_[2] == 0;
}

bool ResourceVector::any_negative() const {
  return values_[0] < 0 || values_[1] < 0 || values_[2] < 0;
}

std::string ResourceVector::to_string() const {
  std::string out;
  for (Resource r : kAllResources) {
    if ((*this)[r] == 0) continue;
    if (!out.empty()) out += ' ';
    out += std::string(resource_name(r)) + "=" + format_quantity(r, (*this)[r]);
  }
  return out.empty() ? "0" : out;
}

Result<ResourceVector> checked_add(const ResourceVector& a, const ResourceVector& b) {
  ResourceVector out;
  for (Resource r : kAllResources) {
    int64_t sum = 0;
    if (__builtin_add_overflow(a[r], b[r], &sum) || sum > kMaxQuantity) {
      return out_of_range("sum of " + std::string(resource_name(r)) + " quantities is too large");
    }
    out[r] = sum;
  }
  return out;
}

Result<ResourceVector> checked_multiply(const ResourceVector& a, int64_t factor) {
  ResourceVector out;
  for (Resource r : kAllResources) {
    int64_t product = 0;
    if (__builtin_mul_overflow(a[r], factor, &product) || product > kMaxQuantity) {
      return out_of_range("product of " + std::string(resource_name(r)) + " quantity is too large");
    }
    out[r] = product;
  }
  return out;
}

}  // namespace allot
