// HttpLoadClient: the load generator of `allot-bench api` and `mixed`, one
// keep-alive HTTP/1.1 connection to 127.0.0.1 that sends a request (any
// method) and reads the answer.
//
// Why not httplib::Client: the bench shares the machine's two cores with the
// allotd it measures. httplib's client builds headers in maps, allocates a
// 4 KiB buffer per request and reads byte by byte through its line reader;
// it cost a fifth of all the CPU of a submit run, CPU that allotd then lacked.
// This client reuses one buffer per connection and does two system calls per
// request (send, and usually one recv), so the figure is allotd's.
//
// Contract: answers must carry Content-Length (allotd's do); chunked
// encoding is not supported and reads as an error. A failed exchange closes
// the connection; the next post() opens a new one. Not thread-safe: one per
// client thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace allot::bench {

struct HttpAnswer {
  int status = 0;     // 0: no answer (error says why)
  std::string body;   // the answer's body
  std::string error;  // why there is no answer
};

class HttpLoadClient {
 public:
  // `bearer`: an API or session token sent with every request ("" for none).
  explicit HttpLoadClient(int port, int timeout_s = 120, std::string bearer = {})
      : port_(port), timeout_s_(timeout_s), bearer_(std::move(bearer)) {}
  ~HttpLoadClient();
  HttpLoadClient(const HttpLoadClient&) = delete;
  HttpLoadClient& operator=(const HttpLoadClient&) = delete;

  HttpAnswer post(std::string_view path, std::string_view content_type, std::string_view body) {
    return request("POST", path, content_type, body);
  }
  // A body is sent with its Content-Type when `content_type` is not empty.
  HttpAnswer request(std::string_view method, std::string_view path,
                     std::string_view content_type = {}, std::string_view body = {});

 private:
  bool connect_once(std::string& error);
  void close_connection();
  bool send_all(std::string_view data, std::string& error);
  // Reads one answer into `answer`; false (with answer.error) on failure.
  bool read_answer(HttpAnswer& answer);

  int port_;
  int timeout_s_;
  std::string bearer_;
  int fd_ = -1;
  std::string request_;  // reused between requests
  std::string buffer_;   // bytes received and not yet consumed
};

}  // namespace allot::bench
