// Fuzz target: resource names and quantities (base/quantity.h), as every
// manifest's resources carry them. A quantity that parses is within
// 0..kMaxQuantity and its formatted text parses back to the same amount.
// Seeds: tests/fuzz/corpus/quantity, quantity.dict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/quantity.h"
#include "fuzz_expect.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  using allot::fuzz::fuzz_expect;
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  (void)allot::parse_resource_name(text);
  for (const allot::Resource resource : allot::kAllResources) {
    const allot::Result<int64_t> amount = allot::parse_quantity(resource, text);
    if (!amount.ok()) continue;
    fuzz_expect(*amount >= 0 && *amount <= allot::kMaxQuantity, "a quantity is in range", text);
    const std::string formatted = allot::format_quantity(resource, *amount);
    const allot::Result<int64_t> again = allot::parse_quantity(resource, formatted);
    fuzz_expect(again.ok() && *again == *amount, "a formatted quantity parses back the same",
                formatted);
  }
  return 0;
}
