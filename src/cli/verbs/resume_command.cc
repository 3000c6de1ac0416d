#include "cli/verbs/resume_command.h"

#include "cli/verbs/workload_action_command.h"

namespace allot::cli {

std::unique_ptr<Command> make_resume_command() {
  return make_workload_action_command("resume", "resumed");
}

}  // namespace allot::cli
