// The load generator of `allot-bench api` against a real HTTP server
// (cpp-httplib on a loopback port): answers, keep-alive, Connection: close,
// answers it cannot read, and a server that is not there.
#include "bench/http_load_client.h"

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace allot::bench {
namespace {

class HttpLoadClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.Post("/echo", [this](const httplib::Request& req, httplib::Response& res) {
      record(req.remote_port);
      res.status = 201;
      res.set_content(req.get_header_value("Content-Type") + ":" + req.body, "text/plain");
    });
    server_.Post("/big", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(1 << 20, 'x'), "text/plain");
    });
    server_.Post("/close", [this](const httplib::Request& req, httplib::Response& res) {
      record(req.remote_port);
      res.set_header("Connection", "close");
      res.set_content("bye", "text/plain");
    });
    server_.Post("/chunked", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("text/plain", [](size_t, httplib::DataSink& sink) {
        sink.write("part", 4);
        sink.done();
        return true;
      });
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();  // no sleep: stop() needs it running
  }
  void TearDown() override {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }

  void record(int port) {
    std::lock_guard lock(mu_);
    ports_.push_back(port);
  }
  std::vector<int> ports() {
    std::lock_guard lock(mu_);
    return ports_;
  }

  httplib::Server server_;
  int port_ = 0;
  std::mutex mu_;
  std::thread thread_;
  std::vector<int> ports_;  // the client's port per request: one per connection
};

TEST_F(HttpLoadClientTest, PostsOverOneKeptAliveConnection) {
  HttpLoadClient client(port_);
  for (int i = 0; i < 3; ++i) {
    const HttpAnswer answer =
        client.post("/echo", "application/json", "{\"n\":" + std::to_string(i) + "}");
    ASSERT_EQ(answer.status, 201) << answer.error;
    EXPECT_EQ(answer.body, "application/json:{\"n\":" + std::to_string(i) + "}");
  }
  const std::vector<int> ports = this->ports();
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(ports[0], ports[1]);
  EXPECT_EQ(ports[1], ports[2]);
}

TEST_F(HttpLoadClientTest, ReadsALargeAnswerInFull) {
  HttpLoadClient client(port_);
  const HttpAnswer answer = client.post("/big", "text/plain", "");
  ASSERT_EQ(answer.status, 200) << answer.error;
  EXPECT_EQ(answer.body, std::string(1 << 20, 'x'));
}

TEST_F(HttpLoadClientTest, ConnectionCloseOpensANewConnectionForTheNextPost) {
  HttpLoadClient client(port_);
  const HttpAnswer closing = client.post("/close", "text/plain", "");
  ASSERT_EQ(closing.status, 200) << closing.error;
  EXPECT_EQ(closing.body, "bye");
  const HttpAnswer next = client.post("/echo", "text/plain", "again");
  ASSERT_EQ(next.status, 201) << next.error;
  const std::vector<int> ports = this->ports();
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_NE(ports[0], ports[1]);
}

TEST_F(HttpLoadClientTest, AnAnswerWithoutContentLengthIsAnError) {
  HttpLoadClient client(port_);
  const HttpAnswer answer = client.post("/chunked", "text/plain", "");
  EXPECT_EQ(answer.status, 0);
  EXPECT_EQ(answer.error, "the answer has no Content-Length");
  // The connection was dropped; the client still works.
  EXPECT_EQ(client.post("/echo", "text/plain", "x").status, 201);
}

TEST(HttpLoadClient, NoServerIsAnErrorNotAHang) {
  // A port bound but not listening: connections to it are refused.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  HttpLoadClient client(ntohs(address.sin_port));
  const HttpAnswer answer = client.post("/echo", "text/plain", "x");
  ::close(fd);
  EXPECT_EQ(answer.status, 0);
  EXPECT_NE(answer.error.find("connect"), std::string::npos) << answer.error;
}

}  // namespace
}  // namespace allot::bench
