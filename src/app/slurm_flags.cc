#include "app/slurm_flags.h"

#include <CLI/CLI.hpp>

namespace allot::app {

void add_slurm_flags(CLI::App& app, SlurmFlags& slurm) {
  app.add_option("--slurm-conf", slurm.conf,
                 "slurm.conf of the Slurm cluster (default: $SLURM_CONF, else Slurm's own)");
  app.add_option("--slurm-poll", slurm.poll,
                 "time between the Slurm executor's squeue polls (one call for every job)")
      ->capture_default_str();
  app.add_option("--slurm-fast-poll", slurm.fast_poll,
                 "time between those polls while the executor waits on Slurm or jobs turn over "
                 "(a submission, a stop, a job seen starting or ending: for 2 s), e.g. 100ms; "
                 "0s: never; off with --slurm-rest-poll rest")
      ->capture_default_str();
  app.add_option("--slurm-submit", slurm.submit,
                 "how jobs are asked of Slurm: batch (sbatch; Slurm starts them at its next "
                 "scheduling pass) or allocation (salloc + srun: started inside the request when "
                 "the nodes are free; one salloc and one srun process per running job on this "
                 "host; always through the commands; docs/slurm.md)")
      ->check(CLI::IsMember({"batch", "allocation"}))
      ->capture_default_str();
  app.add_option("--slurm-transport", slurm.transport,
                 "how jobs reach slurmctld when the Cluster names no slurmrestd: libslurm "
                 "(Slurm's C API in allotd: the RPCs sbatch, scancel and squeue make, without a "
                 "process each) or commands (sbatch, scancel, squeue; docs/slurm.md)")
      ->check(CLI::IsMember({"libslurm", "commands"}))
      ->capture_default_str();
  app.add_option("--slurm-turnover-handovers", slurm.turnover_handovers,
                 "on: each team's next jobs wait in Slurm behind its running ones "
                 "(--dependency=afterany) and start at their end, as a queued job of the site's "
                 "would; off: a job is submitted once allot has seen the capacity free "
                 "(docs/slurm.md, Turnover)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  app.add_option("--slurm-rest-token-file", slurm.rest_token_file,
                 "slurmrestd's JWT for allotd's user, used when the Cluster's spec.slurm.rest "
                 "names slurmrestd (mint one: scontrol token username=USER lifespan=SECONDS; "
                 "default: $SLURM_JWT); never logged");
  app.add_option("--slurm-rest-user", slurm.rest_user,
                 "whose token --slurm-rest-token-file is (default: allotd's user)");
  app.add_option("--slurm-rest-poll", slurm.rest_poll,
                 "how the jobs' states are polled when the Cluster names slurmrestd: squeue (one "
                 "binary RPC) or rest (GET /jobs: every field of every job slurmctld holds, as "
                 "JSON; several times squeue's cost)")
      ->check(CLI::IsMember({"squeue", "rest"}))
      ->capture_default_str();
  app.add_option("--slurm-reconcile", slurm.reconcile,
                 "time between reconciliations of metering with Slurm's accounting (sacct; "
                 "docs/cost.md)")
      ->capture_default_str();
}

}  // namespace allot::app
