// HttpWebhookSender: the WebhookSender (webhook_sender.h) over cpp-httplib:
// POST of the JSON body with Content-Type application/json, no redirects
// followed, connect and read timeouts (5 s each by default), answers of 2xx
// accepted. Its own library (allot_signal_webhook_http) so that only allotd
// and the tests that choose it link cpp-httplib.
//
// Contract: thread-safe (a client per call); errors say the URL's origin
// and the failure (transport, or the status code), never the body.
#pragma once

#include <string>

#include "base/time.h"
#include "service/control/webhook_sender.h"

namespace allot {

class HttpWebhookSender final : public WebhookSender {
 public:
  explicit HttpWebhookSender(Duration timeout = Duration::seconds(5)) : timeout_(timeout) {}
  Status post(const std::string& url, const std::string& body) override;

 private:
  Duration timeout_;
};

}  // namespace allot
