// RawConnection: a TCP client of the tests that writes bytes exactly as
// given and reads what comes back, for what an HTTP library will not send
// (partial headers, pipelined requests, bad framing) or hides (100 Continue).
//
// Contract: connect() to 127.0.0.1:port; every read waits at most its
// deadline and never throws. read_until() returns what arrived until the
// text `marker` has been seen `count` times, the peer closed, or the
// deadline passed; closed_by_peer() waits for the peer's close (EOF or
// reset). Not thread-safe; one per thread.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace allot::server_test {

class RawConnection {
 public:
  explicit RawConnection(int port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  [[nodiscard]] bool connected() const { return fd_ >= 0; }
  // False when the bytes could not all be written.
  bool send(std::string_view bytes);
  std::string read_until(std::string_view marker, int count, std::chrono::milliseconds deadline);
  // Everything until the peer closes (or the deadline).
  std::string read_all(std::chrono::milliseconds deadline);
  [[nodiscard]] bool closed_by_peer(std::chrono::milliseconds deadline);

 private:
  // Waits at most `wait` for bytes: false on timeout; true with what arrived
  // appended to `into`, or with `closed` set on EOF or reset.
  bool read_some(std::string& into, std::chrono::milliseconds wait, bool& closed);

  int fd_ = -1;
};

// Occurrences of `needle` in `text`.
int count_of(std::string_view text, std::string_view needle);

}  // namespace allot::server_test
