#include "service/simulation/workload_csv.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(WorkloadCsv, HasAHeaderAndOneRowPerWorkload) {
  SimulationReport report;
  WorkloadRecord done;
  done.name = "train";
  done.namespace_name = "llm";
  done.priority_class = "production";
  done.submitted_s = 1.5;
  done.admitted_s = 2;
  done.finished_s = 3602.25;
  done.preemptions = 1;
  done.state = "Succeeded";
  WorkloadRecord waiting;
  waiting.name = "odd,name";
  waiting.namespace_name = "llm";
  waiting.state = "Pending";
  report.workloads = {done, waiting};
  EXPECT_EQ(workloads_csv(report),
            "name,namespace,priority_class,submitted_s,admitted_s,finished_s,preemptions,state\n"
            "train,llm,production,1.500,2.000,3602.250,1,Succeeded\n"
            "\"odd,name\",llm,,0.000,,,0,Pending\n");
}

}  // namespace
}  // namespace allot
