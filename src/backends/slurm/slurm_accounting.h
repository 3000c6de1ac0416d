// SlurmAccounting: what Slurm's accounting database holds that allot's policy
// sync manages (account associations, user associations, QoS), as value
// types, and the parsers of `sacctmgr -n -P show ...` output into them.
//
// Contract: the parsers are pure. They read exactly the formats named by
// kAssociationFormat and kQosFormat (pipe-separated, no header); a line with
// the wrong number of fields, or a TRES amount that is not a number, is
// kInvalidArgument naming the line. TRES lists are normalised: names as Slurm
// writes them (`cpu`, `mem`, `gres/gpu`, `gres/gpu:h100`), memory in MiB
// whatever suffix Slurm printed (M, G, T), lists (QoS, preempt) sorted.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace allot::slurm {

// TRES name -> amount (cpu: CPUs; mem: MiB; gres/gpu...: GPUs).
using TresMap = std::map<std::string, int64_t>;

// One association: an account's (user empty) or a user's under an account.
struct SlurmAssociation {
  std::string account;
  std::string user;    // empty: the account's own association
  std::string parent;  // the parent account (account associations only)
  int64_t fairshare = 1;
  TresMap grp_tres;
  std::vector<std::string> qos;  // sorted
  std::string default_qos;

  friend bool operator==(const SlurmAssociation&, const SlurmAssociation&) = default;
};

struct SlurmQos {
  std::string name;
  int64_t priority = 0;
  std::vector<std::string> preempt;  // the QoS it may preempt, sorted
  std::string preempt_mode;          // lower case: "requeue", "cancel", "cluster"...
  std::string description;

  friend bool operator==(const SlurmQos&, const SlurmQos&) = default;
};

struct SlurmAccounting {
  std::vector<SlurmAssociation> associations;
  std::vector<SlurmQos> qos;

  friend bool operator==(const SlurmAccounting&, const SlurmAccounting&) = default;
};

// `sacctmgr -n -P show assoc where cluster=C format=<this>`
inline constexpr std::string_view kAssociationFormat =
    "account,user,parentname,fairshare,grptres,qos,defaultqos";
// `sacctmgr -n -P show qos format=<this>`
inline constexpr std::string_view kQosFormat = "name,priority,preempt,preemptmode,description";

Result<std::vector<SlurmAssociation>> parse_associations(std::string_view output);
Result<std::vector<SlurmQos>> parse_qos(std::string_view output);

// "cpu=64,gres/gpu:h100=12,mem=1000M" -> {cpu: 64, gres/gpu:h100: 12, mem: 1000}.
Result<TresMap> parse_tres(std::string_view text);
// The inverse, in name order: what sacctmgr's GrpTRES= takes.
std::string format_tres(const TresMap& tres);

}  // namespace allot::slurm
