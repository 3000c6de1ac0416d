// The Slurm executor through slurmrestd v0.0.38 (rest_transport.h) against
// the real Slurm of the ctest fixture `slurm` (slurmrestd with JWT on): nodes
// and a drain read as scontrol reads them; the endpoint check names a wrong
// URL, a refused token and an API version not served; a submission that
// cannot reach Slurm stays pending with its reason and is submitted once when
// it can. The scenarios every transport shares (a GPU job on its node, a
// gang, a stop with grace, adoption, a refusal) are EachWay/SlurmTransportTest
// in slurm_library_executor_test.cc.
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>

#include "backends/slurm/rest_transport.h"
#include "backends/slurm/slurm_node_inventory.h"
#include "slurm_executor_fixture.h"

namespace allot::slurm {
namespace {

class SlurmRestExecutorTest : public SlurmExecutorTest {
 protected:
  void SetUp() override {
    SlurmExecutorTest::SetUp();
    url_ = rest_url();
    ASSERT_FALSE(url_.empty()) << "the `slurm` fixture starts slurmrestd (ALLOT_SLURM_REST=1)";
    token_ = token_of("root");
    ASSERT_FALSE(token_.empty()) << "scontrol token username=root";
  }
  // Jobs of `workload`'s name that slurmctld holds (ended ones for MinJobAge).
  int jobs_named(WorkloadId workload) {
    const Result<CommandResult> listed =
        runner_.run({"squeue", "-h", "-a", "-t", "all", "--name=" + job_name_of("texec-", workload),
                     "-O", "JobID"});
    if (!listed.ok() || !listed->succeeded()) return -1;
    int count = 0;
    for (const char c : listed->out) count += c == '\n' ? 1 : 0;
    return count;
  }

  std::string url_;
  std::string token_;
};

TEST_F(SlurmRestExecutorTest, NodesAndADrainAreReadThroughSlurmrestdAsScontrolReadsThem) {
  SlurmNodeInventory commands(runner_);
  SlurmNodeInventory through_rest(runner_);
  through_rest.set_rest(rest(url_, token_));
  ASSERT_TRUE(commands.drain(NodeId("node3"), "slurm8 rest drain").ok());

  const Result<std::vector<InventoryNode>> by_rest = through_rest.list();
  const Result<std::vector<InventoryNode>> by_scontrol = commands.list();
  ASSERT_TRUE(commands.resume(NodeId("node3")).ok());

  ASSERT_TRUE(by_rest.ok()) << by_rest.status().message();
  ASSERT_TRUE(by_scontrol.ok()) << by_scontrol.status().message();
  ASSERT_EQ(by_rest->size(), 4u);
  for (size_t i = 0; i < by_rest->size(); ++i) {
    const InventoryNode& r = (*by_rest)[i];
    const InventoryNode& c = (*by_scontrol)[i];
    EXPECT_EQ(r.name, c.name);
    EXPECT_EQ(r.capacity, c.capacity) << r.name.str();
    EXPECT_EQ(r.flavor, c.flavor) << r.name.str();
    EXPECT_EQ(r.labels, c.labels) << r.name.str();
    EXPECT_EQ(r.up, c.up) << r.name.str();
    EXPECT_EQ(r.drained, c.drained) << r.name.str();
    // scontrol appends who set a reason and when ("... [root@2026-12-04T06:18:39]").
    EXPECT_TRUE(c.reason.starts_with(r.reason)) << r.reason << " / " << c.reason;
  }
  EXPECT_EQ((*by_rest)[2].name, NodeId("node3"));
  EXPECT_TRUE((*by_rest)[2].drained);
  EXPECT_EQ((*by_rest)[2].reason, "slurm8 rest drain");
  EXPECT_NE((*by_rest)[2].state.find("DRAIN"), std::string::npos) << (*by_rest)[2].state;
}

TEST_F(SlurmRestExecutorTest, TheEndpointCheckNamesAWrongUrlARefusedTokenAndAnApiNotServed) {
  EXPECT_TRUE(rest(url_, token_)->check().ok());

  const Status wrong_token = rest(url_, "not-a-jwt")->check();
  ASSERT_FALSE(wrong_token.ok());
  EXPECT_EQ(wrong_token.code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(wrong_token.message().find("token of user root"), std::string::npos)
      << wrong_token.message();
  EXPECT_EQ(wrong_token.message().find("not-a-jwt"), std::string::npos) << "never shown";

  const Status wrong_url = rest("http://127.0.0.1:1", token_)->check();
  ASSERT_FALSE(wrong_url.ok());
  EXPECT_NE(wrong_url.message().find("cannot reach slurmrestd at http://127.0.0.1:1"),
            std::string::npos)
      << wrong_url.message();

  // A server without v0.0.38 answers as slurmrestd does for a path it lacks.
  httplib::Server old;
  old.set_error_handler([](const httplib::Request&, httplib::Response& response) {
    response.status = 404;
    response.set_content("Unable find requested URL. Please view /openapi/v3 for API reference.",
                         "text/plain");
  });
  const int port = old.bind_to_any_port("127.0.0.1");
  std::thread serving([&] { old.listen_after_bind(); });
  while (!old.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const Status no_api = rest("http://127.0.0.1:" + std::to_string(port), token_)->check();
  old.stop();
  serving.join();
  ASSERT_FALSE(no_api.ok());
  EXPECT_NE(no_api.message().find("does not serve API v0.0.38"), std::string::npos)
      << no_api.message();
}

TEST_F(SlurmRestExecutorTest, ASubmissionThatCannotReachSlurmStaysPendingThenIsSubmittedOnce) {
  executor_ = make(events_, rest(url_, token_));
  executor_->set_transport(rest(url_, "not-a-jwt"));  // e.g. the token expired
  const WorkloadLaunch l = launch(15, {"node1"}, "echo ran");

  executor_->launch(l);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::optional<SlurmJobView> view = executor_->slurm_view(l.workload);
  while ((!view || view->state != "NOT_SUBMITTED") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    view = executor_->slurm_view(l.workload);
  }
  ASSERT_TRUE(view.has_value());
  EXPECT_EQ(view->state, "NOT_SUBMITTED");
  EXPECT_NE(view->reason.find("slurmrestd refused the job"), std::string::npos) << view->reason;
  std::this_thread::sleep_for(std::chrono::seconds(2));  // retried meanwhile, still refused
  EXPECT_TRUE(events_.wait_for(PodPhase::kExited, 0).empty()) << "never lost";

  executor_->set_transport(rest(url_, token_));
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_TRUE(exits[0].succeeded()) << exits[0].launch_error;
  EXPECT_EQ(log_of({l.workload, 0}), "ran\n");
  EXPECT_EQ(executor_->submitted(), 1);
  EXPECT_EQ(jobs_named(l.workload), 1) << "submitted once";
}

}  // namespace
}  // namespace allot::slurm
