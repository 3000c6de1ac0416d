#include "base/status.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(Status, DefaultIsOk) {
  const Status status;

  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.code(), ErrorCode::kOk);
  EXPECT_EQ(status, Status::ok_status());
  EXPECT_EQ(status.to_string(), "ok");
}

TEST(Status, ErrorCarriesCodeMessageAndDetails) {
  const Status status = invalid_argument("bad quantity", "spec.resources.gpu");

  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "bad quantity");
  EXPECT_EQ(status.details(), "spec.resources.gpu");
}

TEST(Status, HelpersSetTheirCodes) {
  EXPECT_EQ(not_found("x").code(), ErrorCode::kNotFound);
  EXPECT_EQ(failed_precondition("x").code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(out_of_range("x").code(), ErrorCode::kOutOfRange);
}

TEST(Status, WithContextPrefixesTheLocationWithADot) {
  const Status status = invalid_argument("bad", "resources.gpu").with_context("spec");

  EXPECT_EQ(status.details(), "spec.resources.gpu");
  EXPECT_EQ(status.message(), "bad");
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
}

TEST(Status, WithContextJoinsAnIndexWithoutADot) {
  EXPECT_EQ(invalid_argument("bad", "[2].flavor").with_context("spec.quota").details(),
            "spec.quota[2].flavor");
}

TEST(Status, WithContextSetsTheLocationWhenThereIsNone) {
  EXPECT_EQ(invalid_argument("bad").with_context("spec.cohort").details(), "spec.cohort");
}

TEST(Status, WithContextNestsOutward) {
  const Status status = invalid_argument("bad", "gpu")
                            .with_context("resources")
                            .with_context("[0]")
                            .with_context("spec.quota");

  EXPECT_EQ(status.details(), "spec.quota[0].resources.gpu");
}

TEST(Status, WithContextLeavesOkAndEmptyContextsAlone) {
  EXPECT_TRUE(Status().with_context("spec").ok());
  EXPECT_EQ(Status().with_context("spec").details(), "");
  EXPECT_EQ(invalid_argument("bad", "x").with_context("").details(), "x");
}

TEST(Status, ToStringShowsCodeMessageAndLocation) {
  EXPECT_EQ(invalid_argument("bad quantity", "spec.gpu").to_string(),
            "invalid_argument: bad quantity (at spec.gpu)");
  EXPECT_EQ(not_found("no team 'x'").to_string(), "not_found: no team 'x'");
}

TEST(Status, ErrorCodeNamesAreStable) {
  EXPECT_EQ(error_code_name(ErrorCode::kOk), "ok");
  EXPECT_EQ(error_code_name(ErrorCode::kInvalidArgument), "invalid_argument");
  EXPECT_EQ(error_code_name(ErrorCode::kNotFound), "not_found");
  EXPECT_EQ(error_code_name(ErrorCode::kAlreadyExists), "already_exists");
  EXPECT_EQ(error_code_name(ErrorCode::kFailedPrecondition), "failed_precondition");
  EXPECT_EQ(error_code_name(ErrorCode::kOutOfRange), "out_of_range");
  EXPECT_EQ(error_code_name(ErrorCode::kPermissionDenied), "permission_denied");
  EXPECT_EQ(error_code_name(ErrorCode::kUnauthenticated), "unauthenticated");
  EXPECT_EQ(error_code_name(ErrorCode::kResourceExhausted), "resource_exhausted");
  EXPECT_EQ(error_code_name(ErrorCode::kUnavailable), "unavailable");
  EXPECT_EQ(error_code_name(ErrorCode::kInternal), "internal");
}

TEST(Status, EqualityComparesCodeMessageAndDetails) {
  EXPECT_EQ(invalid_argument("a", "x"), invalid_argument("a", "x"));
  EXPECT_NE(invalid_argument("a", "x"), not_found("a", "x"));
  EXPECT_NE(invalid_argument("a", "x"), invalid_argument("b", "x"));
  EXPECT_NE(invalid_argument("a", "x"), invalid_argument("a", "y"));
}

}  // namespace
}  // namespace allot
