#include "bench/http_load_client.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace allot::bench {
namespace {

constexpr size_t kReadChunk = 64 * 1024;
constexpr std::string_view kHeaderEnd = "\r\n\r\n";

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The value of header `name` in a header block (status line included);
// nullopt when absent.
std::optional<std::string_view> header_value(std::string_view headers, std::string_view name) {
  size_t start = headers.find("\r\n");
  while (start != std::string_view::npos && start + 2 < headers.size()) {
    const size_t end = std::min(headers.find("\r\n", start + 2), headers.size());
    const std::string_view line = headers.substr(start + 2, end - start - 2);
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos && iequals(line.substr(0, colon), name)) {
      std::string_view value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      return value;
    }
    start = end;
  }
  return std::nullopt;
}

long long content_length(std::string_view headers) {
  const std::optional<std::string_view> value = header_value(headers, "content-length");
  long long length = -1;
  if (!value) return length;
  const auto [ptr, ec] = std::from_chars(value->data(), value->data() + value->size(), length);
  return ec == std::errc() && ptr == value->data() + value->size() ? length : -1;
}

}  // namespace

HttpLoadClient::~HttpLoadClient() { close_connection(); }

void HttpLoadClient::close_connection() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buffer_.clear();
}

bool HttpLoadClient::connect_once(std::string& error) {
  if (fd_ >= 0) return true;
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) {
    error = errno_text("socket");
    return false;
  }
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  const timeval timeout{timeout_s_, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port_));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    error = errno_text("connect");
    close_connection();
    return false;
  }
  return true;
}

bool HttpLoadClient::send_all(std::string_view data, std::string& error) {
  while (!data.empty()) {
    const ssize_t sent = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) {
      error = errno_text("send");
      return false;
    }
    data.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

bool HttpLoadClient::read_answer(HttpAnswer& answer) {
  size_t header_end = std::string::npos;
  long long length = -1;
  for (;;) {
    if (header_end == std::string::npos) {
      header_end = buffer_.find(kHeaderEnd);
      if (header_end != std::string::npos) {
        length = content_length(std::string_view(buffer_).substr(0, header_end));
        if (length < 0) {
          answer.error = "the answer has no Content-Length";
          return false;
        }
      }
    }
    if (header_end != std::string::npos) {
      const size_t total = header_end + kHeaderEnd.size() + static_cast<size_t>(length);
      if (buffer_.size() >= total) {
        // "HTTP/1.1 201 Created": the code is the second word.
        const size_t space = buffer_.find(' ');
        if (space == std::string::npos || space + 4 > header_end) {
          answer.error = "malformed status line";
          return false;
        }
        std::from_chars(buffer_.data() + space + 1, buffer_.data() + space + 4, answer.status);
        answer.body.assign(buffer_, header_end + kHeaderEnd.size(), static_cast<size_t>(length));
        const std::optional<std::string_view> connection =
            header_value(std::string_view(buffer_).substr(0, header_end), "connection");
        const bool closing = connection && iequals(*connection, "close");
        buffer_.erase(0, total);
        if (closing) close_connection();
        return true;
      }
    }
    char chunk[kReadChunk];  // not a member: uninitialised, and without a copy per connection
    const ssize_t got = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (got > 0) buffer_.append(chunk, static_cast<size_t>(got));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      answer.error = got == 0 ? "the server closed the connection"
                     : (errno == EAGAIN || errno == EWOULDBLOCK) ? errno_text("timeout: recv")
                                                                 : errno_text("recv");
      return false;
    }
  }
}

HttpAnswer HttpLoadClient::request(std::string_view method, std::string_view path,
                                   std::string_view content_type, std::string_view body) {
  HttpAnswer answer;
  if (!connect_once(answer.error)) return answer;
  request_.clear();
  request_.append(method).append(" ").append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  if (!content_type.empty()) request_.append("Content-Type: ").append(content_type).append("\r\n");
  if (!bearer_.empty()) request_.append("Authorization: Bearer ").append(bearer_).append("\r\n");
  request_.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n\r\n");
  request_.append(body);
  if (!send_all(request_, answer.error) || !read_answer(answer)) {
    answer.status = 0;
    close_connection();
  }
  return answer;
}

}  // namespace allot::bench
