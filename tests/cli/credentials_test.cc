// The CLI's credentials (client/credentials.h): which token it sends, and
// the sessions `allot login` saves, 0600, per server.
#include "cli/client/credentials.h"

#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>

namespace allot::cli {
namespace {

SavedSession saved(const std::string& token) {
  return {token, "2026-12-02T10:00:00Z", "admin", {}, "", ""};
}

TEST(Credentials, TheFlagWinsThenTheEnvironmentThenTheSavedLogin) {
  const Environment env = {{"ALLOT_TOKEN", "from-env"}};

  EXPECT_EQ(resolve_token("from-flag", env, saved("from-file")), "from-flag");
  EXPECT_EQ(resolve_token("", env, saved("from-file")), "from-env");
  EXPECT_EQ(resolve_token("", {}, saved("from-file")), "from-file");
  EXPECT_EQ(resolve_token("", {}, std::nullopt), "");
}

TEST(Credentials, TheFileIsFoundLikeTheConfigFile) {
  EXPECT_EQ(credentials_file_path({{"ALLOT_CREDENTIALS", "/c.json"}, {"HOME", "/h"}}), "/c.json");
  EXPECT_EQ(credentials_file_path({{"XDG_CONFIG_HOME", "/x"}, {"HOME", "/h"}}),
            "/x/allot/credentials.json");
  EXPECT_EQ(credentials_file_path({{"HOME", "/h"}}), "/h/.config/allot/credentials.json");
  EXPECT_EQ(credentials_file_path({}), "");
}

TEST(Credentials, ALoginIsSavedPerServerForItsOwnerOnly) {
  const std::string folder = ::testing::TempDir() + "allot_credentials_test/allot";
  std::filesystem::remove_all(folder);
  const std::string path = folder + "/credentials.json";

  ASSERT_TRUE(save_session(path, "http://a:1", saved("token-a")).ok());
  ASSERT_TRUE(save_session(path, "http://b:2", saved("token-b")).ok());

  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
  ASSERT_EQ(::stat(folder.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700);
  EXPECT_EQ(read_saved_session(path, "http://a:1")->value().token, "token-a");
  EXPECT_EQ(read_saved_session(path, "http://b:2")->value().token, "token-b");
  EXPECT_FALSE(read_saved_session(path, "http://c:3")->has_value());
  EXPECT_FALSE(read_saved_session(folder + "/none.json", "http://a:1")->has_value());
}

TEST(Credentials, AMalformedFileIsAnErrorNamingIt) {
  const std::string path = ::testing::TempDir() + "allot_credentials_bad.json";
  std::FILE* file = std::fopen(path.c_str(), "w");
  std::fputs("[1, 2]", file);
  std::fclose(file);

  const auto session = read_saved_session(path, "http://a:1");

  EXPECT_EQ(session.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(session.status().details(), path);
}

}  // namespace
}  // namespace allot::cli
