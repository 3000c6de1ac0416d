#include "cli/client/api_error.h"

#include <gtest/gtest.h>

#include "cli/verbs/exit_codes.h"

namespace allot::cli {
namespace {

TEST(ApiError, CodeNamesMapBackToErrorCodes) {
  EXPECT_EQ(error_code_from_api_name("invalid_argument"), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_from_api_name("not_found"), ErrorCode::kNotFound);
  EXPECT_EQ(error_code_from_api_name("already_exists"), ErrorCode::kAlreadyExists);
  EXPECT_EQ(error_code_from_api_name("failed_precondition"), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(error_code_from_api_name("resource_exhausted"), ErrorCode::kResourceExhausted);
  EXPECT_EQ(error_code_from_api_name("unsupported_media_type"), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_from_api_name("unavailable"), ErrorCode::kUnavailable);
  EXPECT_EQ(error_code_from_api_name("internal"), ErrorCode::kInternal);
  EXPECT_EQ(error_code_from_api_name("no_such_code"), std::nullopt);
}

TEST(ApiError, TheServersBodyBecomesTheStatus) {
  const Status status = status_from_error_answer(
      400, R"({"code": "invalid_argument", "message": "unknown field 'gpus'",
               "details": "document 2 (Team/research): spec.quota[0].resources.gpus"})");
  EXPECT_EQ(status, Status(ErrorCode::kInvalidArgument, "unknown field 'gpus'",
                           "document 2 (Team/research): spec.quota[0].resources.gpus"));
}

TEST(ApiError, UnknownCodesFallBackToTheHttpStatus) {
  const Status status = status_from_error_answer(409, R"({"code": "conflict", "message": "m"})");
  EXPECT_EQ(status.code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "m");
}

TEST(ApiError, BodiesThatAreNotErrorsUseTheHttpStatus) {
  const Status proxy = status_from_error_answer(502, "<html>Bad Gateway</html>\nmore");
  EXPECT_EQ(proxy.code(), ErrorCode::kUnavailable);
  EXPECT_EQ(proxy.message(), "allotd answered HTTP 502: <html>Bad Gateway</html>");
  EXPECT_EQ(status_from_error_answer(404, "").code(), ErrorCode::kNotFound);
  EXPECT_EQ(status_from_error_answer(404, "").message(), "allotd answered HTTP 404");
  EXPECT_EQ(status_from_error_answer(500, "[]").code(), ErrorCode::kInternal);
  EXPECT_EQ(status_from_error_answer(415, "x").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status_from_error_answer(302, "").code(), ErrorCode::kInternal);
}

TEST(ApiError, UserErrorsExitTwoAndServerFailuresExitOne) {
  for (const char* code : {"invalid_argument", "not_found", "already_exists", "failed_precondition",
                           "unsupported_media_type"}) {
    EXPECT_EQ(exit_code_for(Status(*error_code_from_api_name(code), "m")), kExitUsage) << code;
  }
  for (const char* code : {"unavailable", "internal"}) {
    EXPECT_EQ(exit_code_for(Status(*error_code_from_api_name(code), "m")), kExitFailure) << code;
  }
}

}  // namespace
}  // namespace allot::cli
