// The `spec` of a Signal manifest (issue 14, item 5; model/signal.h):
//
//   kind: Signal
//   metadata: {name: node-unhealthy}
//   spec:
//     expression: allot_node_healthy == 0      # the PromQL subset, signal_expression.h
//     for: 5m                                  # optional, default 0
//     owner: platform-oncall
//     response: {text: "Drain it and open a hardware ticket.",
//                runbook: https://wiki.example/runbooks/node}   # runbook optional
//     webhook: https://hooks.example/allot     # optional; http or https
//
// Contract: decode_signal() returns the model value or a Status located at
// the offending field (document, field path, line and column), and for the
// expression the character within it. Stateless.
#pragma once

#include <string_view>

#include "api/manifest_fields.h"
#include "base/result.h"
#include "model/signal.h"

namespace allot {

// An absolute http:// or https:// URL with a host (no spaces, no fragment).
bool is_http_url(std::string_view text);

Result<Signal> decode_signal(ObjectMeta meta, const Field& spec);

}  // namespace allot
