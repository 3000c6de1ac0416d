#include "governance/chain_verifier.h"

#include <gtest/gtest.h>

#include "identity/credentials/secret_codec.h"
#include "identity/credentials/signing_key.h"

namespace allot::governance {
namespace {

struct Log {
  identity::SigningKey key = identity::generate_signing_key();
  std::vector<std::string> lines;
  std::vector<std::string> hashes;

  explicit Log(int records) {
    AuditChain chain(identity::sha256_hex, ChainHead{});
    for (int i = 0; i < records; ++i) {
      AuditEvent event;
      event.verb = "create";
      event.username = "user" + std::to_string(i);
      lines.push_back(chain.append(event));
      hashes.push_back(chain.head().hash);
    }
  }
  [[nodiscard]] std::string checkpoint(uint64_t sequence) const {
    AuditCheckpoint cp{sequence, hashes[sequence - 1], "2026-12-03T09:00:00.000000Z", ""};
    cp.signature =
        identity::sign_hex(key, checkpoint_payload(cp.sequence, cp.record_hash, cp.signed_at));
    return checkpoint_line(cp);
  }
  [[nodiscard]] VerificationReport verify(const std::vector<std::string>& log,
                                          const std::vector<std::string>& checkpoints) const {
    std::vector<AuditLineText> entries;
    for (size_t i = 0; i < checkpoints.size(); ++i) {
      entries.push_back({"checkpoints.jsonl", i + 1, checkpoints[i]});
    }
    const std::string public_key = key.public_key;
    ChainVerifier verifier(
        identity::sha256_hex,
        [&](std::string_view payload, std::string_view signature) {
          return identity::verify_hex(public_key, payload, signature);
        },
        entries);
    for (size_t i = 0; i < log.size(); ++i) verifier.add_line("audit-000001.jsonl", i + 1, log[i]);
    return verifier.finish();
  }
};

TEST(ChainVerifier, AnIntactLogPassesAndCountsTheUncoveredTail) {
  const Log log(10);
  const VerificationReport report = log.verify(log.lines, {log.checkpoint(4), log.checkpoint(7)});
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 10u);
  EXPECT_EQ(report.checkpoints, 2u);
  EXPECT_EQ(report.covered_through, 7u);
  EXPECT_EQ(report.uncovered_tail, 3u);
}

TEST(ChainVerifier, AModifiedRecordIsNamedWithItsFileAndLine) {
  const Log log(5);
  std::vector<std::string> lines = log.lines;
  lines[2].replace(lines[2].find("user2"), 5, "mallo");
  const VerificationReport report = log.verify(lines, {log.checkpoint(5)});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kModified);
  EXPECT_EQ(report.problems[0].sequence, 3u);
  EXPECT_EQ(report.problems[0].line, 3u);
  EXPECT_EQ(report.problems[0].file, "audit-000001.jsonl");
}

TEST(ChainVerifier, TheLastRecordIsCheckedAgainstItsCheckpoint) {
  const Log log(3);
  std::vector<std::string> lines = log.lines;
  lines[2].replace(lines[2].find("user2"), 5, "userX");
  const VerificationReport report = log.verify(lines, {log.checkpoint(3)});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kModified);
  EXPECT_EQ(report.problems[0].sequence, 3u);
}

TEST(ChainVerifier, ARemovedRecordIsAGap) {
  const Log log(6);
  std::vector<std::string> lines = log.lines;
  lines.erase(lines.begin() + 2);
  const VerificationReport report = log.verify(lines, {log.checkpoint(6)});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kRemoved);
  EXPECT_EQ(report.problems[0].sequence, 3u);
  EXPECT_EQ(report.problems[0].line, 3u);  // where the gap is
}

TEST(ChainVerifier, SwappedRecordsAreReordered) {
  const Log log(6);
  std::vector<std::string> lines = log.lines;
  std::swap(lines[2], lines[3]);
  const VerificationReport report = log.verify(lines, {log.checkpoint(6)});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kReordered);
  EXPECT_EQ(report.problems[0].sequence, 3u);
  EXPECT_EQ(report.problems[0].line, 4u);
}

TEST(ChainVerifier, AnInsertedCopyIsReported) {
  const Log log(4);
  std::vector<std::string> lines = log.lines;
  lines.insert(lines.begin() + 3, lines[1]);
  const VerificationReport report = log.verify(lines, {log.checkpoint(4)});
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kReordered);
  EXPECT_EQ(report.problems[0].line, 4u);
}

TEST(ChainVerifier, ATruncatedTailMissesItsCheckpoint) {
  const Log log(6);
  std::vector<std::string> lines(log.lines.begin(), log.lines.begin() + 4);
  const VerificationReport report = log.verify(lines, {log.checkpoint(3), log.checkpoint(6)});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kTruncated);
  EXPECT_EQ(report.problems[0].sequence, 6u);
  EXPECT_EQ(report.uncovered_tail, 1u);
}

TEST(ChainVerifier, AForgedCheckpointVouchesForNothing) {
  const Log log(3);
  std::string forged = log.checkpoint(3);
  forged.replace(forged.find("2026"), 4, "2027");
  const VerificationReport report = log.verify(log.lines, {forged});
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kBadCheckpoint);
  EXPECT_EQ(report.checkpoints, 0u);
  EXPECT_EQ(report.uncovered_tail, 3u);
}

TEST(ChainVerifier, AMalformedLineIsReported) {
  const Log log(3);
  std::vector<std::string> lines = log.lines;
  lines[1] = "not json";
  const VerificationReport report = log.verify(lines, {log.checkpoint(3)});
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kMalformed);
  EXPECT_EQ(report.problems[0].line, 2u);
}

}  // namespace
}  // namespace allot::governance
