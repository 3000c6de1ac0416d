// One client connection of HttpServer (http_server.h): reads requests with
// Beast's parser under the server's limits and timeouts, hands each complete
// request to the worker pool and writes the answers back in order.
//
// Contract: start_connection() takes the accepted socket (whose executor is a
// strand of the event loop) and returns at once; the connection keeps itself
// alive through its pending operations and closes its socket when the
// client leaves, a timeout or a limit ends it, or the event loop stops.
// `open_connections` counts it from start to close. With `tls`, the
// connection starts with a TLS handshake (within the header timeout). The context must outlive
// every connection (HttpServer's loop owns both).
#pragma once

#include <atomic>
#include <cstddef>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/thread_pool.hpp>

#include "server/http/http_server.h"

namespace allot::server {

struct ConnectionContext {
  const HttpServerOptions& options;
  const HttpService& service;
  boost::asio::thread_pool& workers;
  std::atomic<size_t>& open_connections;
  boost::asio::ssl::context* tls = nullptr;  // null: plain HTTP
};

void start_connection(boost::asio::ip::tcp::socket socket, const ConnectionContext& context);

}  // namespace allot::server
