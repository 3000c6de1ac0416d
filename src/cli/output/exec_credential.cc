#include "cli/output/exec_credential.h"

#include "api/rfc3339.h"

namespace allot::cli {

nlohmann::json exec_credential(const std::string& token, Timestamp expires_at) {
  return {{"apiVersion", kExecCredentialApiVersion},
          {"kind", "ExecCredential"},
          {"status", {{"token", token}, {"expirationTimestamp", format_rfc3339(expires_at)}}}};
}

}  // namespace allot::cli
