// Manifest text must be well-formed UTF-8: what is accepted, what is refused,
// and where the error points.
#include "api/utf8.h"

#include <string>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"

namespace allot {
namespace {

TEST(Utf8, AcceptsAsciiAndEveryWellFormedSequenceLength) {
  EXPECT_TRUE(check_utf8("").ok());
  EXPECT_TRUE(check_utf8("plain ascii\n").ok());
  EXPECT_TRUE(check_utf8("caf\xC3\xA9").ok());               // é, 2 bytes
  EXPECT_TRUE(check_utf8("\xE6\x97\xA5\xE6\x9C\xAC").ok());  // 日本, 3 bytes each
  EXPECT_TRUE(check_utf8("\xF0\x9F\x98\x80").ok());          // U+1F600, 4 bytes
  EXPECT_TRUE(check_utf8("\xF4\x8F\xBF\xBF").ok());          // U+10FFFF, the last
}

TEST(Utf8, RefusesMalformedSequences) {
  for (const std::string& bad : {std::string("\xFF"), std::string("\x80"),  // lone continuation
                                 std::string("\xC3"),                       // cut short
                                 std::string("\xC0\x80"),                   // overlong NUL
                                 std::string("\xE0\x80\x80"),               // overlong
                                 std::string("\xED\xA0\x80"),               // surrogate D800
                                 std::string("\xF4\x90\x80\x80"),           // above U+10FFFF
                                 std::string("\xE6\x97")}) {                // 3-byte cut short
    const Status status = check_utf8("ok " + bad);
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument) << testing::PrintToString(bad);
    EXPECT_EQ(status.details(), "line 1, column 4") << testing::PrintToString(bad);
  }
}

TEST(Utf8, ErrorNamesTheByteAndWhereItIs) {
  const Status status = check_utf8("a: 1\nb: caf\xC3\xA9\nc: \xFE\n");
  EXPECT_EQ(status.message(), "the text is not valid UTF-8: byte 0xFE at offset 17");
  EXPECT_EQ(status.details(), "line 3, column 4");
}

TEST(Utf8, ManifestsWithABadByteAreRefusedWithTheirSourceName) {
  const std::string yaml =
      "apiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: h100}\n"
      "spec: {labels: {zone: \"\xFF\"}}\n";
  const Result<ManifestBundle> parsed = parse_manifests(yaml, "org.yaml");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(parsed.status().details(), "org.yaml: line 4, column 24");
  EXPECT_FALSE(parse_manifests_with_documents("{\"kind\": \"\xC3\"}").ok());
}

}  // namespace
}  // namespace allot
