// The event-loop HTTP server (src/server/http/http_server.h) in-process, on
// loopback, driven byte by byte: slow and idle clients hold no worker,
// pipelined requests are all answered in order, every limit and timeout
// answers or closes as its contract says (issue 10, items 3, 11 and 13);
// streaming answers (HttpResponse::stream) hold no worker either.
#include "server/http/http_server.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "raw_connection.h"
#include "server/api_server.h"
#include "server/http/router.h"
#include "server/http_responses.h"

namespace allot::server {
namespace {

using server_test::count_of;
using server_test::RawConnection;
using std::chrono::milliseconds;

constexpr milliseconds kAnswerDeadline{10000};

Router test_routes() {
  Router router;
  router.get("/healthz", [](const HttpRequest&, HttpResponse& res) {
    send_json(res, 200, {{"status", "ok"}});
  });
  router.get("/echo/([^/]+)", [](const HttpRequest& req, HttpResponse& res) {
    res.set_content("echo-" + req.matches[1] + ";", "text/plain");
  });
  router.post("/size", [](const HttpRequest& req, HttpResponse& res) {
    res.set_content("size=" + std::to_string(req.body.size()), "text/plain");
  });
  router.get("/params", [](const HttpRequest& req, HttpResponse& res) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [key, value] : req.params) params[key] = value;
    send_json(res, 200, {{"path", req.path}, {"params", params}});
  });
  router.get("/throw",
             [](const HttpRequest&, HttpResponse&) { throw std::runtime_error("handler bug"); });
  return router;
}

class HttpServerTest : public ::testing::Test {
 protected:
  void start(HttpServerOptions options) {
    server_ = std::make_unique<HttpServer>(options, routed_service(router_));
    const Result<int> port = server_->bind("127.0.0.1", 0);
    ASSERT_TRUE(port.ok()) << port.status().to_string();
    port_ = *port;
    serving_ = std::thread([this] { server_->serve(); });
  }

  void TearDown() override {
    if (server_) server_->stop();
    if (serving_.joinable()) serving_.join();
  }

  static HttpServerOptions small(size_t workers = 2) {
    HttpServerOptions options;
    options.io_threads = 1;
    options.worker_threads = workers;
    return options;
  }

  // One request on a fresh connection; the whole answer (the server closes).
  std::string exchange(const std::string& request) const {
    RawConnection client(port_);
    EXPECT_TRUE(client.connected());
    client.send(request);
    return client.read_all(kAnswerDeadline);
  }

  bool healthz_answers() const {
    RawConnection probe(port_);
    if (!probe.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")) return false;
    return probe.read_until("\"ok\"", 1, kAnswerDeadline).starts_with("HTTP/1.1 200");
  }

  Router router_ = test_routes();
  std::unique_ptr<HttpServer> server_;
  std::thread serving_;
  int port_ = 0;
};

// Issue 10, item 11: 70 clients sending a header byte a second stalled every
// request when each connection held one of the server's threads.
TEST_F(HttpServerTest, SlowHeaderClientsHoldNoWorker) {
  start(small(/*workers=*/2));
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 70; ++i) {
    slow.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(slow.back()->send("GET /healthz HTTP/1.1\r\nX-Slow: a"));
  }
  EXPECT_TRUE(healthz_answers());
}

TEST_F(HttpServerTest, IdleConnectionsHoldNoWorker) {
  start(small(/*workers=*/1));
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int i = 0; i < 500; ++i) {
    idle.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(idle.back()->connected());
  }
  EXPECT_TRUE(healthz_answers());
}

TEST_F(HttpServerTest, PipelinedRequestsAreAllAnsweredInOrder) {
  start(small());
  RawConnection client(port_);
  std::string burst;
  for (int i = 1; i <= 5; ++i)
    burst += "GET /echo/" + std::to_string(i) + " HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_TRUE(client.send(burst));

  const std::string answers = client.read_until("echo-", 5, kAnswerDeadline);

  EXPECT_EQ(count_of(answers, "HTTP/1.1 200"), 5) << answers;
  size_t at = 0;
  for (int i = 1; i <= 5; ++i) {
    const size_t next = answers.find("echo-" + std::to_string(i) + ";", at);
    ASSERT_NE(next, std::string::npos) << "answer " << i << " missing or out of order: " << answers;
    at = next;
  }
}

// A worker reads what a readable socket holds; what has not come yet is read
// by the loop (the pauses let the worker find the socket dry first). Either
// way the answer is the whole request's, and the connection goes on.
TEST_F(HttpServerTest, AHeaderArrivingInPiecesIsAnsweredAndTheConnectionGoesOn) {
  start(small());
  RawConnection client(port_);
  ASSERT_TRUE(client.send("GET /echo/9 HTTP/1.1\r\nHo"));
  std::this_thread::sleep_for(milliseconds(100));
  ASSERT_TRUE(client.send("st: x\r\n\r\n"));
  EXPECT_NE(client.read_until("echo-9;", 1, kAnswerDeadline).find("echo-9;"), std::string::npos);
  ASSERT_TRUE(client.send("GET /echo/10 HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_NE(client.read_until("echo-10;", 1, kAnswerDeadline).find("echo-10;"), std::string::npos);
}

TEST_F(HttpServerTest, ABodyArrivingInPiecesIsReadWholeAndTheConnectionGoesOn) {
  start(small());
  RawConnection client(port_);
  ASSERT_TRUE(client.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n" +
                          std::string(4000, 'a')));
  std::this_thread::sleep_for(milliseconds(100));
  ASSERT_TRUE(client.send(std::string(6000, 'b')));
  EXPECT_NE(client.read_until("size=", 1, kAnswerDeadline).find("size=10000"), std::string::npos);
  ASSERT_TRUE(client.send("GET /echo/11 HTTP/1.1\r\nHost: x\r\n\r\n"));
  EXPECT_NE(client.read_until("echo-11;", 1, kAnswerDeadline).find("echo-11;"), std::string::npos);
}

TEST_F(HttpServerTest, AKeptAliveConnectionServesRequestAfterRequest) {
  start(small());
  RawConnection client(port_);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(client.send("GET /echo/7 HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_NE(client.read_until("echo-7;", 1, kAnswerDeadline).find("echo-7;"), std::string::npos);
  }
}

TEST_F(HttpServerTest, ASlowHeaderIsClosedAfterTheHeaderTimeout) {
  HttpServerOptions options = small();
  options.header_timeout = milliseconds(200);
  start(options);
  RawConnection client(port_);
  ASSERT_TRUE(client.send("GET /healthz HTTP/1.1\r\nX-Slow: a"));
  EXPECT_TRUE(client.closed_by_peer(kAnswerDeadline));
}

TEST_F(HttpServerTest, AnIdleConnectionIsClosedAfterTheIdleTimeout) {
  HttpServerOptions options = small();
  options.idle_timeout = milliseconds(200);
  start(options);
  RawConnection client(port_);
  EXPECT_TRUE(client.closed_by_peer(kAnswerDeadline));
}

TEST_F(HttpServerTest, AHeaderOverItsLimitIs431) {
  HttpServerOptions options = small();
  options.max_header_bytes = 4096;
  start(options);
  const std::string answer =
      exchange("GET /healthz HTTP/1.1\r\nX-Big: " + std::string(8000, 'a') + "\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 431")) << answer.substr(0, 200);
  EXPECT_NE(answer.find("request_header_fields_too_large"), std::string::npos);
}

TEST_F(HttpServerTest, MoreThanAHundredHeaderFieldsAre431) {
  start(small());
  std::string request = "GET /healthz HTTP/1.1\r\n";
  for (int i = 0; i < 150; ++i) request += "X-Filler-" + std::to_string(i) + ": 1\r\n";
  const std::string answer = exchange(request + "\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 431")) << answer.substr(0, 200);
}

TEST_F(HttpServerTest, ATargetOverItsLimitIs414) {
  start(small());
  const std::string answer =
      exchange("GET /params?x=" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 414")) << answer.substr(0, 200);
  EXPECT_NE(answer.find("uri_too_long"), std::string::npos);
}

// Issue 10, item 13: Content-Length: -1 closed the connection without an answer.
TEST_F(HttpServerTest, ANegativeContentLengthIs400WithAJsonError) {
  start(small());
  const std::string answer =
      exchange("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\nabc");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 400")) << answer;
  EXPECT_NE(answer.find("\"code\":\"bad_request\""), std::string::npos) << answer;
  EXPECT_NE(answer.find("Content-Type: application/json"), std::string::npos) << answer;
}

TEST_F(HttpServerTest, ADeclaredBodyOverTheLimitIs413BeforeItIsSent) {
  HttpServerOptions options = small();
  options.max_body_bytes = 1000;
  start(options);
  RawConnection client(port_);
  ASSERT_TRUE(client.send("POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n"));
  const std::string answer = client.read_until("}", 1, kAnswerDeadline);
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 413")) << answer;
  EXPECT_NE(answer.find("larger than 1000 bytes"), std::string::npos) << answer;
}

std::string chunked(const std::string& body, size_t chunk) {
  std::string out;
  char size[32];
  for (size_t at = 0; at < body.size(); at += chunk) {
    const std::string part = body.substr(at, chunk);
    std::snprintf(size, sizeof(size), "%zx\r\n", part.size());
    out += size + part + "\r\n";
  }
  return out + "0\r\n\r\n";
}

// Issue 10, item 3: a chunked body of 100 MB was read whole.
TEST_F(HttpServerTest, AChunkedBodyIsCountedAgainstTheLimitAsItArrives) {
  HttpServerOptions options = small();
  options.max_body_bytes = 1000;
  start(options);
  const std::string head = "POST /size HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";

  const std::string within = exchange(head + chunked(std::string(900, 'a'), 100) +
                                      "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_NE(within.find("size=900"), std::string::npos) << within;

  const std::string over = exchange(head + chunked(std::string(5000, 'a'), 100));
  EXPECT_TRUE(over.starts_with("HTTP/1.1 413")) << over;
}

TEST_F(HttpServerTest, ExpectContinueIsAnsweredBeforeTheBody) {
  start(small());
  RawConnection client(port_);
  ASSERT_TRUE(client.send(
      "POST /size HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"));
  EXPECT_TRUE(client.read_until("\r\n\r\n", 1, kAnswerDeadline).starts_with("HTTP/1.1 100"));
  ASSERT_TRUE(client.send("abcd"));
  EXPECT_NE(client.read_until("size=4", 1, kAnswerDeadline).find("size=4"), std::string::npos);
}

TEST_F(HttpServerTest, Http10WithoutKeepAliveIsClosedAfterTheAnswer) {
  start(small());
  const std::string answer = exchange("GET /echo/3 HTTP/1.0\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.0 200")) << answer;
  EXPECT_NE(answer.find("echo-3;"), std::string::npos);
}

TEST_F(HttpServerTest, HeadAnswersTheHeadersOfGetWithoutABody) {
  start(small());
  const std::string answer = exchange("HEAD /echo/12 HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 200")) << answer;
  EXPECT_NE(answer.find("Content-Length: 8"), std::string::npos) << answer;
  EXPECT_EQ(answer.find("echo-12"), std::string::npos) << answer;
}

TEST_F(HttpServerTest, AnotherMethodOnAKnownPathIs405WithAllow) {
  start(small());
  const std::string answer = exchange("DELETE /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 405")) << answer;
  EXPECT_NE(answer.find("Allow: GET"), std::string::npos) << answer;
}

TEST_F(HttpServerTest, AHandlerThatThrowsIs500AndTheServerGoesOn) {
  start(small());
  const std::string answer = exchange("GET /throw HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 500")) << answer;
  EXPECT_NE(answer.find("handler bug"), std::string::npos) << answer;
  EXPECT_TRUE(healthz_answers());
}

TEST_F(HttpServerTest, QueryParametersArePercentDecoded) {
  start(small());
  const std::string answer = exchange(
      "GET /par%61ms?team=vision%2Fa&phase=Pending+Running&flag HTTP/1.1\r\n"
      "Connection: close\r\n\r\n");
  EXPECT_NE(answer.find("\"path\":\"/params\""), std::string::npos) << answer;
  EXPECT_NE(answer.find("\"team\":\"vision/a\""), std::string::npos) << answer;
  EXPECT_NE(answer.find("\"phase\":\"Pending Running\""), std::string::npos) << answer;
  EXPECT_NE(answer.find("\"flag\":\"\""), std::string::npos) << answer;
}

TEST_F(HttpServerTest, ABadPercentEscapeIs400) {
  start(small());
  const std::string answer = exchange("GET /params?x=%zz HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_TRUE(answer.starts_with("HTTP/1.1 400")) << answer;
  EXPECT_NE(answer.find("request-target"), std::string::npos) << answer;
}

TEST_F(HttpServerTest, ConnectionsBeyondTheLimitAreClosed) {
  HttpServerOptions options = small();
  options.max_connections = 3;
  start(options);
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<RawConnection>(port_));
    // Answered, so the server has counted this one before the next connects.
    ASSERT_TRUE(held.back()->send("GET /echo/1 HTTP/1.1\r\nHost: x\r\n\r\n"));
    ASSERT_NE(held.back()->read_until("echo-1;", 1, kAnswerDeadline).find("echo-1;"),
              std::string::npos);
  }
  RawConnection extra(port_);
  EXPECT_TRUE(extra.closed_by_peer(kAnswerDeadline));
  held.pop_back();
  // The server sees that close when it reads the end of the stream.
  bool answered = false;
  for (int attempt = 0; attempt < 100 && !answered; ++attempt) {
    answered = healthz_answers();
    if (!answered) std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_TRUE(answered);
}

TEST_F(HttpServerTest, AClientOverItsRateIs429WithRetryAfterButProbesPass) {
  RateLimiter limiter(/*per_second=*/0.01, /*burst=*/2);
  server_ = std::make_unique<HttpServer>(small(), routed_service(router_, &limiter));
  const Result<int> port = server_->bind("127.0.0.1", 0);
  ASSERT_TRUE(port.ok());
  port_ = *port;
  serving_ = std::thread([this] { server_->serve(); });
  const std::string request = "GET /echo/1 HTTP/1.1\r\nConnection: close\r\n\r\n";
  EXPECT_TRUE(exchange(request).starts_with("HTTP/1.1 200"));
  EXPECT_TRUE(exchange(request).starts_with("HTTP/1.1 200"));

  const std::string refused = exchange(request);

  EXPECT_TRUE(refused.starts_with("HTTP/1.1 429")) << refused;
  EXPECT_NE(refused.find("Retry-After: 100"), std::string::npos) << refused;
  EXPECT_NE(refused.find("too_many_requests"), std::string::npos) << refused;
  EXPECT_TRUE(healthz_answers());
}

TEST_F(HttpServerTest, StopEndsServeWithIdleConnectionsOpen) {
  start(small());
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int i = 0; i < 20; ++i) idle.push_back(std::make_unique<RawConnection>(port_));
  ASSERT_TRUE(healthz_answers());
  server_->stop();
  serving_.join();
  for (const auto& client : idle) EXPECT_TRUE(client->closed_by_peer(kAnswerDeadline));
}

// The writers of the streams opened on GET /stream (a test route).
struct StreamWriters {
  std::mutex mu;
  std::vector<std::shared_ptr<StreamWriter>> writers;

  size_t size() {
    const std::lock_guard lock(mu);
    return writers.size();
  }
  // Writes `chunk` on every stream; how many took it.
  size_t write_all(const std::string& chunk) {
    const std::lock_guard lock(mu);
    size_t taken = 0;
    for (const auto& writer : writers) taken += writer->write(chunk) ? 1 : 0;
    return taken;
  }
};

void add_stream_route(Router& router, StreamWriters& streams, milliseconds keepalive) {
  router.get("/stream", [&streams, keepalive](const HttpRequest&, HttpResponse& res) {
    res.set_header("Content-Type", "text/event-stream");
    auto stream = std::make_shared<HttpStream>();
    stream->keepalive = keepalive;
    stream->keepalive_chunk = ": beat\n\n";
    stream->start = [&streams](std::shared_ptr<StreamWriter> writer) {
      const std::lock_guard lock(streams.mu);
      streams.writers.push_back(std::move(writer));
    };
    res.stream = std::move(stream);
  });
}

bool wait_for_http_stream(const std::function<bool()>& probe) {
  const auto deadline = std::chrono::steady_clock::now() + kAnswerDeadline;
  while (!probe()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(10));  // a real socket's other end: no clock to inject
  }
  return true;
}

TEST_F(HttpServerTest, StreamsHoldNoWorkerAndCarryChunksInOrderUntilTheyEnd) {
  StreamWriters streams;
  add_stream_route(router_, streams, milliseconds(0));
  start(small(/*workers=*/1));
  std::vector<std::unique_ptr<RawConnection>> clients;
  for (int i = 0; i < 20; ++i) {
    clients.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(clients.back()->send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"));
  }
  ASSERT_TRUE(wait_for_http_stream([&] { return streams.size() == 20; }));
  // Twenty open streams, one worker: other requests are still answered.
  EXPECT_TRUE(healthz_answers());
  EXPECT_EQ(streams.write_all("data: one\n\n"), 20U);
  EXPECT_EQ(streams.write_all("data: two\n\n"), 20U);
  for (const auto& client : clients) {
    const std::string seen = client->read_until("data: two", 1, kAnswerDeadline);
    EXPECT_NE(seen.find("Transfer-Encoding: chunked"), std::string::npos) << seen;
    EXPECT_NE(seen.find("text/event-stream"), std::string::npos) << seen;
    EXPECT_LT(seen.find("data: one"), seen.find("data: two")) << seen;
  }
  {
    const std::lock_guard lock(streams.mu);
    for (const auto& writer : streams.writers) writer->end();
  }
  for (const auto& client : clients) {
    EXPECT_NE(client->read_all(kAnswerDeadline).find("0\r\n\r\n"), std::string::npos);
  }
  EXPECT_EQ(streams.write_all("data: late\n\n"), 0U) << "an ended stream takes nothing";
}

TEST_F(HttpServerTest, AQuietStreamSendsItsKeepaliveAndNoticesAClientThatLeft) {
  StreamWriters streams;
  add_stream_route(router_, streams, milliseconds(100));
  start(small());
  {
    RawConnection client(port_);
    ASSERT_TRUE(client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"));
    const std::string seen = client.read_until(": beat", 3, kAnswerDeadline);
    EXPECT_EQ(count_of(seen, ": beat"), 3) << seen;
  }
  // The client closed: the stream is over for its writer.
  EXPECT_TRUE(wait_for_http_stream([&] { return streams.write_all("data: x\n\n") == 0; }));
}

TEST_F(HttpServerTest, StopEndsServeWithStreamsOpen) {
  StreamWriters streams;
  add_stream_route(router_, streams, milliseconds(0));
  start(small());
  std::vector<std::unique_ptr<RawConnection>> clients;
  for (int i = 0; i < 5; ++i) {
    clients.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(clients.back()->send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"));
  }
  ASSERT_TRUE(wait_for_http_stream([&] { return streams.size() == 5; }));
  server_->stop();
  serving_.join();
  for (const auto& client : clients) EXPECT_TRUE(client->closed_by_peer(kAnswerDeadline));
  EXPECT_EQ(streams.write_all("data: x\n\n"), 0U);
}

}  // namespace
}  // namespace allot::server
