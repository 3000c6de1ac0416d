// WebhookSender: the port a Signal's firing and resolving are POSTed through
// (docs/metrics.md, Signals). app/ chooses the implementation (an HTTP client
// over cpp-httplib, app/http_webhook_sender.h); tests use it too, against a
// real loopback server.
//
// Contract: post() sends `body` (JSON) to `url` (http or https, checked when
// the Signal was applied) and returns OK only for a 2xx answer; any other
// answer or a transport failure is an error saying which. It may block up to
// its own timeout; callers call it with no lock held. Thread-safe.
#pragma once

#include <string>

#include "base/status.h"

namespace allot {

class WebhookSender {
 public:
  virtual ~WebhookSender() = default;
  virtual Status post(const std::string& url, const std::string& body) = 0;
};

}  // namespace allot
