#include "server/http/http_server.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>

#include "server/http/http_connection.h"

namespace allot::server {
namespace {

namespace net = boost::asio;
using Tcp = net::ip::tcp;
using SystemError = boost::system::error_code;

// Accepting fails while the process is out of file descriptors (EMFILE):
// accept again after this pause instead of spinning on the error.
constexpr std::chrono::milliseconds kAcceptPause{50};

// The server's TLS context from PEM files: TLS 1.2 and newer only.
Result<std::unique_ptr<net::ssl::context>> tls_context(const HttpServerOptions& options) {
  if (options.tls_cert_file.empty() != options.tls_key_file.empty()) {
    return invalid_argument("TLS needs both a certificate and its key",
                            options.tls_cert_file.empty() ? "--tls-cert" : "--tls-key");
  }
  auto context = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
  context->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                       net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 |
                       net::ssl::context::no_tlsv1_1 | net::ssl::context::single_dh_use);
  SystemError ec;
  context->use_certificate_chain_file(options.tls_cert_file, ec);
  if (ec) {
    return invalid_argument("cannot use certificate " + options.tls_cert_file + ": " + ec.message(),
                            "--tls-cert");
  }
  context->use_private_key_file(options.tls_key_file, net::ssl::context::pem, ec);
  if (ec) {
    return invalid_argument("cannot use private key " + options.tls_key_file + ": " + ec.message() +
                                " (or it does not match the certificate)",
                            "--tls-key");
  }
  return context;
}

}  // namespace

// The connections live in the io_context's pending handlers: destroying it
// closes them. It goes first (close_all), before the context they point to.
struct HttpServer::Loop {
  Loop(HttpServerOptions opts, HttpService svc)
      : options(std::move(opts)),
        service(std::move(svc)),
        workers(options.worker_threads),
        io(std::make_unique<net::io_context>(static_cast<int>(options.io_threads))),
        acceptor(std::make_unique<Tcp::acceptor>(*io)),
        accept_pause(std::make_unique<net::steady_timer>(*io)),
        context{options, service, workers, open_connections} {}

  void accept() {
    acceptor->async_accept(net::make_strand(*io),
                           [this](const SystemError& ec, Tcp::socket socket) {
                             if (ec == net::error::operation_aborted || !acceptor->is_open())
                               return;
                             if (ec) {
                               accept_pause->expires_after(kAcceptPause);
                               accept_pause->async_wait([this](const SystemError& paused) {
                                 if (!paused) accept();
                               });
                               return;
                             }
                             SystemError ignored;
                             if (open_connections.load() >= options.max_connections) {
                               socket.close(ignored);
                             } else {
                               socket.set_option(Tcp::no_delay(true), ignored);
                               start_connection(std::move(socket), context);
                             }
                             accept();
                           });
  }

  void stop() {
    const std::lock_guard lock(mu);
    if (io) io->stop();
  }

  // After the event loop stopped: running handlers finish (a worker may still
  // write a plain answer; nothing more is read), then every connection is
  // closed.
  void close_all() {
    workers.join();
    const std::lock_guard lock(mu);
    acceptor.reset();
    accept_pause.reset();
    io.reset();
  }

  HttpServerOptions options;
  HttpService service;
  std::atomic<size_t> open_connections{0};
  net::thread_pool workers;
  std::mutex mu;  // guards io against stop() while close_all() destroys it
  std::unique_ptr<net::io_context> io;
  std::unique_ptr<Tcp::acceptor> acceptor;
  std::unique_ptr<net::steady_timer> accept_pause;
  std::unique_ptr<net::ssl::context> tls;
  ConnectionContext context;
};

HttpServer::HttpServer(HttpServerOptions options, HttpService service)
    : loop_(std::make_unique<Loop>(std::move(options), std::move(service))) {}

HttpServer::~HttpServer() {
  loop_->stop();
  loop_->close_all();
}

Result<int> HttpServer::bind(const std::string& host, int port) {
  if (!loop_->options.tls_cert_file.empty() || !loop_->options.tls_key_file.empty()) {
    ALLOT_ASSIGN_OR_RETURN(loop_->tls, tls_context(loop_->options));
    loop_->context.tls = loop_->tls.get();
  }
  const auto unavailable = [&](const SystemError& ec) {
    return Status(ErrorCode::kUnavailable,
                  "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message(),
                  "--listen");
  };
  SystemError ec;
  Tcp::resolver resolver(*loop_->io);
  const Tcp::resolver::results_type found =
      resolver.resolve(host, std::to_string(port), Tcp::resolver::passive, ec);
  if (ec || found.empty()) return unavailable(ec);
  const Tcp::endpoint endpoint = found.begin()->endpoint();
  Tcp::acceptor& acceptor = *loop_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(Tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    SystemError ignored;
    acceptor.close(ignored);
    return unavailable(ec);
  }
  const Tcp::endpoint bound = acceptor.local_endpoint(ec);
  if (ec) return unavailable(ec);
  loop_->accept();
  return static_cast<int>(bound.port());
}

void HttpServer::serve() {
  net::io_context& io = *loop_->io;
  std::vector<std::thread> others;
  for (size_t i = 1; i < loop_->options.io_threads; ++i) others.emplace_back([&io] { io.run(); });
  io.run();
  for (std::thread& thread : others) thread.join();
  loop_->close_all();
}

void HttpServer::stop() { loop_->stop(); }

}  // namespace allot::server
