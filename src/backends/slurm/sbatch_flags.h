// sbatch's argv read back as flags (issue 13): the transports that do not run
// sbatch (slurmrestd, libslurm) turn slurm_jobs.h's submission into their own
// job description from the same argv, so that one function decides what a
// job asks of Slurm. Pure: no I/O.
//
// Contract:
// - sbatch_flags() returns every "--name=value" (value empty for "--name")
//   of argv after argv[0], in order; script_path_of() the last argument that
//   is not a flag (the batch script's path), empty when none.
// - sbatch_flag_number() reads a flag's value as a whole number, or
//   kInvalidArgument naming the flag and the value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace allot::slurm {

struct SbatchFlag {
  std::string name;   // without the leading "--"
  std::string value;  // empty for a flag without "="
};

std::vector<SbatchFlag> sbatch_flags(const std::vector<std::string>& argv);
std::string script_path_of(const std::vector<std::string>& argv);
Result<int64_t> sbatch_flag_number(std::string_view flag, std::string_view value);

}  // namespace allot::slurm
