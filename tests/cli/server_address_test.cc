#include "cli/client/server_address.h"

#include <gtest/gtest.h>

namespace allot::cli {
namespace {

const Environment kNoEnv;

TEST(ServerAddress, FlagWinsOverEnvironmentAndFile) {
  const Environment env = {{"ALLOT_SERVER", "http://env:1"}, {"HOME", "/home/u"}};
  EXPECT_EQ(*resolve_server_address("http://flag:2", env, "server: http://file:3\n"),
            "http://flag:2");
}

TEST(ServerAddress, EnvironmentWinsOverFile) {
  const Environment env = {{"ALLOT_SERVER", "http://env:1"}, {"HOME", "/home/u"}};
  EXPECT_EQ(*resolve_server_address("", env, "server: http://file:3\n"), "http://env:1");
}

TEST(ServerAddress, FileWinsOverDefault) {
  const Environment env = {{"HOME", "/home/u"}};
  EXPECT_EQ(*resolve_server_address("", env, "server: http://file:3\n"), "http://file:3");
}

TEST(ServerAddress, DefaultWhenNothingIsSet) {
  EXPECT_EQ(*resolve_server_address("", kNoEnv, std::nullopt), "http://127.0.0.1:7800");
  EXPECT_EQ(*resolve_server_address("", {{"ALLOT_SERVER", ""}}, "other: 1\n"),
            "http://127.0.0.1:7800");
  EXPECT_EQ(*resolve_server_address("", kNoEnv, ""), "http://127.0.0.1:7800");
}

TEST(ServerAddress, ConfigFileLocationFollowsTheEnvironment) {
  EXPECT_EQ(config_file_path({{"ALLOT_CONFIG", "/etc/allot.yaml"}, {"HOME", "/h"}}),
            "/etc/allot.yaml");
  EXPECT_EQ(config_file_path({{"XDG_CONFIG_HOME", "/x"}, {"HOME", "/h"}}), "/x/allot/config.yaml");
  EXPECT_EQ(config_file_path({{"HOME", "/h"}}), "/h/.config/allot/config.yaml");
  EXPECT_EQ(config_file_path(kNoEnv), "");
}

TEST(ServerAddress, AddressesAreNormalised) {
  EXPECT_EQ(*normalize_server_url("127.0.0.1:9000", "--server"), "http://127.0.0.1:9000");
  EXPECT_EQ(*normalize_server_url("http://host:9000/", "--server"), "http://host:9000");
  EXPECT_EQ(*normalize_server_url("https://host", "--server"), "https://host");
  EXPECT_EQ(*normalize_server_url("http://[::1]:7800", "--server"), "http://[::1]:7800");
}

TEST(ServerAddress, BadAddressesNameTheirSource) {
  const Result<std::string> scheme = normalize_server_url("ftp://host:1", "ALLOT_SERVER");
  ASSERT_FALSE(scheme.ok());
  EXPECT_EQ(scheme.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(scheme.status().details(), "ALLOT_SERVER");
  EXPECT_FALSE(normalize_server_url("http://host:0", "--server").ok());
  EXPECT_FALSE(normalize_server_url("http://host:99999", "--server").ok());
  EXPECT_FALSE(normalize_server_url("http://host:7800/api", "--server").ok());
  EXPECT_FALSE(normalize_server_url("http://:7800", "--server").ok());
}

TEST(ServerAddress, MalformedConfigFileIsAnError) {
  const Environment env = {{"ALLOT_CONFIG", "/etc/allot.yaml"}};
  const Result<std::string> bad_yaml = resolve_server_address("", env, "server: [unclosed\n");
  ASSERT_FALSE(bad_yaml.ok());
  EXPECT_EQ(bad_yaml.status().details(), "/etc/allot.yaml");
  EXPECT_FALSE(resolve_server_address("", env, "- a list\n").ok());
  EXPECT_FALSE(resolve_server_address("", env, "server: {a: 1}\n").ok());
  const Result<std::string> bad_url = resolve_server_address("", env, "server: gopher://x\n");
  ASSERT_FALSE(bad_url.ok());
  EXPECT_EQ(bad_url.status().details(), "/etc/allot.yaml: server");
}

// yaml-cpp 0.7's loader never returns on a stray ',' (jbeder/yaml-cpp#1040).
TEST(ServerAddress, AConfigFileOfAStrayCommaIsAnErrorNotAHang) {
  const Environment env = {{"ALLOT_CONFIG", "/etc/allot.yaml"}};
  const Result<std::string> comma = resolve_server_address("", env, ",");
  ASSERT_FALSE(comma.ok());
  EXPECT_NE(comma.status().details().find("/etc/allot.yaml"), std::string::npos)
      << comma.status().to_string();
}

TEST(ServerAddress, AFlagIgnoresABrokenConfigFile) {
  EXPECT_EQ(*resolve_server_address("h:1", kNoEnv, "server: [unclosed\n"), "http://h:1");
}

}  // namespace
}  // namespace allot::cli
