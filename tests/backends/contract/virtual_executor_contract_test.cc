// The Executor contract run against the simulator's virtual executor. It runs
// no processes, so the work model below says what each command of the
// contract's cases does, as the real processes of the local run do it.
#include <memory>
#include <string>
#include <vector>

#include "backends/sim/virtual_executor.h"
#include "contract/executor_contract.h"

namespace allot::testing {
namespace {

VirtualWork contract_commands(const WorkloadLaunch& launch) {
  const std::vector<std::string>& command = launch.command;
  VirtualWork work;  // /bin/true: done at once, exit 0
  if (command.empty()) {
    work.launch_error = "no command to run";
  } else if (command == std::vector<std::string>{"/bin/sh", "-c", "exit 3"}) {
    work.exit_code = 3;
  } else if (command.size() == 2 && command[0] == "/bin/sleep") {
    work.runtime = Duration::seconds(std::stoll(command[1]));
  }
  return work;
}

ExecutorUnderTest make_virtual_executor(PodEventSink& sink) {
  auto executor = std::make_shared<sim::VirtualExecutor>(sink, &contract_commands);
  SteppedExecutor* stepped = executor.get();
  ExecutorUnderTest made;
  made.keep_alive = executor;
  made.executor = stepped;
  made.settle = [stepped] {
    while (stepped->next_event_time() != Timestamp::infinite_future()) {
      stepped->advance_to(stepped->next_event_time());
    }
  };
  return made;
}

INSTANTIATE_TEST_SUITE_P(Virtual, ExecutorContract, ::testing::Values(&make_virtual_executor));

}  // namespace
}  // namespace allot::testing
