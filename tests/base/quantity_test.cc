#include "base/quantity.h"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace allot {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;

int64_t parse_ok(Resource resource, std::string_view text) {
  Result<int64_t> parsed = parse_quantity(resource, text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().to_string();
  return parsed.ok() ? *parsed : -1;
}

ErrorCode parse_error(Resource resource, std::string_view text) {
  return parse_quantity(resource, text).status().code();
}

TEST(Quantity, ParsesWholeGpus) {
  EXPECT_EQ(parse_ok(Resource::kGpu, "8"), 8);
  EXPECT_EQ(parse_ok(Resource::kGpu, "0"), 0);
}

TEST(Quantity, ParsesMillicores) { EXPECT_EQ(parse_ok(Resource::kCpu, "500m"), 500); }

TEST(Quantity, ParsesWholeCpusAsMillicores) { EXPECT_EQ(parse_ok(Resource::kCpu, "96"), 96'000); }

TEST(Quantity, ParsesFractionalCpusAsMillicores) {
  EXPECT_EQ(parse_ok(Resource::kCpu, "1.5"), 1500);
  EXPECT_EQ(parse_ok(Resource::kCpu, "0.001"), 1);
  EXPECT_EQ(parse_ok(Resource::kCpu, "1.1"), 1100);
}

TEST(Quantity, ParsesBinaryMemorySuffixes) {
  EXPECT_EQ(parse_ok(Resource::kMemory, "64Gi"), 64 * kGi);
  EXPECT_EQ(parse_ok(Resource::kMemory, "512Mi"), 512 * (int64_t{1} << 20));
  EXPECT_EQ(parse_ok(Resource::kMemory, "4Ki"), 4096);
  EXPECT_EQ(parse_ok(Resource::kMemory, "2Ti"), 2 * (int64_t{1} << 40));
  EXPECT_EQ(parse_ok(Resource::kMemory, "1.5Gi"), 3 * kGi / 2);
}

TEST(Quantity, ParsesDecimalMemorySuffixes) {
  EXPECT_EQ(parse_ok(Resource::kMemory, "1G"), 1'000'000'000);
  EXPECT_EQ(parse_ok(Resource::kMemory, "250M"), 250'000'000);
  EXPECT_EQ(parse_ok(Resource::kMemory, "3k"), 3000);
  EXPECT_EQ(parse_ok(Resource::kMemory, "1.1T"), 1'100'000'000'000);
}

TEST(Quantity, ParsesPlainBytes) { EXPECT_EQ(parse_ok(Resource::kMemory, "1000"), 1000); }

TEST(Quantity, RejectsNegative) {
  Result<int64_t> parsed = parse_quantity(Resource::kGpu, "-1");

  EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("negative"), std::string::npos);
}

TEST(Quantity, RejectsMalformedText) {
  for (std::string_view text : {"", "abc", "Gi", ".", "1.2.3", "8 ", " 8", "+8", "1e3", "0x10"}) {
    EXPECT_EQ(parse_error(Resource::kMemory, text), ErrorCode::kInvalidArgument)
        << "'" << text << "'";
  }
}

TEST(Quantity, RejectsUnknownSuffixNamingTheValidOnes) {
  Result<int64_t> parsed = parse_quantity(Resource::kMemory, "8GB");

  EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("Gi"), std::string::npos);
}

TEST(Quantity, RejectsFractionalGpus) {
  Result<int64_t> parsed = parse_quantity(Resource::kGpu, "0.5");

  EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("whole number"), std::string::npos);
  EXPECT_EQ(parse_error(Resource::kGpu, "500m"), ErrorCode::kInvalidArgument);
}

TEST(Quantity, RejectsFractionalGpusEvenWhenLarge) {
  EXPECT_EQ(parse_error(Resource::kGpu, "1000000.5"), ErrorCode::kInvalidArgument);
  EXPECT_EQ(parse_error(Resource::kGpu, "123456789.25"), ErrorCode::kInvalidArgument);
}

TEST(Quantity, RejectsFractionsOfAMillicore) {
  EXPECT_EQ(parse_error(Resource::kCpu, "0.0005"), ErrorCode::kInvalidArgument);
  EXPECT_EQ(parse_error(Resource::kCpu, "1.5m"), ErrorCode::kInvalidArgument);
}

TEST(Quantity, RejectsValuesAboveTheMaximum) {
  EXPECT_EQ(parse_error(Resource::kGpu, "2000000000000000"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error(Resource::kMemory, "2Pi"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error(Resource::kCpu, "2T"), ErrorCode::kOutOfRange);
}

TEST(Quantity, AcceptsTheMaximum) { EXPECT_EQ(parse_ok(Resource::kMemory, "1Pi"), kMaxQuantity); }

TEST(Quantity, FormatsCpuAsCoresOrMillicores) {
  EXPECT_EQ(format_quantity(Resource::kCpu, 2000), "2");
  EXPECT_EQ(format_quantity(Resource::kCpu, 1500), "1500m");
  EXPECT_EQ(format_quantity(Resource::kCpu, 0), "0");
}

TEST(Quantity, FormatsMemoryInTheLargestExactBinaryUnit) {
  EXPECT_EQ(format_quantity(Resource::kMemory, 64 * kGi), "64Gi");
  EXPECT_EQ(format_quantity(Resource::kMemory, 1536 * kGi), "1536Gi");
  EXPECT_EQ(format_quantity(Resource::kMemory, 4 * (int64_t{1} << 40)), "4Ti");
  EXPECT_EQ(format_quantity(Resource::kMemory, 1'000'000'000), "1000000000");
  EXPECT_EQ(format_quantity(Resource::kMemory, 0), "0");
}

TEST(Quantity, FormatsGpusAsWholeNumbers) { EXPECT_EQ(format_quantity(Resource::kGpu, 8), "8"); }

TEST(Quantity, FormattedTextParsesBackToTheSameAmount) {
  struct Case {
    Resource resource;
    int64_t amount;
  };
  for (Case c : {Case{Resource::kGpu, 8}, Case{Resource::kGpu, 0}, Case{Resource::kCpu, 500},
                 Case{Resource::kCpu, 96'000}, Case{Resource::kCpu, 1}, Case{Resource::kMemory, 1},
                 Case{Resource::kMemory, 512 * (int64_t{1} << 20)},
                 Case{Resource::kMemory, 1'000'000'000}, Case{Resource::kMemory, kMaxQuantity}}) {
    const std::string text = format_quantity(c.resource, c.amount);
    EXPECT_EQ(parse_ok(c.resource, text), c.amount) << text;
  }
}

TEST(Quantity, CanonicalTextRoundTrips) {
  EXPECT_EQ(format_quantity(Resource::kCpu, parse_ok(Resource::kCpu, "1500m")), "1500m");
  EXPECT_EQ(format_quantity(Resource::kMemory, parse_ok(Resource::kMemory, "64Gi")), "64Gi");
}

TEST(ResourceName, ParsesKnownNames) {
  for (Resource r : kAllResources) {
    Result<Resource> parsed = parse_resource_name(resource_name(r));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, r);
  }
  EXPECT_EQ(resource_name(Resource::kGpu), "gpu");
  EXPECT_EQ(resource_name(Resource::kCpu), "cpu");
  EXPECT_EQ(resource_name(Resource::kMemory), "memory");
}

TEST(ResourceName, RejectsUnknownNames) {
  for (std::string_view name : {"GPU", "tpu", "", "nvidia.com/gpu"}) {
    EXPECT_EQ(parse_resource_name(name).status().code(), ErrorCode::kInvalidArgument) << name;
  }
}

}  // namespace
}  // namespace allot
