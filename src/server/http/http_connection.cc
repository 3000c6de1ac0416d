#include "server/http/http_connection.h"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "server/http/connection_stream_writer.h"
#include "server/http/request_target.h"
#include "server/http_responses.h"

namespace allot::server {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using Tcp = net::ip::tcp;
using PlainStream = beast::tcp_stream;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// After an answer that closes the connection, what the client still sends
// (the body of a refused request) is read and dropped for a while: closing
// a socket with unread data resets it, and a client still writing its body
// would lose the answer (a 413 for a 5 MB manifest). Bounded in time and
// bytes, so that a client cannot keep the connection by sending forever.
constexpr std::chrono::seconds kLingerTime{2};
constexpr size_t kLingerBytes = size_t{64} << 20;
constexpr size_t kLingerChunk = 65536;
constexpr size_t kFirstRead = 1024;
// A streaming answer whose client reads slower than this many chunks pile
// up is closed (the client reconnects; nothing grows without bound).
constexpr size_t kMaxQueuedChunks = 256;
constexpr size_t kStreamPeerRead = 512;

bool is_parse_error(const beast::error_code& ec) {
  return &ec.category() == &http::make_error_code(http::error::bad_version).category() &&
         ec != http::error::end_of_stream && ec != http::error::partial_message;
}

PlainStream make_stream(Tcp::socket socket, const ConnectionContext&, PlainStream*) {
  return PlainStream(std::move(socket));
}

TlsStream make_stream(Tcp::socket socket, const ConnectionContext& context, TlsStream*) {
  return TlsStream(std::move(socket), *context.tls);
}

// One connection over a plain TCP stream or a TLS stream on it: the same
// state machine, with a handshake first and, between requests, a read of the
// first bytes instead of a wait for readability (TLS may hold decrypted
// bytes that the socket no longer shows).
template <typename Stream>
class Connection : public std::enable_shared_from_this<Connection<Stream>> {
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

 public:
  Connection(Tcp::socket socket, const ConnectionContext& context)
      : stream_(make_stream(std::move(socket), context, static_cast<Stream*>(nullptr))),
        idle_timer_(stream_.get_executor()),
        keepalive_timer_(stream_.get_executor()),
        context_(context) {
    context_.open_connections.fetch_add(1);
    beast::error_code ec;
    const Tcp::endpoint peer = lowest().socket().remote_endpoint(ec);
    if (!ec) remote_address_ = peer.address().to_string();
  }
  ~Connection() { context_.open_connections.fetch_sub(1); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void start() {
    net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
      if constexpr (kTls) {
        self->handshake();
      } else {
        self->wait_for_request();
      }
    });
  }

 private:
  const HttpServerOptions& options() const { return context_.options; }
  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }

  void handshake() {
    lowest().expires_after(options().header_timeout);
    stream_.async_handshake(net::ssl::stream_base::server,
                            [self = this->shared_from_this()](const beast::error_code& ec) {
                              if (ec) return self->close();
                              self->wait_for_request();
                            });
  }

  // Between requests: no buffer, no parser, one timer (plain); a small
  // read of the first bytes (TLS).
  void wait_for_request() {
    on_worker_ = false;
    if (buffer_.size() > 0) return read_header();  // pipelined
    buffer_.shrink_to_fit();
    if constexpr (kTls) {
      lowest().expires_after(options().idle_timeout);
      stream_.async_read_some(
          buffer_.prepare(kFirstRead),
          [self = this->shared_from_this()](const beast::error_code& ec, size_t n) {
            self->buffer_.commit(n);
            if (ec) return self->close();
            self->read_header();
          });
      return;
    }
    idle_timer_.expires_after(options().idle_timeout);
    idle_timer_.async_wait([weak = this->weak_from_this()](const beast::error_code& ec) {
      if (ec) return;
      if (const std::shared_ptr<Connection> self = weak.lock()) self->close();
    });
    lowest().socket().async_wait(
        Tcp::socket::wait_read, [self = this->shared_from_this()](const beast::error_code& ec) {
          self->idle_timer_.cancel();
          if (ec) return self->close();
          net::post(self->context_.workers, [self] { self->read_on_worker(); });
        });
  }

  // Plain connections, on a worker once the socket is readable. Most
  // requests arrive whole: the worker reads, checks and handles them and
  // writes the answer itself, and the loop only waits for readability (the
  // loop thread neither parses nor arms read timers, and answers need no
  // hop back: issue 10, durable submits). When the socket runs dry before a
  // request is whole, the loop reads the rest under its timeouts.
  void read_on_worker() {
    on_worker_ = true;
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(options().max_header_bytes));
    parser_->body_limit(boost::none);
    beast::error_code ec;
    set_non_blocking(ec);
    if (!ec) http::read_header(lowest().socket(), buffer_, *parser_, ec);
    if (would_block(ec)) return to_loop([](Connection& c) { c.continue_header(); });
    on_header(ec);
  }

  // The loop reads the rest of a header that the worker began.
  void continue_header() {
    lowest().expires_after(options().header_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](const beast::error_code& ec, size_t) {
                              self->on_header(ec);
                            });
  }

  // Hands the connection from the worker to the loop.
  template <typename Step>
  void to_loop(Step step) {
    on_worker_ = false;
    net::post(stream_.get_executor(), [self = this->shared_from_this(), step] { step(*self); });
  }

  static bool would_block(const beast::error_code& ec) {
    return ec == net::error::would_block || ec == net::error::try_again;
  }

  // The socket is put in non-blocking mode once (an ioctl), not per request.
  void set_non_blocking(beast::error_code& ec) {
    if (non_blocking_) return;
    lowest().socket().non_blocking(true, ec);
    non_blocking_ = !ec;
  }

  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(options().max_header_bytes));
    parser_->body_limit(boost::none);  // set before the body, after the framing checks
    lowest().expires_after(options().header_timeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](const beast::error_code& ec, size_t) {
                              self->on_header(ec);
                            });
  }

  void on_header(const beast::error_code& ec) {
    if (ec == http::error::header_limit) {
      return refuse(431, "request_header_fields_too_large",
                    "the request header is larger than " +
                        std::to_string(options().max_header_bytes) + " bytes");
    }
    if (is_parse_error(ec)) {
      return refuse(400, "bad_request", "the request is not valid HTTP/1.1: " + ec.message());
    }
    if (ec) return close();  // the client left, or the header timed out
    const http::request<http::string_body>& head = parser_->get();
    version_ = head.version();
    keep_alive_ = head.keep_alive();
    head_request_ = head.method() == http::verb::head;
    if (const std::optional<HttpResponse> refusal = check_head(head)) {
      return send(*refusal, /*close_after=*/true);
    }
    if (parser_->is_done()) return run_handler();
    if (beast::iequals(head[http::field::expect], "100-continue")) return send_continue();
    read_body();
  }

  // The limits and the service's own refusal, before any body is read.
  std::optional<HttpResponse> check_head(const http::request<http::string_body>& head) {
    HttpResponse refusal;
    if (head.target().size() > options().max_target_bytes) {
      send_error(refusal, 414, "uri_too_long",
                 "the request target is longer than " + std::to_string(options().max_target_bytes) +
                     " bytes");
      return refusal;
    }
    request_ = HttpRequest{};
    for (const auto& field : head) {
      request_.headers.emplace(std::string(field.name_string()), std::string(field.value()));
    }
    if (request_.headers.size() > options().max_header_fields) {
      send_error(refusal, 431, "request_header_fields_too_large",
                 "a request may carry at most " + std::to_string(options().max_header_fields) +
                     " header fields (this one: " + std::to_string(request_.headers.size()) + ")");
      return refusal;
    }
    request_.method = std::string(head.method_string());
    request_.target = std::string(head.target());
    request_.remote_address = remote_address_;
    Result<RequestTarget> target = parse_request_target(request_.target);
    if (!target.ok()) {
      send_error(refusal, target.status());
      return refusal;
    }
    request_.path = std::move(target->path);
    for (auto& [key, value] : target->params) request_.params.emplace(key, std::move(value));
    if (context_.service.refuse_before_body) {
      if (std::optional<HttpResponse> refused = context_.service.refuse_before_body(request_)) {
        return refused;
      }
    }
    const boost::optional<uint64_t> length = parser_->content_length();
    if (length && *length > options().max_body_bytes) return body_too_large();
    return std::nullopt;
  }

  HttpResponse body_too_large() const {
    HttpResponse refusal;
    send_error(refusal, Status(ErrorCode::kResourceExhausted,
                               "the request body is larger than " +
                                   std::to_string(options().max_body_bytes) + " bytes"));
    return refusal;
  }

  void send_continue() {
    on_worker_ = false;
    auto answer =
        std::make_shared<http::response<http::empty_body>>(http::status::continue_, version_);
    lowest().expires_after(options().write_timeout);
    http::async_write(
        stream_, *answer,
        [self = this->shared_from_this(), answer](const beast::error_code& ec, size_t) {
          if (ec) return self->close();
          self->read_body();
        });
  }

  void read_body() {
    parser_->body_limit(options().max_body_bytes);
    if (on_worker_) {
      beast::error_code ec;
      http::read(lowest().socket(), buffer_, *parser_, ec);
      if (!would_block(ec)) return on_body(ec);
      return to_loop([](Connection& c) { c.continue_body(); });
    }
    continue_body();
  }

  void continue_body() {
    lowest().expires_after(options().body_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](const beast::error_code& ec, size_t) {
                       self->on_body(ec);
                     });
  }

  void on_body(const beast::error_code& ec) {
    if (ec == http::error::body_limit) return send(body_too_large(), /*close_after=*/true);
    if (is_parse_error(ec)) {
      return refuse(400, "bad_request", "the request body is badly framed: " + ec.message());
    }
    if (ec) return close();
    run_handler();
  }

  // The handler runs on a worker, which then answers (answer()).
  void run_handler() {
    lowest().expires_never();
    request_.body = std::move(parser_->get().body());
    parser_.reset();
    if (on_worker_) {
      HttpResponse response;
      context_.service.handle(request_, response);
      request_ = HttpRequest{};
      return answer(std::move(response));
    }
    net::post(context_.workers,
              [self = this->shared_from_this(), request = std::move(request_)]() mutable {
                HttpResponse response;
                self->context_.service.handle(request, response);
                self->answer(std::move(response));
              });
  }

  // On the worker that made the answer. While a request is handled the
  // connection has no operation in flight and none of its handlers can run
  // (it reads the next request only once this one is answered, and the
  // stream cancelled its timers), so a plain connection is the worker's
  // until it starts the next asynchronous operation: the worker writes what
  // the socket takes at once and arms the wait for the next request, and the
  // loop is woken only when the socket is full (one thread hop per request
  // instead of two: issue 10, durable submits). TLS answers on the loop.
  void answer(HttpResponse response) {
    if constexpr (kTls) {
      net::post(stream_.get_executor(),
                [self = this->shared_from_this(), response = std::move(response)]() mutable {
                  self->send(std::move(response), /*close_after=*/false);
                });
    } else {
      send(std::move(response), /*close_after=*/false);
    }
  }

  void refuse(int status, std::string_view code, std::string message) {
    HttpResponse refusal;
    send_error(refusal, status, code, std::move(message));
    send(std::move(refusal), /*close_after=*/true);
  }

  void send(HttpResponse response, bool close_after) {
    if (response.stream && !head_request_ && !close_after) return start_stream(std::move(response));
    const bool close_now = close_after || !keep_alive_ ||
                           beast::iequals(response.get_header_value("Connection"), "close");
    out_ = {};
    out_.version(version_);
    out_.result(static_cast<unsigned>(response.status));
    for (const auto& [name, value] : response.headers) {
      if (beast::iequals(name, "Content-Length") || beast::iequals(name, "Connection")) continue;
      out_.insert(name, value);
    }
    out_.keep_alive(!close_now);
    if (head_request_) {
      out_.content_length(response.body.size());
    } else {
      out_.body() = std::move(response.body);
      out_.prepare_payload();
    }
    if constexpr (kTls) {
      lowest().expires_after(options().write_timeout);
      http::async_write(stream_, out_,
                        [self = this->shared_from_this(), close_now](
                            const beast::error_code& ec, size_t) { self->on_sent(ec, close_now); });
    } else {
      write_at_once(close_now);
    }
  }

  // Plain connections: what the socket takes now is written here, without
  // waiting (the socket is non-blocking); the rest by the loop, under the
  // write timeout.
  void write_at_once(bool close_now) {
    serializer_.emplace(out_);
    beast::error_code failed;
    set_non_blocking(failed);
    while (!failed && !serializer_->is_done()) {
      http::write_some(lowest().socket(), *serializer_, failed);
    }
    if (!would_block(failed)) return on_sent(failed, close_now);
    on_worker_ = false;
    lowest().expires_after(options().write_timeout);
    http::async_write(stream_, *serializer_,
                      [self = this->shared_from_this(), close_now](
                          const beast::error_code& ec, size_t) { self->on_sent(ec, close_now); });
  }

  void on_sent(const beast::error_code& ec, bool close_now) {
    serializer_.reset();
    if (ec) return close();
    if (close_now) return linger_then_close();
    out_ = {};
    head_request_ = false;
    wait_for_request();
  }

  void linger_then_close() {
    if constexpr (kTls) return close();  // no half-close under TLS
    beast::error_code ec;
    lowest().socket().shutdown(Tcp::socket::shutdown_send, ec);
    if (ec) return close();
    buffer_.clear();
    lowest().expires_after(kLingerTime);
    drain();
  }

  void drain() {
    stream_.async_read_some(
        buffer_.prepare(kLingerChunk),
        [self = this->shared_from_this()](const beast::error_code& ec, size_t n) {
          self->lingered_ += n;
          if (ec || self->lingered_ > kLingerBytes) return self->close();
          self->drain();
        });
  }

  // A streaming answer (HttpStream): the header from the loop, then the
  // writer's chunks in order (connection_stream_writer.h); a read that ends
  // with the client; a keepalive.
  using Writer = ConnectionStreamWriter<Connection>;
  friend Writer;
  [[nodiscard]] auto executor() { return stream_.get_executor(); }

  void start_stream(HttpResponse response) {
    on_worker_ = false;
    net::post(stream_.get_executor(),
              [self = this->shared_from_this(), response = std::move(response)]() mutable {
                self->send_stream_header(std::move(response));
              });
  }

  void send_stream_header(HttpResponse response) {
    answer_stream_ = std::move(response.stream);
    stream_head_ = {};
    stream_head_.version(version_);
    stream_head_.result(static_cast<unsigned>(response.status));
    for (const auto& [name, value] : response.headers) {
      if (beast::iequals(name, "Content-Length") || beast::iequals(name, "Connection") ||
          beast::iequals(name, "Transfer-Encoding")) {
        continue;
      }
      stream_head_.insert(name, value);
    }
    stream_head_.keep_alive(false);
    stream_head_.chunked(true);
    head_serializer_.emplace(stream_head_);
    lowest().expires_after(options().write_timeout);
    http::async_write_header(
        stream_, *head_serializer_,
        [self = this->shared_from_this()](const beast::error_code& ec, size_t) {
          self->on_stream_header(ec);
        });
  }

  void on_stream_header(const beast::error_code& ec) {
    head_serializer_.reset();
    lowest().expires_never();  // a stream lasts; a slow reader is bounded by kMaxQueuedChunks
    if (ec) return close();
    writer_ = std::make_shared<Writer>(this->weak_from_this());
    watch_stream_peer();
    arm_keepalive();
    if (answer_stream_->start) answer_stream_->start(writer_);
  }

  // The client sends nothing on a stream: a read that ends means it left.
  void watch_stream_peer() {
    buffer_.clear();
    stream_.async_read_some(buffer_.prepare(kStreamPeerRead),
                            [self = this->shared_from_this()](const beast::error_code& ec, size_t) {
                              if (ec || !self->writer_->is_open()) return self->close();
                              self->watch_stream_peer();
                            });
  }

  void arm_keepalive() {
    if (answer_stream_->keepalive.count() <= 0) return;
    keepalive_timer_.expires_after(answer_stream_->keepalive);
    keepalive_timer_.async_wait([self = this->shared_from_this()](const beast::error_code& ec) {
      if (ec || !self->answer_stream_) return;
      if (!self->chunk_writing_ && self->out_chunks_.empty()) {
        self->queue_chunk(self->answer_stream_->keepalive_chunk);
      }
      self->arm_keepalive();
    });
  }

  void queue_chunk(std::string chunk) {
    if (!answer_stream_ || ending_ || chunk.empty()) return;
    out_chunks_.push_back(std::move(chunk));
    if (out_chunks_.size() > kMaxQueuedChunks) return close();
    if (!chunk_writing_) write_next_chunk();
  }

  void write_next_chunk() {
    if (out_chunks_.empty()) {
      if (ending_) write_last_chunk();
      return;
    }
    chunk_writing_ = true;
    const std::string& data = out_chunks_.front();
    net::async_write(stream_, http::make_chunk(net::const_buffer(data.data(), data.size())),
                     [self = this->shared_from_this()](const beast::error_code& ec, size_t) {
                       self->chunk_writing_ = false;
                       if (ec || !self->answer_stream_) return self->close();
                       self->out_chunks_.pop_front();
                       self->write_next_chunk();
                     });
  }

  void end_stream() {
    if (!answer_stream_ || ending_) return;
    ending_ = true;
    if (!chunk_writing_) write_next_chunk();
  }

  void write_last_chunk() {
    chunk_writing_ = true;
    net::async_write(stream_, http::make_chunk_last(),
                     [self = this->shared_from_this()](const beast::error_code&, size_t) {
                       self->chunk_writing_ = false;
                       self->close();
                     });
  }

  void close() {
    idle_timer_.cancel();
    if (writer_) {
      writer_->mark_closed();
      keepalive_timer_.cancel();
      answer_stream_.reset();
      out_chunks_.clear();
    }
    beast::error_code ec;
    lowest().socket().shutdown(Tcp::socket::shutdown_both, ec);
    lowest().close();
  }

  Stream stream_;
  net::steady_timer idle_timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  HttpRequest request_;
  http::response<http::string_body> out_;
  std::optional<http::response_serializer<http::string_body>> serializer_;  // of out_, plain only
  unsigned version_ = 11;
  bool keep_alive_ = true;
  bool head_request_ = false;
  bool non_blocking_ = false;  // the socket's mode was set (plain)
  // A worker owns the connection and reads without waiting (plain only; no
  // operation of the connection is in flight meanwhile).
  bool on_worker_ = false;
  size_t lingered_ = 0;
  // A streaming answer (send_stream_header on): its header, the writer the
  // HttpStream got, the chunks not yet written (the front one in flight).
  std::shared_ptr<HttpStream> answer_stream_;
  http::response<http::empty_body> stream_head_;
  std::optional<http::response_serializer<http::empty_body>> head_serializer_;
  std::shared_ptr<Writer> writer_;
  std::deque<std::string> out_chunks_;
  bool chunk_writing_ = false;
  bool ending_ = false;
  net::steady_timer keepalive_timer_;
  const ConnectionContext& context_;
  std::string remote_address_;
};

}  // namespace

void start_connection(Tcp::socket socket, const ConnectionContext& context) {
  if (context.tls != nullptr) {
    std::make_shared<Connection<TlsStream>>(std::move(socket), context)->start();
  } else {
    std::make_shared<Connection<PlainStream>>(std::move(socket), context)->start();
  }
}

}  // namespace allot::server
