// TLS on the listener (issue 10): HttpServer with a certificate and key
// serves HTTPS only, and a bad certificate or key is a clear bind() error.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "raw_connection.h"
#include "server/api_server.h"
#include "server/http/http_server.h"
#include "server/http_responses.h"

namespace allot::server {
namespace {

struct PemFiles {
  std::string cert;
  std::string key;
};

// A fresh self-signed P-256 certificate for 127.0.0.1, valid for an hour.
PemFiles write_self_signed(const std::filesystem::path& dir) {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), EVP_PKEY_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1");
  X509_add_ext(cert.get(), san, -1);
  X509_EXTENSION_free(san);
  X509_sign(cert.get(), key.get(), EVP_sha256());
  PemFiles files{(dir / "cert.pem").string(), (dir / "key.pem").string()};
  std::FILE* out = std::fopen(files.cert.c_str(), "w");
  PEM_write_X509(out, cert.get());
  std::fclose(out);
  out = std::fopen(files.key.c_str(), "w");
  PEM_write_PrivateKey(out, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(out);
  return files;
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("allot-tls-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    files_ = write_self_signed(dir_);
    router_.get("/healthz", [](const HttpRequest&, HttpResponse& res) {
      send_json(res, 200, {{"status", "ok"}});
    });
  }
  void TearDown() override {
    if (server_) server_->stop();
    if (serving_.joinable()) serving_.join();
    std::filesystem::remove_all(dir_);
  }

  Result<int> start(const std::string& cert, const std::string& key) {
    HttpServerOptions options;
    options.io_threads = 1;
    options.worker_threads = 2;
    options.tls_cert_file = cert;
    options.tls_key_file = key;
    server_ = std::make_unique<HttpServer>(options, routed_service(router_));
    const Result<int> port = server_->bind("127.0.0.1", 0);
    if (port.ok()) serving_ = std::thread([this] { server_->serve(); });
    return port;
  }

  std::filesystem::path dir_;
  PemFiles files_;
  Router router_;
  std::unique_ptr<HttpServer> server_;
  std::thread serving_;
};

TEST_F(TlsTest, ServesHttpsThatTheCertificateVerifies) {
  const Result<int> port = start(files_.cert, files_.key);
  ASSERT_TRUE(port.ok()) << port.status().to_string();
  httplib::SSLClient client("127.0.0.1", *port);
  client.set_ca_cert_path(files_.cert.c_str());
  client.enable_server_certificate_verification(true);

  for (int i = 0; i < 3; ++i) {  // one kept-alive connection
    const httplib::Result res = client.Get("/healthz");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->body, "{\"status\":\"ok\"}\n");
  }
}

// A streaming answer (HttpResponse::stream) over TLS: the chunks, then the
// last chunk when the writer ends it, while the connection also waits to read.
TEST_F(TlsTest, AStreamingAnswerCarriesItsChunksOverTls) {
  router_.get("/tls-stream", [](const HttpRequest&, HttpResponse& res) {
    res.set_header("Content-Type", "text/event-stream");
    auto stream = std::make_shared<HttpStream>();
    stream->start = [](const std::shared_ptr<StreamWriter>& writer) {
      writer->write("data: one\n\n");
      writer->write("data: two\n\n");
      writer->end();
    };
    res.stream = std::move(stream);
  });
  const Result<int> port = start(files_.cert, files_.key);
  ASSERT_TRUE(port.ok()) << port.status().to_string();
  httplib::SSLClient client("127.0.0.1", *port);
  client.set_ca_cert_path(files_.cert.c_str());
  client.enable_server_certificate_verification(true);
  const httplib::Result res = client.Get("/tls-stream");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Transfer-Encoding"), "chunked");
  EXPECT_EQ(res->body, "data: one\n\ndata: two\n\n");
}

TEST_F(TlsTest, PlainHttpOnTheTlsPortGetsNoAnswer) {
  const Result<int> port = start(files_.cert, files_.key);
  ASSERT_TRUE(port.ok());
  server_test::RawConnection client(*port);
  ASSERT_TRUE(client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
  const std::string answer = client.read_all(std::chrono::seconds(10));
  EXPECT_EQ(answer.find("HTTP/1.1 200"), std::string::npos) << answer;
}

TEST_F(TlsTest, AMissingCertificateNamesTheFlag) {
  const Result<int> port = start((dir_ / "none.pem").string(), files_.key);
  ASSERT_FALSE(port.ok());
  EXPECT_EQ(port.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(port.status().details(), "--tls-cert");
}

TEST_F(TlsTest, AKeyOfAnotherCertificateNamesTheKeyFlag) {
  const std::filesystem::path other = dir_ / "other";
  std::filesystem::create_directories(other);
  const PemFiles stranger = write_self_signed(other);
  const Result<int> port = start(files_.cert, stranger.key);
  ASSERT_FALSE(port.ok());
  EXPECT_EQ(port.status().details(), "--tls-key") << port.status().to_string();
}

TEST_F(TlsTest, ACertificateWithoutItsKeyIsRefused) {
  const Result<int> port = start(files_.cert, "");
  ASSERT_FALSE(port.ok());
  EXPECT_EQ(port.status().details(), "--tls-key");
}

}  // namespace
}  // namespace allot::server
