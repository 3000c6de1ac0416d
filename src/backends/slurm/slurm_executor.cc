// SlurmExecutor: launching workloads as Slurm jobs (submission with retries
// and adoption, the team's account and association), stopping them, and the
// poll loop. What one poll reconciles is slurm_executor_poll.cc, the read side
// slurm_executor_views.cc; the contract is slurm_executor.h.
#include "backends/slurm/slurm_executor.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/slurm/sacct_usage.h"

namespace allot::slurm {
namespace {

constexpr size_t kMaxEnded = 4096;  // ended jobs whose last view slurm_view() keeps

// The distinct nodes allot placed the launch's pods on.
std::vector<std::string> nodes_of(const WorkloadLaunch& launch) {
  std::vector<std::string> nodes;
  for (const PlacedPod& pod : launch.pods) nodes.push_back(pod.node.str());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

// Writes the batch script readable by root alone from its creation (it holds
// the workload's env): 0600, not following a link planted at its path.
Status write_script(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  bool written = fd >= 0 && ::fchmod(fd, 0600) == 0;
  for (size_t done = 0; written && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) done += static_cast<size_t>(n);
  }
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!written) {
    return Status(ErrorCode::kInternal,
                  "cannot write the batch script " + path + ": " + std::strerror(error));
  }
  return Status::ok_status();
}

// Creates (or takes over) a log file for the job's account: 0600, its own.
Status prepare_owned_log(const std::string& path, const JobOwner& owner) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return Status(ErrorCode::kInternal,
                  "cannot create the job's log " + path + ": " + std::strerror(errno));
  }
  const bool owned = ::fchown(fd, owner.uid, owner.gid) == 0 && ::fchmod(fd, 0600) == 0;
  const int error = errno;
  ::close(fd);
  if (!owned) {
    return Status(ErrorCode::kInternal, "cannot give the job's log " + path + " to " + owner.user +
                                            ": " + std::strerror(error));
  }
  return Status::ok_status();
}

}  // namespace

SlurmExecutor::SlurmExecutor(CommandRunner& runner, const Clock& clock,
                             SlurmExecutorOptions options)
    : runner_(runner),
      clock_(clock),
      commands_(std::make_shared<CommandTransport>(runner)),
      options_(std::move(options)) {
  transport_ = commands_;
  partition_ = options_.submit.partition;
  typed_gres_ = options_.submit.typed_gres;
}

SlurmExecutor::~SlurmExecutor() { shutdown(); }

Status SlurmExecutor::start() {
  ::mkdir(options_.submit.log_dir.c_str(), 0755);
  ALLOT_ASSIGN_OR_RETURN(std::vector<SlurmJob> jobs, transport()->list_jobs());
  std::set<std::string> listed_names;  // before the jobs move into adoptable_
  for (const SlurmJob& job : jobs) listed_names.insert(job.name);
  const Result<CommandResult> config = runner_.run({"scontrol", "show", "config"});
  {
    MutexLock lock(mu_);
    if (config.ok() && config->succeeded())
      kill_wait_ = kill_wait_of(config->out).value_or(Duration());
    adopt_until_ = clock_.now() + options_.adopt_within;
    for (SlurmJob& job : jobs) {
      const auto workload = workload_of_job_name(options_.submit.job_prefix, job.name);
      if (workload && !is_final_job_state(job.state)) adoptable_[*workload] = std::move(job);
    }
  }
  if (options_.submit.mode == SubmitMode::kAllocation) watch_running_sallocs(listed_names);
  thread_ = std::thread([this] { loop(); });
  for (int i = 0; i < std::max(1, options_.submitters); ++i) {
    submitters_.emplace_back([this] { submit_loop(); });
  }
  return Status::ok_status();
}

void SlurmExecutor::shutdown() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  queued_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (std::thread& submitter : submitters_) submitter.join();
  submitters_.clear();
}

void SlurmExecutor::set_transport(std::shared_ptr<SlurmTransport> transport) {
  MutexLock lock(mu_);
  transport_ = transport ? std::move(transport) : commands_;
}

std::string SlurmExecutor::transport_name() const { return transport()->name(); }

std::shared_ptr<SlurmTransport> SlurmExecutor::transport() const {
  MutexLock lock(mu_);
  return transport_;
}

void SlurmExecutor::set_site(std::string cluster, std::string partition, bool typed_gres) {
  MutexLock lock(mu_);
  cluster_ = std::move(cluster);
  partition_ = std::move(partition);
  typed_gres_ = typed_gres;
}

Result<std::string> SlurmExecutor::submit(const WorkloadLaunch& launch,
                                          const std::vector<std::string>& after) {
  SubmitSettings settings = options_.submit;
  {
    MutexLock lock(mu_);
    settings.partition = partition_;
    settings.typed_gres = typed_gres_;
  }
  if (launch.resume_since && launch.resume_job.empty()) {
    if (std::optional<std::string> id = job_of_interrupted_run(launch)) {
      MutexLock lock(mu_);
      taken_over_.insert(launch.workload);
      return *id;
    }
  }
  const std::string script_path =
      options_.submit.log_dir + "/" + std::to_string(launch.workload.value()) + ".sbatch";
  ALLOT_ASSIGN_OR_RETURN(const std::optional<JobOwner> owner, prepare_owner(launch));
  ALLOT_ASSIGN_OR_RETURN(Submission submission,
                         submission_of(launch, settings, script_path, owner, after));
  bool retried = false;
  {
    MutexLock lock(mu_);
    retried = unsubmitted_.contains(launch.workload);
  }
  if (retried) {
    if (std::optional<std::string> id = submitted_after_all(launch.workload)) return *id;
  }
  // slurmrestd (v0.0.38) submits batch jobs only: an allocation goes through
  // salloc, its script in the environment (no file).
  if (settings.mode == SubmitMode::kAllocation) {
    ALLOT_ASSIGN_OR_RETURN(AllocationAnswer answer, commands_->allocate(submission));
    if (answer.salloc) track_salloc(answer.job_id, *answer.salloc);
    return answer.job_id;
  }
  const std::shared_ptr<SlurmTransport> way = transport();
  if (!way->reads_script_file()) return way->submit(submission, owner);  // the text travels
  ALLOT_RETURN_IF_ERROR(write_script(script_path, submission.script));
  Result<std::string> id = way->submit(submission, owner);
  ::unlink(script_path.c_str());  // sbatch has sent its text: it holds the workload's env
  return id;
}

Result<std::optional<JobOwner>> SlurmExecutor::prepare_owner(const WorkloadLaunch& launch) {
  if (!options_.owner_of) return std::optional<JobOwner>();
  Result<JobOwner> owner = options_.owner_of(launch);
  if (!owner.ok()) {
    return Status(owner.status().code(),
                  "no Unix account to run the job as: " + owner.status().message());
  }
  ALLOT_RETURN_IF_ERROR(ensure_association(launch.team.str(), *owner));
  for (const std::string& path : job_log_paths(launch, options_.submit.log_dir)) {
    ALLOT_RETURN_IF_ERROR(prepare_owned_log(path, *owner));
  }
  return std::optional<JobOwner>(*owner);
}

SlurmExecutor::Known SlurmExecutor::controller_knows(const std::string& account,
                                                     const JobOwner& owner) {
  const Result<CommandResult> shown =
      runner_.run({"scontrol", "show", "assoc_mgr", "users=" + owner.user, "accounts=" + account,
                   "flags=assoc"});
  if (!shown.ok() || !shown->succeeded()) return Known::kNo;
  // "UserName=NAME(UID)"; a uid Slurm could not resolve shows as 4294967294.
  const std::string named = "Account=" + account + " UserName=" + owner.user + "(";
  const size_t at = shown->out.find(named);
  if (at == std::string::npos) return Known::kNo;
  const std::string uid = "(" + std::to_string(owner.uid) + ")";
  return shown->out.compare(at + named.size() - 1, uid.size(), uid) == 0 ? Known::kYes
                                                                         : Known::kOtherUid;
}

Status SlurmExecutor::ensure_association(const std::string& account, const JobOwner& owner) {
  const std::string key = owner.user + "(" + std::to_string(owner.uid) + ")";
  {
    MutexLock lock(mu_);
    if (associated_.contains({account, key})) return Status::ok_status();
  }
  const Known before = controller_knows(account, owner);
  if (before != Known::kYes) {
    if (before == Known::kOtherUid) {
      // Made again with the account's uid as it is now (sacctmgr cannot change a uid).
      ALLOT_ASSIGN_OR_RETURN(CommandResult deleted,
                             runner_.run({"sacctmgr", "-i", "delete", "user", owner.user}));
      if (!deleted.succeeded()) {
        return Status(ErrorCode::kFailedPrecondition,
                      "Slurm knows user " + owner.user + " with another uid than " +
                          std::to_string(owner.uid) + " and cannot delete it: " + deleted.said());
      }
    }
    // "Nothing new added" when it exists (or another thread added it): the
    // controller's view below settles it.
    ALLOT_ASSIGN_OR_RETURN(CommandResult added, runner_.run({"sacctmgr", "-i", "add", "user",
                                                             owner.user, "Account=" + account}));
    // slurmdbd tells slurmctld a moment later; sbatch before that is refused.
    bool known = controller_knows(account, owner) == Known::kYes;
    for (int i = 0; i < 100 && !known; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      known = controller_knows(account, owner) == Known::kYes;
    }
    if (!known) {
      return Status(ErrorCode::kFailedPrecondition,
                    "cannot associate user " + owner.user + " (uid " + std::to_string(owner.uid) +
                        ") with Slurm account " + account + ": " + added.said());
    }
  }
  MutexLock lock(mu_);
  associated_.insert({account, key});
  return Status::ok_status();
}

bool SlurmExecutor::hand_over(const WorkloadLaunch& launch, const std::vector<WorkloadId>& after) {
  std::vector<std::string> ids;
  {
    MutexLock lock(mu_);
    const WorkloadId w = launch.workload;
    if (after.empty() || jobs_.contains(w) || submitting_.contains(w) || unsubmitted_.contains(w) ||
        handed_.contains(w) || adoptable_.contains(w)) {
      return false;
    }
    for (const WorkloadId victim : after) {
      const auto job = jobs_.find(victim);
      if (job == jobs_.end() || is_final_job_state(job->second.last.state)) return false;
      ids.push_back(job->second.id);
    }
    submitting_.insert(w);  // not an orphan to the poll while sbatch runs
  }
  const Result<std::string> id = submit(launch, ids);
  {
    MutexLock lock(mu_);
    submitting_.erase(launch.workload);
    if (id.ok()) {
      // Never a takeover: allotd hands over no run that waits to resume.
      submitted_.fetch_add(1);
      // A listing already under way may not hold it: the next one will.
      handed_[launch.workload] =
          Handed{*id, nodes_of(launch), listings_ + 1, SlurmJob{*id, "", "PENDING", "", "", 0}};
    }
  }
  if (!id.ok()) {
    if (options_.logger != nullptr) {
      options_.logger->warn("a handover to Slurm failed; the workload starts when admitted",
                            {{"workload", std::to_string(launch.workload.value())},
                             {"reason", id.status().message()}});
    }
    return false;
  }
  return true;
}

bool SlurmExecutor::drop_handed(WorkloadId workload) {
  std::string id;
  {
    MutexLock lock(mu_);
    const auto found = handed_.find(workload);
    if (found == handed_.end()) return false;
    id = found->second.id;
    handed_.erase(found);
    dropped_[id] = listings_ + 1;
  }
  cancel_quietly(id, CancelKind::kCancel);
  return true;
}

void SlurmExecutor::withdraw(WorkloadId workload) { (void)drop_handed(workload); }

bool SlurmExecutor::take_over_handed(const WorkloadLaunch& launch) {
  MutexLock lock(mu_);
  const auto handed = handed_.find(launch.workload);
  if (handed == handed_.end() || handed->second.placed != nodes_of(launch)) return false;
  const std::string id = handed->second.id;
  // Its last state: the next poll reports it running, or ended (then from
  // sacct when Slurm no longer lists it).
  jobs_[launch.workload] = Job{id,
                               static_cast<int32_t>(launch.pods.size()),
                               false,
                               false,
                               {},
                               0,
                               handed->second.last,
                               handed->second.placed,
                               ""};
  handed_.erase(handed);
  hurry();  // it may run already: Slurm started it when the jobs it followed ended
  wake_.notify_all();
  return true;
}

void SlurmExecutor::launch(const WorkloadLaunch& launch) {
  if (take_over_handed(launch)) {
    announce_job(launch.workload);
    return;
  }
  (void)drop_handed(launch.workload);  // placed on other nodes: withdrawn, submitted afresh
  const auto pods = static_cast<int32_t>(launch.pods.size());
  {
    MutexLock lock(mu_);
    if (jobs_.contains(launch.workload) || submitting_.contains(launch.workload) ||
        unsubmitted_.contains(launch.workload)) {
      return;
    }
    const auto found = adoptable_.find(launch.workload);
    if (found != adoptable_.end()) {
      jobs_[launch.workload] =
          Job{found->second.id, pods, false, false, {}, 0, found->second, nodes_of(launch), ""};
      adoptable_.erase(found);
    } else if (!launch.resume_job.empty()) {
      // Not live at start(): the interrupted run's job ended while allotd was
      // down. The next poll settles it (squeue's final state, else sacct's)
      // and reports its end as this run's; its nodes are not judged.
      const SlurmJob last{launch.resume_job,
                          job_name_of(options_.submit.job_prefix, launch.workload),
                          "",
                          "",
                          "",
                          0};
      jobs_[launch.workload] = Job{launch.resume_job, pods, false, false, {}, 0, last, {}, ""};
    } else {
      queue_.push_back(launch);
      queued_.notify_one();
      return;
    }
    adopted_.fetch_add(1);
    wake_.notify_all();
  }
  announce_job(launch.workload);
}

void SlurmExecutor::announce_job(WorkloadId workload) {
  if (options_.sink != nullptr) options_.sink->on_backend_job(workload);
}

void SlurmExecutor::submit_loop() {
  for (;;) {
    WorkloadLaunch launch;
    {
      MutexLock lock(mu_);
      while (!stopping_ && queue_.empty()) queued_.wait(mu_);
      if (stopping_) return;
      launch = std::move(queue_.front());
      queue_.pop_front();
      submitting_.insert(launch.workload);
    }
    submitted_one(launch, submit(launch));
  }
}

void SlurmExecutor::submitted_one(const WorkloadLaunch& launch, const Result<std::string>& id) {
  const auto pods = static_cast<int32_t>(launch.pods.size());
  bool cancel = false;
  {
    MutexLock lock(mu_);
    submitting_.erase(launch.workload);
    cancel = cancel_on_submit_.erase(launch.workload) > 0;
    if (!id.ok() && id.status().code() == ErrorCode::kUnavailable && !cancel && !stopping_) {
      // Never lost, never submitted twice: retried after looking for it in Slurm.
      Unsubmitted& entry = unsubmitted_[launch.workload];
      entry =
          Unsubmitted{launch, id.status().message(), clock_.now() + options_.submit_retry, false};
    } else {
      unsubmitted_.erase(launch.workload);
    }
    if (id.ok()) {
      if (taken_over_.erase(launch.workload) > 0) {
        adopted_.fetch_add(1);
      } else {
        submitted_.fetch_add(1);
      }
      hurry();  // Slurm starts it at its next pass: seen running soon after
      Job job{*id,
              pods,
              false,
              cancel,
              {},
              0,
              SlurmJob{*id, "", "PENDING", "", "", 0},
              nodes_of(launch),
              ""};
      jobs_[launch.workload] = std::move(job);
      wake_.notify_all();
    }
  }
  if (id.ok()) {
    if (cancel) {
      cancel_quietly(*id, CancelKind::kCancel);
    } else {
      announce_job(launch.workload);  // its id, while Slurm holds it pending
    }
    return;
  }
  if (id.status().code() == ErrorCode::kUnavailable && !cancel) {
    if (options_.logger != nullptr) {
      options_.logger->warn("a Slurm job could not be submitted; it stays pending and is retried",
                            {{"workload", std::to_string(launch.workload.value())},
                             {"reason", id.status().message()}});
    }
    announce_job(launch.workload);  // NOT_SUBMITTED, with the reason
    return;
  }
  PodEvent failed;
  failed.phase = PodPhase::kExited;
  failed.exit_code = 127;
  failed.stopped = cancel;
  failed.launch_error = id.status().message();
  report({{launch.workload, pods, failed}});
}

std::optional<SlurmExecutor::Report> SlurmExecutor::drop_queued(WorkloadId workload) {
  PodEvent dropped;
  dropped.phase = PodPhase::kExited;
  dropped.stopped = true;
  dropped.signal = 15;
  const auto queued = std::find_if(queue_.begin(), queue_.end(),
                                   [&](const WorkloadLaunch& l) { return l.workload == workload; });
  if (queued != queue_.end()) {
    const Report r{workload, static_cast<int32_t>(queued->pods.size()), dropped};
    queue_.erase(queued);
    unsubmitted_.erase(workload);
    return r;
  }
  const auto waiting = unsubmitted_.find(workload);
  if (waiting == unsubmitted_.end() || waiting->second.queued) return std::nullopt;
  const Report r{workload, static_cast<int32_t>(waiting->second.launch.pods.size()), dropped};
  unsubmitted_.erase(waiting);
  return r;
}

void SlurmExecutor::stop(WorkloadId workload, Duration grace) {
  if (drop_handed(workload)) return;  // handed over, never launched: nothing to report
  std::optional<CancelKind> kind;
  std::string job_id;
  std::optional<Report> dropped;
  {
    MutexLock lock(mu_);
    dropped = drop_queued(workload);
    if (submitting_.contains(workload)) cancel_on_submit_.insert(workload);
    const auto found = jobs_.find(workload);
    if (!dropped && found != jobs_.end()) {
      kind = stop_command(found->second, grace);
      job_id = found->second.id;
      hurry();  // its end frees capacity that allot waits for (a reclaim)
    }
  }
  if (dropped) report({*dropped});
  if (kind) cancel_quietly(job_id, *kind);
  wake_.notify_all();
}

std::optional<CancelKind> SlurmExecutor::stop_command(Job& job, Duration grace) {
  job.stopping = true;
  if (!job.running_reported || grace <= Duration()) return CancelKind::kCancel;
  const Timestamp kill_at = clock_.now() + grace;
  if (job.kill_at && *job.kill_at <= kill_at) return std::nullopt;  // a stop already under way
  const bool first = !job.kill_at;
  job.kill_at = kill_at;
  if (!first) return std::nullopt;
  if (grace <= kill_wait_) return CancelKind::kCancel;  // recorded CANCELLED, SIGTERM now
  return CancelKind::kTerm;
}

void SlurmExecutor::cancel_quietly(const std::string& job_id, CancelKind kind) {
  // A job already gone is what was wanted; the poll sees the rest.
  (void)transport()->cancel(job_id, kind);
}

void SlurmExecutor::requeue_due_retries() {
  const Timestamp now = clock_.now();
  for (auto& [workload, entry] : unsubmitted_) {
    if (entry.queued || entry.retry_at > now) continue;
    entry.queued = true;
    queue_.push_back(entry.launch);
    queued_.notify_one();
  }
}

std::vector<std::string> SlurmExecutor::due_kills() {
  std::vector<std::string> ids;
  const Timestamp now = clock_.now();
  for (auto& [workload, job] : jobs_) {
    if (job.kill_at && *job.kill_at <= now) {
      ids.push_back(job.id);
      job.kill_at = Timestamp::infinite_future();
    }
  }
  return ids;
}

void SlurmExecutor::ended(WorkloadId workload, const Job& job, const JobExit& exit,
                          std::vector<Report>& reports) {
  if (!job.running_reported && is_started_job_state(job.last.state)) {
    reports.push_back({workload, job.pods, PodEvent{}});
  }
  const SlurmJobView view{job.id, job.last.state, job.last.reason, job.last.nodes, job.misplaced};
  if (ended_.insert_or_assign(workload, view).second) ended_order_.push_back(workload);
  while (ended_order_.size() > kMaxEnded) {
    ended_.erase(ended_order_.front());
    ended_order_.pop_front();
  }
  PodEvent event;
  event.phase = PodPhase::kExited;
  event.exit_code = exit.exit_code;
  event.signal = exit.signal;
  event.stopped = job.stopping;
  event.lost = exit.lost && !job.stopping;
  reports.push_back({workload, job.pods, event});
}

void SlurmExecutor::report(const std::vector<Report>& reports) {
  if (options_.sink == nullptr) return;
  for (const Report& r : reports) {
    for (int32_t pod = 0; pod < r.pods; ++pod) {
      PodEvent event = r.event;
      event.pod = PodId{r.workload, pod};
      options_.sink->on_pod_event(event);
    }
  }
}

void SlurmExecutor::hurry() {
  const Timestamp until = clock_.now() + options_.fast_poll_for;
  if (fast_until_ < until) fast_until_ = until;
}

Duration SlurmExecutor::poll_delay_locked() const {
  const Duration fast = options_.fast_poll_interval;
  const bool hurried =
      fast > Duration() && fast < options_.poll_interval && clock_.now() < fast_until_;
  return hurried ? fast : options_.poll_interval;
}

Duration SlurmExecutor::poll_delay() const {
  MutexLock lock(mu_);
  return poll_delay_locked();
}

void SlurmExecutor::loop() {
  for (;;) {
    {
      MutexLock lock(mu_);
      const auto rested = std::chrono::steady_clock::now();
      // Woken (a submission, a stop): the rest is measured again, from the
      // same start, with the cadence that now applies.
      for (;;) {
        if (stopping_) return;
        const auto due = rested + std::chrono::milliseconds(poll_delay_locked().ms());
        if (!wake_.wait_until(mu_, due)) break;
      }
    }
    poll_once();
  }
}

}  // namespace allot::slurm
