#include "raw_connection.h"

#include <cerrno>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace allot::server_test {
namespace {

using SteadyClock = std::chrono::steady_clock;

int remaining_ms(SteadyClock::time_point end) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - SteadyClock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

}  // namespace

RawConnection::RawConnection(int port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd_);
    fd_ = -1;
    return;
  }
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

RawConnection::~RawConnection() {
  if (fd_ >= 0) ::close(fd_);
}

bool RawConnection::send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

bool RawConnection::read_some(std::string& into, std::chrono::milliseconds wait, bool& closed) {
  pollfd watched{fd_, POLLIN, 0};
  const int ready = ::poll(&watched, 1, static_cast<int>(wait.count()));
  if (ready <= 0) return false;
  char chunk[16384];
  const ssize_t got = ::recv(fd_, chunk, sizeof(chunk), 0);
  if (got <= 0) {
    closed = true;
    return true;
  }
  into.append(chunk, static_cast<size_t>(got));
  return true;
}

std::string RawConnection::read_until(std::string_view marker, int count,
                                      std::chrono::milliseconds deadline) {
  std::string got;
  const SteadyClock::time_point end = SteadyClock::now() + deadline;
  bool closed = false;
  while (!closed && count_of(got, marker) < count) {
    const int left = remaining_ms(end);
    if (left == 0 || !read_some(got, std::chrono::milliseconds(left), closed)) break;
  }
  return got;
}

std::string RawConnection::read_all(std::chrono::milliseconds deadline) {
  std::string got;
  const SteadyClock::time_point end = SteadyClock::now() + deadline;
  bool closed = false;
  while (!closed) {
    const int left = remaining_ms(end);
    if (left == 0 || !read_some(got, std::chrono::milliseconds(left), closed)) break;
  }
  return got;
}

bool RawConnection::closed_by_peer(std::chrono::milliseconds deadline) {
  std::string ignored;
  const SteadyClock::time_point end = SteadyClock::now() + deadline;
  bool closed = false;
  while (!closed) {
    const int left = remaining_ms(end);
    if (left == 0 || !read_some(ignored, std::chrono::milliseconds(left), closed)) return false;
  }
  return true;
}

int count_of(std::string_view text, std::string_view needle) {
  int count = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

}  // namespace allot::server_test
