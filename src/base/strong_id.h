// StrongId<Tag>: an integer identifier that cannot be mixed up with another
// kind of identifier (a TeamId is not a NodeId). Dense ids index vectors.
// Value type; hashable; ordered so that containers iterate deterministically.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace allot {

template <typename Tag, typename Rep = uint32_t>
class StrongId {
 public:
  using rep_type = Rep;
  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep value) : value_(value) {}

  static constexpr StrongId invalid() { return StrongId(); }
  [[nodiscard]] constexpr bool valid() const { return value_ != kInvalid; }
  [[nodiscard]] constexpr Rep value() const { return value_; }

  // clang-tidy before 18 sees the 0 of the synthesized `(a <=> b) < 0` as a null
  // pointer (llvm/llvm-project#53961).
  constexpr auto operator<=>(const StrongId&) const = default;  // NOLINT(modernize-use-nullptr)

 private:
  static constexpr Rep kInvalid = std::numeric_limits<Rep>::max();
  Rep value_ = kInvalid;
};

}  // namespace allot

template <typename Tag, typename Rep>
struct std::hash<allot::StrongId<Tag, Rep>> {
  size_t operator()(const allot::StrongId<Tag, Rep>& id) const noexcept {
    return std::hash<Rep>()(id.value());
  }
};
