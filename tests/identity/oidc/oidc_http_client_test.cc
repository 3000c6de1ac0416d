// OidcHttpClient against local cpp-httplib servers: TLS verified (a
// self-signed certificate is refused unless it is the configured CA), bodies
// over the limit cut off, redirects not followed, forms encoded, statuses
// passed through.
#include "identity/oidc/oidc_http_client.h"

#include <cstdlib>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>

namespace allot::oidc {
namespace {

// Serves `server` on 127.0.0.1 on a free port from a thread, for the test's lifetime.
class Serving {
 public:
  explicit Serving(httplib::Server& server) : server_(server) {
    port_ = server_.bind_to_any_port("127.0.0.1");
    // The socket listens once bound: connections queue until the thread accepts them.
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Serving() {
    server_.stop();
    thread_.join();
  }
  [[nodiscard]] int port() const { return port_; }

 private:
  httplib::Server& server_;
  int port_ = 0;
  std::thread thread_;
};

void routes(httplib::Server& server) {
  server.Get("/jwks", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"keys":[]})", "application/json");
  });
  server.Get("/big", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(4096, 'x'), "text/plain");
  });
  server.Get("/moved",
             [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/jwks"); });
  server.Post("/token", [](const httplib::Request& req, httplib::Response& res) {
    res.status = 400;
    res.set_content(req.get_header_value("Content-Type") + "|" + req.body, "text/plain");
  });
}

TEST(OidcHttpClient, GetsPostsAndPassesStatusesThrough) {
  httplib::Server server;
  routes(server);
  Serving serving(server);
  const std::string origin = "http://127.0.0.1:" + std::to_string(serving.port());
  OidcHttpOptions options;
  options.max_body_bytes = 1024;
  OidcHttpClient client(options);
  auto jwks = client.get(origin + "/jwks");
  ASSERT_TRUE(jwks.ok()) << jwks.status().to_string();
  EXPECT_EQ(jwks->status, 200);
  EXPECT_EQ(jwks->body, R"({"keys":[]})");
  auto token = client.post_form(origin + "/token", {{"grant_type", "a:b"}, {"code", "x y"}});
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(token->status, 400);
  EXPECT_EQ(token->body, "application/x-www-form-urlencoded|grant_type=a%3Ab&code=x%20y");
  auto moved = client.get(origin + "/moved");
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ(moved->status, 302) << "redirects are not followed";
  auto big = client.get(origin + "/big");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), ErrorCode::kUnavailable);
}

class OidcHttpsClient : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("allot-oidc-tls-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(dir_);
    const std::string command =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 "
        "-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout " +
        (dir_ / "key.pem").string() + " -out " + (dir_ / "cert.pem").string() + " 2>/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << "openssl req failed";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

TEST_F(OidcHttpsClient, VerifiesTheServersCertificate) {
  httplib::SSLServer server((dir_ / "cert.pem").c_str(), (dir_ / "key.pem").c_str());
  ASSERT_TRUE(server.is_valid());
  routes(server);
  Serving serving(server);
  const std::string url = "https://127.0.0.1:" + std::to_string(serving.port()) + "/jwks";

  auto untrusted = OidcHttpClient().get(url);
  ASSERT_FALSE(untrusted.ok()) << "a self-signed certificate must not be trusted";
  EXPECT_EQ(untrusted.status().code(), ErrorCode::kUnavailable);

  OidcHttpOptions options;
  options.ca_cert_path = (dir_ / "cert.pem").string();
  OidcHttpClient trusting(options);
  auto trusted = trusting.get(url);
  ASSERT_TRUE(trusted.ok()) << trusted.status().to_string();
  EXPECT_EQ(trusted->body, R"({"keys":[]})");
}

}  // namespace
}  // namespace allot::oidc
