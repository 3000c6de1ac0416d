// allot audit verify's promise, on real files: any single-byte change of the
// log or of its checkpoints, a removed line, two swapped lines and a
// truncated tail are each found, and said where.
#include <algorithm>

#include <gtest/gtest.h>

#include "audit_test_support.h"
#include "service/audit/audit_files.h"
#include "service/audit/audit_key.h"
#include "service/audit/audit_reading.h"

namespace allot::audit {
namespace {

using governance::AuditProblemKind;
using governance::VerificationReport;

class AuditTamperTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::fresh_folder("tamper");
    options_ = testing::options_in(root_);
    options_.checkpoint_records = 2;
    key_ = *load_or_create_audit_key(root_ + "/key");
    ManualClock clock(Timestamp::from_millis(1'764'754'505'000));
    NullLogger logger;
    Result<std::unique_ptr<AuditLog>> log = AuditLog::open(options_, key_, clock, logger);
    ASSERT_TRUE(log.ok()) << log.status().message();
    for (const char* user : {"ana", "bo", "cy", "di", "ed"}) {
      ASSERT_TRUE((*log)->record(testing::event_of(user, "create")).ok());
    }
    ASSERT_TRUE((*log)->close().ok());
    log_file_ = options_.dir + "/" + audit_file_name(1);
    checkpoint_file_ = options_.checkpoint_dir + "/" + std::string(kCheckpointFile);
  }

  [[nodiscard]] VerificationReport verify() const {
    Result<VerificationReport> report =
        verify_audit_log(options_.dir, options_.checkpoint_dir, key_.public_key);
    EXPECT_TRUE(report.ok()) << report.status().message();
    return *report;
  }

  [[nodiscard]] std::vector<std::string> lines() const {
    std::vector<std::string> out;
    std::string text = testing::read_file(log_file_);
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      out.push_back(text.substr(start, end - start));
    }
    return out;
  }

  void write_lines(const std::vector<std::string>& lines) const {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    testing::write_file(log_file_, text);
  }

  std::string root_;
  AuditLogOptions options_;
  identity::SigningKey key_;
  std::string log_file_;
  std::string checkpoint_file_;
};

TEST_F(AuditTamperTest, TheUntouchedLogVerifies) {
  const VerificationReport report = verify();
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 5u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

void expect_every_byte_change_found(const std::string& path,
                                    const std::function<VerificationReport()>& verify) {
  const std::string original = testing::read_file(path);
  ASSERT_FALSE(original.empty());
  for (const unsigned char flip : {0x01, 0x20, 0x80}) {
    for (size_t at = 0; at < original.size(); ++at) {
      std::string changed = original;
      changed[at] = static_cast<char>(static_cast<unsigned char>(changed[at]) ^ flip);
      testing::write_file(path, changed);
      const VerificationReport report = verify();
      ASSERT_FALSE(report.ok()) << path << ": byte " << at << " ^ " << int{flip} << " not found";
    }
  }
  testing::write_file(path, original);
}

TEST_F(AuditTamperTest, EverySingleByteChangeOfTheLogIsFound) {
  expect_every_byte_change_found(log_file_, [&] { return verify(); });
  EXPECT_TRUE(verify().ok());
}

TEST_F(AuditTamperTest, EverySingleByteChangeOfTheCheckpointsIsFound) {
  expect_every_byte_change_found(checkpoint_file_, [&] { return verify(); });
}

TEST_F(AuditTamperTest, ARemovedLineIsNamed) {
  std::vector<std::string> log = lines();
  log.erase(log.begin() + 1);
  write_lines(log);
  const VerificationReport report = verify();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kRemoved);
  EXPECT_EQ(report.problems[0].sequence, 2u);
  EXPECT_EQ(report.problems[0].file, log_file_);
  EXPECT_EQ(report.problems[0].line, 2u);
}

TEST_F(AuditTamperTest, TwoSwappedLinesAreNamed) {
  std::vector<std::string> log = lines();
  std::swap(log[2], log[3]);
  write_lines(log);
  const VerificationReport report = verify();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kReordered);
  EXPECT_EQ(report.problems[0].sequence, 3u);
  EXPECT_EQ(report.problems[0].line, 4u);
}

TEST_F(AuditTamperTest, ATruncatedTailIsFound) {
  std::vector<std::string> log = lines();
  log.resize(3);
  write_lines(log);
  const VerificationReport report = verify();
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(std::any_of(report.problems.begin(), report.problems.end(), [](const auto& p) {
    return p.kind == AuditProblemKind::kTruncated && p.sequence == 4;
  }));
}

TEST_F(AuditTamperTest, ACutMidLineTailIsFound) {
  const std::string text = testing::read_file(log_file_);
  testing::write_file(log_file_, text.substr(0, text.size() - 40));
  const VerificationReport report = verify();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.problems[0].kind, AuditProblemKind::kTruncated);
  EXPECT_EQ(report.problems[0].line, 5u);
}

}  // namespace
}  // namespace allot::audit
