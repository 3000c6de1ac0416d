// ConnectionStreamWriter: the handle a streaming answer's owner keeps
// (StreamWriter, http_message.h) on one connection of the event-loop server
// (http_connection.cc).
//
// Contract:
// - write() and end() may be called from any thread: each posts a step to the
//   connection's event loop (Connection::queue_chunk / end_stream), in call
//   order; they never write to the socket themselves.
// - It holds the connection weakly and no executor of its own: a writer kept
//   after the connection closed or after the server's event loop ended (its
//   io_context gone) only answers false. After end(), or once the connection
//   called mark_closed() (the client left, the stream is over), write()
//   answers false.
// Thread-safe.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include <boost/asio/post.hpp>

#include "server/http/http_message.h"

namespace allot::server {

template <typename Connection>
class ConnectionStreamWriter : public StreamWriter {
 public:
  explicit ConnectionStreamWriter(std::weak_ptr<Connection> owner)
      : connection_(std::move(owner)) {}

  bool write(std::string chunk) override {
    return post(
        [chunk = std::move(chunk)](Connection& c) mutable { c.queue_chunk(std::move(chunk)); });
  }
  void end() override {
    post([](Connection& c) { c.end_stream(); });
    open_ = false;
  }
  [[nodiscard]] bool is_open() const { return open_; }
  void mark_closed() { open_ = false; }

 private:
  template <typename Step>
  bool post(Step step) {
    if (!open_) return false;
    std::shared_ptr<Connection> self = connection_.lock();
    if (!self) {
      open_ = false;
      return false;
    }
    auto executor = self->executor();
    boost::asio::post(executor,
                      [self = std::move(self), step = std::move(step)]() mutable { step(*self); });
    return true;
  }

  std::weak_ptr<Connection> connection_;
  std::atomic<bool> open_{true};
};

}  // namespace allot::server
