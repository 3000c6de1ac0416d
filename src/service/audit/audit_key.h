// The audit log's Ed25519 checkpoint key on disk (docs/governance.md).
//
// Contract: load_or_create_audit_key(secret_path) reads the secret key file
// (128 hex digits and a newline) or, when it does not exist, generates a key
// pair and writes it with mode 0600 (created exclusively: two processes
// never both create one), and writes the public key next to it
// (`<secret_path>.pub`, 0644, 64 hex digits) every time, so that the public
// file always matches. A secret key file readable by group or others is
// refused. read_audit_public_key() reads a public key file (or a secret key
// file, from which it derives the public key). Nothing here logs a key.
#pragma once

#include <string>

#include "base/result.h"
#include "identity/credentials/signing_key.h"

namespace allot::audit {

Result<identity::SigningKey> load_or_create_audit_key(const std::string& secret_path);
// The 32 raw bytes of the public key in `path`.
Result<std::string> read_audit_public_key(const std::string& path);

}  // namespace allot::audit
