// kubectl's ExecCredential (client.authentication.k8s.io/v1): what `allot
// auth token --exec-credential` prints so that kubectl (a kubeconfig user
// with `exec: {command: allot, args: [auth, token, --exec-credential]}`)
// sends the same session as the allot CLI.
//
// Contract: the object has apiVersion, kind, and status with the token and
// its expirationTimestamp (RFC 3339, UTC), after which kubectl runs the
// command again rather than send an expired token. Pure.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "base/time.h"

namespace allot::cli {

inline constexpr char kExecCredentialApiVersion[] = "client.authentication.k8s.io/v1";

nlohmann::json exec_credential(const std::string& token, Timestamp expires_at);

}  // namespace allot::cli
