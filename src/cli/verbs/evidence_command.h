// `allot evidence export --project P [--from T --to T] --out DIR`: a
// project's evidence report from GET /api/v1/evidence (docs/governance.md):
// DIR/evidence.json (the answer's bytes as they came), DIR/evidence.json.sig
// (the Ed25519 signature, hex, of those bytes with the audit log's key, from
// the X-Allot-Evidence-Signature header), and history.csv, exceptions.csv,
// bindings.csv, usage.csv and evidence.html rendered from it
// (api/evidence_report.h), and SHA256SUMS, the SHA-256 of those six files,
// with SHA256SUMS.sig, allotd's signature of it (the
// X-Allot-Evidence-Manifest-Signature header). allotd renders the same files
// and sends their hashes (X-Allot-Evidence-Manifest: NAME=HEX,...): a file
// this allot renders otherwise (another version) fails the export, naming
// it, before anything is written. DIR is made when missing; existing files
// of those names are replaced. Exit 0, or the error's code.
//
// `allot evidence verify DIR --key K`: offline, whether DIR/evidence.json.sig
// is the signature of DIR/evidence.json's bytes and DIR/SHA256SUMS.sig that
// of DIR/SHA256SUMS by the key in K (the audit log's public key file,
// DATA/audit-key.pub, or its secret key file, as `allot audit verify
// --key`), and every file SHA256SUMS lists (evidence.json among them) has
// its SHA-256. Exit 0 verified, 1 not (any byte of any file changed, the
// file named), 2 when a file cannot be read.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_evidence_command();

}  // namespace allot::cli
