#include "cli/verbs/cancel_command.h"

#include "cli/verbs/workload_action_command.h"

namespace allot::cli {

std::unique_ptr<Command> make_cancel_command() {
  return make_workload_action_command("cancel", "cancelled");
}

}  // namespace allot::cli
