// The Executor contract run against the local executor (real processes, as
// the current user, without cgroups).
#include <memory>

#include "backends/local/local_executor.h"
#include "contract/executor_contract.h"
#include "local/scratch.h"

namespace allot::testing {
namespace {

ExecutorUnderTest make_local_executor(PodEventSink& sink) {
  struct Made {
    local::testing::ScratchDir scratch;
    std::unique_ptr<local::LocalExecutor> executor;
  };
  auto made = std::make_shared<Made>();
  local::LocalExecutorOptions options;
  options.data_dir = made->scratch.data_dir();
  options.sink = &sink;
  options.run_as_team_users = false;
  options.use_cgroups = false;
  options.gpus = std::vector<local::GpuDevice>{};
  made->executor = std::make_unique<local::LocalExecutor>(options);
  Executor* executor = made->executor.get();
  return {std::move(made), executor, {}};
}

INSTANTIATE_TEST_SUITE_P(Local, ExecutorContract, ::testing::Values(&make_local_executor));

}  // namespace
}  // namespace allot::testing
