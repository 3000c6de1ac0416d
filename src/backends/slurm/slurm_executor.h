// SlurmExecutor: the Executor port on a real Slurm (issue 13, item 3). Each
// admitted workload becomes one Slurm job through `sbatch` (slurm_jobs.h:
// placement as --nodelist, the team's account, the class's QoS, typed GRES);
// its pods are the job's tasks. Submit, cancel/signal and the batched state
// poll go through a SlurmTransport (slurm_transport.h): the commands,
// libslurm or slurmrestd (set_transport()); the users' associations, KillWait
// and sacct stay with the commands. With
// `submit.mode` SubmitMode::kAllocation each job is a salloc allocation
// running the workload as an srun step (slurm_jobs.h), started inside the
// request; it is always submitted through the commands (slurmrestd v0.0.38
// has no allocation), and everything below applies to it as to a batch job.
//
// Contract (beyond executor.h's):
// - launch() queues the workload; `submitters` threads submit it (writing
//   its batch script for sbatch; libslurm and slurmrestd send its text, no
//   file) so that a cycle's admissions reach Slurm in parallel, not one
//   after another; a refused submission (unknown account, QoS, node...)
//   reports every pod kExited 127 with Slurm's words as launch_error. A submission that did not
//   reach Slurm (slurmrestd or slurmctld unreachable, a refused token: the transport's
//   kUnavailable) is never lost: the workload stays pending, its view says NOT_SUBMITTED with the
//   reason, and it is submitted again every `submit_retry`, after looking for a job of its name in
//   Slurm (one the failed call made after all is adopted, never submitted twice). A job of this
//   workload that Slurm already runs or holds (found by its job name at start(), e.g. before allotd
//   restarted) is adopted instead of submitted again. A launch with `resume_since` (executor.h:
//   allotd stopped before it stored the run's job id) first asks slurmctld (squeue, which
//   holds ended jobs for MinJobAge), then sacct, for a job of its name submitted since then,
//   whatever its state: one found is taken over as a `resume_job` is (its
//   end reported as the run's; counted adopted), never submitted again. Both unreachable or
//   answering none: the run is submitted.
// - Identity: with `owner_of`, each job runs as the Unix account it names
//   for the launch (the team's, or its submitting user's within the team):
//   before its first sbatch for an (account, user) pair the executor makes
//   sure Slurm has that user's association under the team's account
//   (`sacctmgr add user`, then waiting up to 10 s until slurmctld has it:
//   `scontrol show assoc_mgr`, with the account's uid: slurmctld resolves a
//   user's uid once, so an association left from a Unix account of the same
//   name that was deleted and made again, with another uid, refuses every
//   sbatch --uid as "Invalid account"; such a Slurm user is deleted and added
//   again), and the job's log files are created owned by the
//   account, 0600 (slurmd opens them as the job's user; no other team reads
//   them). An account that cannot be resolved is a launch error: the job is
//   never submitted as allotd's user instead. Without `owner_of`, jobs run as
//   allotd's user.
// - One poll thread asks Slurm about every job in ONE `squeue` call per
//   interval (and one `sacct` call for the jobs squeue no longer shows):
//   kRunning for every pod once the job runs, kExited for every pod once it
//   ended, with the job's exit status. A job Slurm lost (NODE_FAIL, or known
//   to neither squeue nor sacct for `lost_after` polls) ends with signal 9.
// - Poll cadence: `poll_interval` after the previous poll; `fast_poll_interval`
//   instead (when shorter and not 0) until `fast_poll_for` after the last time
//   allot had to wait on Slurm or saw work turn over: a submission answered, a
//   stop or a kill sent, a poll that reported a job started or ended. Such an
//   event ends the poll thread's current rest early, so a stopped victim's end
//   or the end of a job in a stream of short ones is seen within about
//   `fast_poll_interval`, not at the next tick (each seen end lets allot admit
//   the next workload at once); a quiet cluster is polled at `poll_interval`.
//   poll_delay() says which applies now (on the injected clock).
// - Placement: when a job is first seen running, Slurm's NodeList is
//   compared with the nodes allot placed it on (node_list.h). A difference
//   is accepted and recorded, not requeued: a warning is logged ("Slurm runs
//   a job on other nodes than allot placed it on") and the job's view names
//   allot's placement beside Slurm's nodes (placed_nodes; allotd records an
//   event). Slurm still never oversubscribes a node, a failure of the node
//   Slurm chose still ends the job NODE_FAIL (lost, requeued), and a requeue
//   would kill work that runs correctly, again and again when the
//   difference is systematic (a node Slurm names otherwise, a node unknown
//   to the slurmrestd path's exclude_nodes).
// - Slurm's own requeue: a job already reported running that Slurm shows
//   pending again (requeued by Slurm or an admin; allot submits with
//   --no-requeue) is cancelled and its pods reported lost (PodEvent.lost),
//   as a NODE_FAIL is: allot requeues the workload and places it again.
// - Orphans: a live job with this executor's name prefix that it does not
//   know (a job found at start() that no launch claimed within
//   `adopt_within` on the injected clock, e.g. its workload was deleted
//   while allotd was down; a second job of one workload) is cancelled and
//   logged (warn, "cancelling an orphaned Slurm job"). A job whose sbatch
//   has not answered yet is never taken for one. Every poll lists Slurm's
//   jobs, even when the executor runs none, so that orphans are found.
// - stop(): a pending job is cancelled at once. A running one whose grace
//   fits in Slurm's KillWait (read at start()) is cancelled at once with
//   `scancel` (Slurm records it CANCELLED and sends SIGTERM, SIGKILL after
//   KillWait); a longer grace starts with SIGTERM alone (`scancel
//   --signal=TERM --full`). Once `grace` passed on the injected clock, a job
//   still there gets `scancel` and `scancel --signal=KILL --full`. Its pods
//   are reported with stopped = true. A workload still queued for sbatch is
//   dropped (reported exited, stopped, never running); one being submitted
//   is cancelled as soon as sbatch answered.
// - hand_over(): sbatch at once, on the caller's thread, with the launch's
//   placement and `--dependency=afterany:` on the jobs of `after` (false,
//   nothing submitted, when one of them has no live job here or the
//   workload already has a job, or when sbatch fails). The handed-over job
//   is known (never an orphan) but reported nothing; launch() of the
//   workload on the same nodes takes it over as an adopted job (reported
//   running at the next poll once Slurm runs it, perhaps already); on other
//   nodes it is cancelled and the launch queued as any other. withdraw() or
//   stop() cancels it (never then logged as an orphan while Slurm still
//   lists it). A handed-over job that ended on its own (Slurm ran
//   it when the jobs it followed ended) stays handed over: its launch takes
//   it over and reports its run, so the workload never runs twice; one
//   that Slurm no longer lists is asked of sacct, as a launched job is. One
//   cancelled around allot, or that neither squeue (from the first listing
//   begun after its sbatch answered) nor sacct finds for `lost_after` polls,
//   is forgotten: the launch submits afresh. After a restart,
//   a handed-over job found at start() is adopted by its launch as any job
//   of the workload's name, or cancelled as an orphan after `adopt_within`.
// - read_log(): the pod's task output (`<log_dir>/<id>-<pod>.log`), which
//   slurmd writes on the node (shared or local storage).
// - slurm_view() says what Slurm says of a workload's job (views), as of the
//   last poll (one squeue for every job), and of the last ended job of a
//   workload (its final state from squeue or sacct; the newest 4,096 ended
//   jobs are kept); backend_job() is the same in the port's terms (kind
//   "slurm"). nullopt for a workload without a job here.
// - The sink hears of a job before its pods run (on_backend_job()): when
//   sbatch answered with its id, when a job is adopted, and when a poll finds
//   a pending job's state or reason changed; so a workload's job id is known
//   while Slurm still holds the job pending.
// - An allocation's salloc (SubmitMode::kAllocation; salloc_process.h): the
//   launcher names its pid and start time with the job id, and the executor
//   keeps them per job, whether the job was launched or handed over. Once a
//   poll finds the job ended (a final state, or not listed by `lost_after`
//   polls in a row that began after the submission answered), a salloc
//   still running gets SIGTERM, and SIGKILL `salloc_grace` later (injected
//   clock) if it still runs (each logged, warn): Slurm 22.05's salloc may
//   outlive an allocation cancelled as it was granted, spinning on a CPU
//   and ignoring SIGTERM.
//   Never before Slurm reports the end (salloc ending releases the
//   allocation, which would cut a stop's grace or Slurm's KillWait short),
//   and never a process that is no longer that salloc (a pid reused: its
//   start time differs). A salloc already gone is forgotten unsignalled.
//   The sallocs started before allotd restarted (jobs it adopts, and jobs
//   that ended meanwhile) are found at start() by the job name they were
//   started with (running_sallocs(): this host's processes named "salloc"
//   with an argument `--job-name=` of this executor's prefix, for a job that
//   Slurm lists then: another allotd's on this host, for another cluster,
//   is never taken) and kept by that name: each poll judges one by the job
//   of that name it lists (a live one first, so a live job's salloc is never
//   signalled), and one whose name no listing holds any more from
//   `lost_after` polls in a row as ended. A name that several sallocs claim
//   is not watched (logged, warn); nor is the salloc of a job Slurm no
//   longer listed at the restart.
// - Thread-safe. Events are delivered with no lock held.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "backends/executor.h"
#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_jobs.h"
#include "backends/slurm/slurm_transport.h"
#include "base/clock.h"
#include "base/logger.h"
#include "base/mutex.h"

namespace allot::slurm {

struct SlurmExecutorOptions {
  SubmitSettings submit;  // log_dir is required; created when missing
  PodEventSink* sink = nullptr;
  Duration poll_interval = Duration::millis(500);
  // The cadence while allot waits on Slurm or work turns over (see the
  // contract); 0: always poll_interval.
  Duration fast_poll_interval = Duration::millis(100);
  Duration fast_poll_for = Duration::seconds(2);
  int lost_after = 10;  // polls a job may be missing from squeue and sacct
  int submitters = 4;   // threads running sbatch
  // Whose Unix account each job runs as (see the contract); unset: allotd's.
  std::function<Result<JobOwner>(const WorkloadLaunch&)> owner_of;
  // How long a job found at start() waits for its workload's launch before
  // it is an orphan.
  Duration adopt_within = Duration::seconds(120);
  Logger* logger = nullptr;  // orphans, Slurm's requeues; null: not logged
  // How long a submission that did not reach Slurm waits before the next try.
  Duration submit_retry = Duration::seconds(5);
  // Between SIGTERM and SIGKILL to a salloc that outlives its job (see the contract).
  Duration salloc_grace = Duration::seconds(2);
};

// What Slurm says of one workload's job.
struct SlurmJobView {
  std::string job_id;
  std::string state;
  std::string reason;
  std::string nodes;
  std::string placed_nodes;  // allot's placement when Slurm ran it elsewhere (node_list.h)
};

class SlurmExecutor final : public Executor {
 public:
  SlurmExecutor(CommandRunner& runner, const Clock& clock, SlurmExecutorOptions options);
  ~SlurmExecutor() override;
  SlurmExecutor(const SlurmExecutor&) = delete;
  SlurmExecutor& operator=(const SlurmExecutor&) = delete;

  // Sets options.owner_of; only before start().
  void set_owner_of(std::function<Result<JobOwner>(const WorkloadLaunch&)> owner_of) {
    options_.owner_of = std::move(owner_of);
  }
  // Finds allot's jobs already in Slurm (to adopt) and starts polling.
  Status start();
  void shutdown();

  void launch(const WorkloadLaunch& launch) override;
  void stop(WorkloadId workload, Duration grace) override;
  bool hand_over(const WorkloadLaunch& launch, const std::vector<WorkloadId>& after) override;
  void withdraw(WorkloadId workload) override;
  Result<std::string> read_log(PodId pod, int64_t offset, int64_t max_bytes) override;
  [[nodiscard]] std::string log_location(PodId pod) const override;
  [[nodiscard]] std::optional<BackendJob> backend_job(WorkloadId workload) const override;
  // One `sacct -a -S now-7days` (TZ=UTC) for this executor's jobs that ran.
  Result<std::vector<BackendJobRecord>> accounted_jobs() override;
  // One `sreport cluster AccountUtilizationByUser` (TZ=UTC) for the site's
  // cluster (sreport_usage.h); kFailedPrecondition before set_site().
  Result<BackendUsage> account_usage(Timestamp from, Timestamp to) override;

  // Where jobs go and how GPUs are asked (the Cluster's spec.slurm, the
  // policy's flavors): set when the policy is carried into Slurm.
  void set_site(std::string cluster, std::string partition, bool typed_gres);
  // How jobs reach Slurm from now on (null: the commands); the jobs already
  // known are kept.
  void set_transport(std::shared_ptr<SlurmTransport> transport);
  [[nodiscard]] std::string transport_name() const;
  [[nodiscard]] std::optional<SlurmJobView> slurm_view(WorkloadId workload) const;
  // Runs one poll now (tests; the thread does it every interval).
  void poll_once();
  // How long the poll thread rests after a poll now: poll_interval or
  // fast_poll_interval (the contract's cadence).
  [[nodiscard]] Duration poll_delay() const;
  // How many jobs were adopted rather than submitted (tests, logs).
  [[nodiscard]] int64_t adopted() const { return adopted_.load(); }
  [[nodiscard]] int64_t submitted() const { return submitted_.load(); }

 private:
  struct Job {
    std::string id;
    int32_t pods = 0;
    bool running_reported = false;
    bool stopping = false;
    std::optional<Timestamp> kill_at;
    int missing_polls = 0;
    SlurmJob last;
    std::vector<std::string> placed;  // the nodes allot placed it on
    std::string misplaced;            // allot's placement when Slurm ran it elsewhere
  };
  // A launch whose submission did not reach Slurm (kUnavailable): retried.
  struct Unsubmitted {
    WorkloadLaunch launch;
    std::string reason;
    Timestamp retry_at;
    bool queued = false;  // back in queue_ (or being submitted)
  };
  struct Report {
    WorkloadId workload;
    int32_t pods = 0;
    PodEvent event;
  };

  // An allocation's salloc, until it is gone (see the contract).
  struct Salloc {
    SallocProcess process;
    std::string job_name;              // kept by its job's name (found at start); else by id
    uint64_t listed_from = 0;          // the first poll whose listing holds its job
    int missing_polls = 0;             // listings since then without it, in a row
    std::optional<Timestamp> kill_at;  // SIGTERM sent; SIGKILL then
  };
  // A job handed over ahead of its launch (hand_over()).
  struct Handed {
    std::string id;
    std::vector<std::string> placed;  // the nodes it is pinned to
    uint64_t listed_from = 0;         // the first poll whose listing holds its job
    SlurmJob last;                    // what the last listing (or sacct) said of it
    int missing_polls = 0;            // polls since then that found it nowhere, in a row
  };

  Result<std::string> submit(const WorkloadLaunch& launch,
                             const std::vector<std::string>& after = {});
  // The handed-over job of `workload`, cancelled and forgotten; false when none.
  bool drop_handed(WorkloadId workload);
  // The launch's handed-over job, on its nodes, made its job; false when none.
  bool take_over_handed(const WorkloadLaunch& launch);
  Result<std::optional<JobOwner>> prepare_owner(const WorkloadLaunch& launch);
  Status ensure_association(const std::string& account, const JobOwner& owner);
  // What slurmctld (not only slurmdbd) has of the user's association.
  enum class Known { kNo, kYes, kOtherUid };
  Known controller_knows(const std::string& account, const JobOwner& owner);
  void submit_loop();
  std::optional<Report> drop_queued(WorkloadId workload) ALLOT_REQUIRES(mu_);
  std::optional<CancelKind> stop_command(Job& job, Duration grace) ALLOT_REQUIRES(mu_);
  std::shared_ptr<SlurmTransport> transport() const;
  // A live job of this workload's name in Slurm (a submission that failed
  // after all reached it): its id.
  std::optional<std::string> submitted_after_all(WorkloadId workload);
  // The latest job of this workload's name submitted since launch.resume_since
  // (the interrupted run's, whose id allotd never stored): squeue's, else sacct's.
  std::optional<std::string> job_of_interrupted_run(const WorkloadLaunch& launch);
  void requeue_due_retries() ALLOT_REQUIRES(mu_);
  void submitted_one(const WorkloadLaunch& launch, const Result<std::string>& id);
  void report(const std::vector<Report>& reports);
  void ended(WorkloadId workload, const Job& job, const JobExit& exit, std::vector<Report>& reports)
      ALLOT_REQUIRES(mu_);
  void observe(const std::map<std::string, SlurmJob>& seen, std::vector<std::string>& vanished,
               std::vector<std::string>& requeued, std::vector<Report>& reports)
      ALLOT_REQUIRES(mu_);
  // The jobs of allot's name prefix in `seen` (the listing of poll number
  // `listing`, by id) that nothing here knows and that are not ended.
  std::vector<SlurmJob> orphans(const std::map<std::string, SlurmJob>& seen, uint64_t listing)
      ALLOT_REQUIRES(mu_);
  // Brings the handed-over jobs up to date with listing number `listing`;
  // forgets those cancelled around allot (see the contract). `unlisted`: the
  // ids of those the listing should hold and does not, not seen ending yet.
  void update_handovers(const std::map<std::string, SlurmJob>& seen, uint64_t listing,
                        std::vector<std::string>& unlisted) ALLOT_REQUIRES(mu_);
  // The `unlisted` handed-over jobs judged by sacct's `accounted`: kept when
  // it shows them ended on their own, forgotten when cancelled or after
  // `lost_after` polls that find them nowhere.
  void settle_unlisted_handovers(const std::vector<std::string>& unlisted,
                                 const std::map<std::string, SlurmJob>& accounted)
      ALLOT_REQUIRES(mu_);
  // sacct on the jobs of `vanished` and `unlisted`, then both settled.
  void settle_through_sacct(const std::vector<std::string>& vanished,
                            const std::vector<std::string>& unlisted, std::vector<Report>& reports)
      ALLOT_EXCLUDES(mu_);
  void cancel_strays(const std::vector<std::string>& requeued,
                     const std::vector<SlurmJob>& orphaned);
  void settle_vanished(const std::vector<std::string>& vanished,
                       const std::map<std::string, SlurmJob>& accounted,
                       std::vector<Report>& reports) ALLOT_REQUIRES(mu_);
  std::vector<std::string> due_kills() ALLOT_REQUIRES(mu_);
  void cancel_quietly(const std::string& job_id, CancelKind kind);
  void track_salloc(const std::string& job_id, const SallocProcess& process);
  // At start: the sallocs this host runs for jobs of this executor's prefix
  // that Slurm lists (`listed`: the names of its jobs).
  void watch_running_sallocs(const std::set<std::string>& listed);
  // Signals the sallocs of jobs that `seen` (poll number `listing`) shows
  // ended; no lock held.
  void end_sallocs(const std::map<std::string, SlurmJob>& seen, uint64_t listing);
  void announce_job(WorkloadId workload);  // to the sink; no lock held
  // A job seen running for the first time: on the nodes allot placed it on?
  void check_placement(WorkloadId workload, Job& job) ALLOT_REQUIRES(mu_);
  // Polls at the fast cadence until fast_poll_for from now.
  void hurry() ALLOT_REQUIRES(mu_);
  [[nodiscard]] Duration poll_delay_locked() const ALLOT_REQUIRES(mu_);
  void loop();

  CommandRunner& runner_;
  const Clock& clock_;
  std::shared_ptr<CommandTransport> commands_;
  SlurmExecutorOptions options_;
  mutable Mutex mu_;
  std::shared_ptr<SlurmTransport> transport_ ALLOT_GUARDED_BY(mu_);
  std::string cluster_ ALLOT_GUARDED_BY(mu_);
  std::string partition_ ALLOT_GUARDED_BY(mu_);
  bool typed_gres_ ALLOT_GUARDED_BY(mu_) = true;
  Duration kill_wait_ ALLOT_GUARDED_BY(mu_);  // Slurm's KillWait; 0 when unknown
  std::map<WorkloadId, Job> jobs_ ALLOT_GUARDED_BY(mu_);
  std::map<WorkloadId, SlurmJob> adoptable_ ALLOT_GUARDED_BY(mu_);
  std::map<WorkloadId, Handed> handed_ ALLOT_GUARDED_BY(mu_);
  // Handed-over jobs allot cancelled (withdrawn, stopped, launched elsewhere),
  // by id, with the first poll whose listing is sure to follow the cancel:
  // not orphans until such a listing shows them ended or no longer holds them.
  std::map<std::string, uint64_t> dropped_ ALLOT_GUARDED_BY(mu_);
  std::map<std::string, Salloc> sallocs_ ALLOT_GUARDED_BY(mu_);  // by job id
  uint64_t listings_ ALLOT_GUARDED_BY(mu_) = 0;  // polls that listed Slurm's jobs so far
  // The last view of ended jobs (slurm_view of a finished workload), the
  // newest kMaxEnded of them.
  std::map<WorkloadId, SlurmJobView> ended_ ALLOT_GUARDED_BY(mu_);
  std::deque<WorkloadId> ended_order_ ALLOT_GUARDED_BY(mu_);
  // Pending jobs whose state or reason the last observe() found changed.
  std::vector<WorkloadId> changed_ ALLOT_GUARDED_BY(mu_);
  Timestamp adopt_until_ ALLOT_GUARDED_BY(mu_);
  Timestamp fast_until_ ALLOT_GUARDED_BY(mu_);  // poll at the fast cadence until then
  bool stopping_ ALLOT_GUARDED_BY(mu_) = false;
  CondVar wake_;
  std::deque<WorkloadLaunch> queue_ ALLOT_GUARDED_BY(mu_);
  std::set<WorkloadId> submitting_ ALLOT_GUARDED_BY(mu_);
  std::set<WorkloadId> cancel_on_submit_ ALLOT_GUARDED_BY(mu_);
  // Whose submission found the interrupted run's job instead (counted adopted).
  std::set<WorkloadId> taken_over_ ALLOT_GUARDED_BY(mu_);
  std::map<WorkloadId, Unsubmitted> unsubmitted_ ALLOT_GUARDED_BY(mu_);
  // (account, user) pairs known to have their association in Slurm.
  std::set<std::pair<std::string, std::string>> associated_ ALLOT_GUARDED_BY(mu_);
  CondVar queued_;
  Mutex poll_mu_;  // one poll at a time
  std::atomic<int64_t> adopted_{0};
  std::atomic<int64_t> submitted_{0};
  std::thread thread_;
  std::vector<std::thread> submitters_;
};

}  // namespace allot::slurm
