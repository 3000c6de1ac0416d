#include "backends/slurm/script_slots.h"

#include <utility>

namespace allot::slurm {

std::string ScriptSlots::take() {
  MutexLock lock(mu_);
  if (free_.empty()) return dir_ + "/submit-" + std::to_string(next_++) + ".sbatch";
  std::string path = std::move(free_.back());
  free_.pop_back();
  return path;
}

void ScriptSlots::give_back(std::string path) {
  MutexLock lock(mu_);
  free_.push_back(std::move(path));
}

}  // namespace allot::slurm
