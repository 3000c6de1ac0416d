#include "governance/audit_event.h"

#include <gtest/gtest.h>

#include "governance/audit_checkpoint.h"
#include "governance/hash_chain.h"
#include "identity/credentials/secret_codec.h"

namespace allot::governance {
namespace {

AuditEvent sample_event() {
  AuditEvent event;
  event.audit_id = "a1";
  event.request_uri = "/api/v1/namespaces/vision/workloads";
  event.verb = "create";
  event.username = "ana";
  event.groups = {"vision-team"};
  event.source_ips = {"127.0.0.1"};
  event.object_ref = AuditObjectRef{"workloads", "vision", "train\"1", "", "allot.dev"};
  event.response_code = 201;
  event.decision = "allow";
  event.reason = "RoleBinding \"vision/members\" grants ClusterRole \"team-member\"";
  event.request_received = Timestamp::from_millis(1'764'754'505'123);
  event.stage_time = Timestamp::from_millis(1'764'754'505'130);
  return event;
}

TEST(AuditLine, IsTheKubernetesEventShapeWithTheChainFirst) {
  const std::string line = audit_line({7, std::string(kGenesisHash), sample_event()});
  EXPECT_EQ(line,
            R"({"sequence":7,"previousHash":")" + std::string(kGenesisHash) +
                R"(","apiVersion":"audit.k8s.io/v1","kind":"Event","level":"Metadata",)"
                R"("auditID":"a1","stage":"ResponseComplete",)"
                R"("requestURI":"/api/v1/namespaces/vision/workloads","verb":"create",)"
                R"("user":{"username":"ana","groups":["vision-team"]},"sourceIPs":["127.0.0.1"],)"
                R"("objectRef":{"resource":"workloads","namespace":"vision","name":"train\"1",)"
                R"("apiGroup":"allot.dev"},"responseStatus":{"code":201},)"
                R"("requestReceivedTimestamp":"2025-12-03T09:35:05.123000Z",)"
                R"("stageTimestamp":"2025-12-03T09:35:05.130000Z",)"
                R"("annotations":{"authorization.k8s.io/decision":"allow",)"
                R"("authorization.k8s.io/reason":"RoleBinding \"vision/members\" grants )"
                R"(ClusterRole \"team-member\""}})");
}

TEST(AuditLine, EscapesControlCharactersSoALineNeverSplits) {
  AuditEvent event = sample_event();
  event.response_message = "bad\nname\x01";
  const std::string line = audit_line({1, std::string(kGenesisHash), event});
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find(R"("message":"bad\u000aname\u0001")"), std::string::npos);
}

// Bytes that are not UTF-8 (a request URI may hold any) become U+FFFD, one
// each, as api/json_writer.h writes them: the line stays valid JSON; valid
// multi-byte characters pass as they are.
TEST(AuditLine, ReplacesBytesThatAreNotUtf8SoALineStaysJson) {
  AuditEvent event = sample_event();
  event.request_uri = "/api/v1/x?q=\xff\xc3\xa9\xe2\x82";  // bad, é, cut short
  event.username = "ana\xed\xa0\x80";                      // a surrogate
  const std::string line = audit_line({1, std::string(kGenesisHash), event});
  EXPECT_NE(
      line.find("\"requestURI\":\"/api/v1/x?q=\xEF\xBF\xBD\xC3\xA9\xEF\xBF\xBD\xEF\xBF\xBD\""),
      std::string::npos)
      << line;
  EXPECT_NE(line.find("\"username\":\"ana\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""),
            std::string::npos)
      << line;
}

// Every single byte (append_json_string looks each one up in a table):
// printable ASCII but '"' and '\\' as it is, those two with a backslash,
// control characters and DEL as \u00XX, and a lone byte >= 0x80 as U+FFFD.
TEST(AuditLine, EachByteIsWrittenAsJsonWants) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int value = 0; value < 256; ++value) {
    const auto byte = static_cast<unsigned char>(value);
    std::string out;
    append_json_string(out, std::string(1, static_cast<char>(byte)));
    std::string expected;
    if (byte == '"' || byte == '\\') {
      expected = std::string("\\") + static_cast<char>(byte);
    } else if (byte < 0x20 || byte == 0x7f) {
      expected = std::string("\\u00") + kHex[byte >> 4] + kHex[byte & 0xf];
    } else if (byte >= 0x80) {
      expected = "\xEF\xBF\xBD";
    } else {
      expected = std::string(1, static_cast<char>(byte));
    }
    EXPECT_EQ(out, "\"" + expected + "\"") << "byte " << value;
  }
  std::string mixed;
  append_json_string(mixed,
                     "a\"b\\c\x7f\xc3\xa9"
                     "d\x01");
  EXPECT_EQ(mixed,
            "\"a\\\"b\\\\c\\u007f\xc3\xa9"
            "d\\u0001\"");
}

TEST(AuditTime, FormatsUtcWithMicroseconds) {
  EXPECT_EQ(audit_time_text(Timestamp::epoch()), "1970-01-01T00:00:00.000000Z");
  EXPECT_EQ(audit_time_text(Timestamp::from_millis(951'782'400'001)),
            "2000-02-29T00:00:00.001000Z");
}

TEST(AuditChain, EachLineCarriesTheHashOfTheOneBefore) {
  AuditChain chain(identity::sha256_hex, ChainHead{});
  const std::string first = chain.append(sample_event());
  const std::string second = chain.append(sample_event());
  const std::optional<LineHeader> one = parse_line_header(first);
  const std::optional<LineHeader> two = parse_line_header(second);
  ASSERT_TRUE(one && two);
  EXPECT_EQ(one->sequence, 1u);
  EXPECT_EQ(one->previous_hash, kGenesisHash);
  EXPECT_EQ(two->sequence, 2u);
  EXPECT_EQ(two->previous_hash, identity::sha256_hex(first));
  EXPECT_EQ(chain.head(), (ChainHead{2, identity::sha256_hex(second)}));
}

TEST(LineHeader, AcceptsOnlyTheWrittenForm) {
  const std::string hash(64, 'a');
  EXPECT_TRUE(parse_line_header(R"({"sequence":12,"previousHash":")" + hash + R"(",)"));
  EXPECT_FALSE(parse_line_header(R"({"sequence":012,"previousHash":")" + hash + R"(",)"));
  EXPECT_FALSE(parse_line_header(R"({"sequence":0,"previousHash":")" + hash + R"(",)"));
  EXPECT_FALSE(parse_line_header(R"({ "sequence":1,"previousHash":")" + hash + R"(",)"));
  EXPECT_FALSE(parse_line_header(R"({"sequence":1,"previousHash":")" + hash.substr(1) + R"(",)"));
  EXPECT_FALSE(parse_line_header(R"({"sequence":1,"previousHash":"A)" + hash.substr(1) + R"(",)"));
}

TEST(Checkpoint, LineRoundTripsAndRefusesOtherForms) {
  AuditCheckpoint checkpoint{42, std::string(64, 'b'), "2026-12-03T09:00:00.000000Z",
                             std::string(128, 'c')};
  const std::string line = checkpoint_line(checkpoint);
  Result<AuditCheckpoint> parsed = parse_checkpoint_line(line);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(*parsed, checkpoint);
  EXPECT_FALSE(parse_checkpoint_line(line + " ").ok());
  checkpoint.signature = std::string(127, 'c');
  EXPECT_FALSE(parse_checkpoint_line(checkpoint_line(checkpoint)).ok());
  EXPECT_NE(checkpoint_payload(1, "h", "t"), checkpoint_payload(1, "h", "u"));
}

}  // namespace
}  // namespace allot::governance
