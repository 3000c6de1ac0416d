// Issue 15, item 3, through the real `allot` binary against a real allotd:
// directory users log in with `allot login --local` (the approvers as
// contract-approver at cluster scope) and drive `allot contract
// create|approve|activate|review|renew|revoke|get|describe`; what each prints,
// and the refusals (self-approval, no reason, the wrong phase, a caller
// without the role, an unknown contract) with their messages and exit codes.
// PolicyExceptions (item 6): applied by their approver with `allot apply`
// (in force at once) or requested by their owner (Requested until `allot
// exception approve` by the approver; the owner cannot approve it), refused
// to a team member (who lists its team's), listed by `allot get exceptions
// [--expiring 7d]` with their STATE (a request undecided past its expiry:
// Expired, its approval 409 with the reason), and in the audit log (the approval as
// verb approve). Evidence (item 7):
// `allot evidence export` checked field by field (evidence.json, the CSV
// tables, the HTML page), refused to a team member, and `allot evidence
// verify` with the audit key: the export verifies (evidence.json and the
// signed manifest of every file), any changed byte of any file fails.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "contract_documents.h"
#include "scim_client.h"

namespace allot::server_test {
namespace {

constexpr const char* kContractCliPassword = "allot-canary-pw-contract-cli";

struct ContractCliRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

class ContractCliTest : public ScimTest {
 protected:
  void SetUp() override {
    ScimTest::SetUp();
    for (const char* user : {"ana", "bob", "carol"}) create_user(user, kContractCliPassword);
    create_group("ml-ops");
    const Reply applied = call("POST", "/api/v1/apply", allotd_.admin_token(),
                               std::string(kTestPolicy) + kContractGovernance);
    ASSERT_EQ(applied.status, 200) << applied.describe();
    manifest_ = temp_file("contract.yaml");
    std::ofstream(manifest_) << kResearchContract;
  }

  // Runs `allot ARGS` as `who` (its own credentials file), with `input` on stdin.
  ContractCliRun allot(const std::string& who, const std::string& args,
                       const std::string& input = "") {
    const std::string command =
        "printf '%s\\n' " + shell_quote(input) +
        " | ALLOT_CREDENTIALS=" + shell_quote((allotd_.temp_dir() / (who + ".json")).string()) +
        " ALLOT_TOKEN= ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) + " " +
        ALLOT_CLI + " " + args + " 2>&1";
    ContractCliRun run;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    size_t got = 0;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
      run.output.append(buffer.data(), got);
    }
    const int status = ::pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }

  // `allot login --local` as `who` with `scope` (--role, --team); expects success.
  void cli_login(const std::string& who, const std::string& scope) {
    const ContractCliRun login =
        allot(who, "login --local --username " + who + " --password-stdin " + scope,
              kContractCliPassword);
    ASSERT_EQ(login.exit_code, 0) << login.output;
    EXPECT_NE(login.output.find("logged in as " + who), std::string::npos) << login.output;
  }

  // A transition as `who`; expects success and the new phase printed.
  void transition(const std::string& who, const std::string& action, const std::string& phase) {
    const ContractCliRun run = allot(
        who, "contract " + action + " research-local --reason " + shell_quote(action + " ok"));
    EXPECT_EQ(run.exit_code, 0) << action << ": " << run.output;
    EXPECT_EQ(run.output, "contract/research-local " + phase + "\n") << action;
  }

  std::string manifest_;
};

TEST_F(ContractCliTest, TheLifecycleThroughTheCliWithItsOutputAndRefusals) {
  cli_login("ana", "--role contract-approver");
  cli_login("bob", "--role contract-approver");
  cli_login("carol", "--team research --role team-member");

  const ContractCliRun no_file = allot("ana", "contract create");
  EXPECT_EQ(no_file.exit_code, 2) << no_file.output;
  EXPECT_NE(no_file.output.find("allot contract create needs -f FILE"), std::string::npos)
      << no_file.output;
  const ContractCliRun created = allot("ana", "contract create -f " + manifest_);
  ASSERT_EQ(created.exit_code, 0) << created.output;
  EXPECT_EQ(created.output, "contract/research-local created\n");

  const ContractCliRun self = allot("ana", "contract approve research-local --reason mine");
  EXPECT_NE(self.exit_code, 0);
  EXPECT_NE(self.output.find("'ana' requested this contract and cannot approve it"),
            std::string::npos)
      << self.output;
  const ContractCliRun no_reason = allot("bob", "contract approve research-local");
  EXPECT_EQ(no_reason.exit_code, 2);
  EXPECT_NE(no_reason.output.find("a transition needs --reason"), std::string::npos)
      << no_reason.output;
  const ContractCliRun early = allot("bob", "contract renew research-local --reason early");
  EXPECT_NE(early.exit_code, 0);
  EXPECT_NE(early.output.find("the contract is Draft; renew needs UnderReview"), std::string::npos)
      << early.output;
  const ContractCliRun member = allot("carol", "contract approve research-local --reason me");
  EXPECT_NE(member.exit_code, 0);
  EXPECT_NE(member.output.find("cannot approve contracts"), std::string::npos) << member.output;

  transition("bob", "approve", "Approved");
  transition("ana", "activate", "Active");
  transition("bob", "review", "UnderReview");
  transition("ana", "renew", "Active");

  const ContractCliRun table = allot("bob", "contract get");
  EXPECT_EQ(table.exit_code, 0) << table.output;
  EXPECT_TRUE(table.output.starts_with("NAME")) << table.output;
  for (const char* column : {"PHASE", "PROJECT", "CLUSTER", "CLASSIFICATION", "REVIEW DUE",
                             "research-local", "Active", "research", "local", "public"}) {
    EXPECT_NE(table.output.find(column), std::string::npos) << column << "\n" << table.output;
  }
  const ContractCliRun as_json = allot("bob", "contract get research-local -o json");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.output;
  const nlohmann::json got = nlohmann::json::parse(as_json.output, nullptr, false);
  ASSERT_TRUE(got.is_object()) << as_json.output;
  EXPECT_EQ(got["status"]["phase"], "Active");
  EXPECT_EQ(got["status"]["approvedBy"], "bob");
  ASSERT_EQ(got["status"]["history"].size(), 5u) << as_json.output;
  EXPECT_EQ(got["status"]["history"][3]["action"], "review");
  EXPECT_EQ(got["status"]["history"][3]["reason"], "review ok");

  const ContractCliRun described = allot("ana", "contract describe research-local");
  EXPECT_EQ(described.exit_code, 0) << described.output;
  for (const char* line : {"Name:            research-local\n", "Phase:           Active\n",
                           "Requested by:    ana\n", "Approved by:     bob\n", "History:\n",
                           "approve ok", "renew ok", "dataClassification: public\n"}) {
    EXPECT_NE(described.output.find(line), std::string::npos) << line << "\n" << described.output;
  }

  const ContractCliRun hidden = allot("carol", "contract get");
  EXPECT_NE(hidden.exit_code, 0);
  EXPECT_NE(hidden.output.find("cannot list contracts"), std::string::npos) << hidden.output;
  const ContractCliRun unknown = allot("bob", "contract describe nosuch");
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.output.find("nosuch"), std::string::npos) << unknown.output;

  transition("bob", "revoke", "Revoked");
  const ContractCliRun after = allot("ana", "contract activate research-local --reason again");
  EXPECT_NE(after.exit_code, 0);
  EXPECT_NE(after.output.find("the contract is Revoked; activate needs Approved"),
            std::string::npos)
      << after.output;
}

// An RFC 3339 time `hours` from now (UTC, whole seconds).
std::string exception_cli_time(int hours) {
  const std::time_t at = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() +
                                                              std::chrono::hours(hours));
  std::tm utc{};
  ::gmtime_r(&at, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

std::string exception_cli_yaml(const std::string& name, const std::string& approver, int hours) {
  return "apiVersion: allot/v1\nkind: PolicyException\nmetadata: {name: " + name +
         "}\nspec:\n  team: research\n  relaxes: {quota: {flavor: gpu, resources: {gpu: 2}}}\n"
         "  owner: ana\n  reason: paper deadline\n  approver: " +
         approver + "\n  expires: \"" + exception_cli_time(hours) + "\"\n";
}

TEST_F(ContractCliTest, ExceptionsAreAppliedByTheirApproverAndListedByExpiry) {
  cli_login("ana", "--role contract-approver");
  cli_login("bob", "--role contract-approver");
  cli_login("carol", "--team research --role team-member");
  const auto manifest = [this](const std::string& name, const std::string& approver, int hours) {
    const std::string file = temp_file(name + ".yaml");
    std::ofstream(file) << exception_cli_yaml(name, approver, hours);
    return file;
  };

  const ContractCliRun owner = allot("ana", "apply -f " + manifest("by-owner", "ana", 72));
  EXPECT_NE(owner.exit_code, 0);
  EXPECT_NE(owner.output.find("approval needs an approver who is not the requester"),
            std::string::npos)
      << owner.output;
  // The owner requests; only the approver approves, with a reason.
  const ContractCliRun other = allot("ana", "apply -f " + manifest("not-mine", "bob", 72));
  EXPECT_EQ(other.exit_code, 0) << other.output;
  const ContractCliRun asked = allot("ana", "apply -f " + manifest("asked", "bob", 72));
  EXPECT_EQ(asked.exit_code, 0) << asked.output;
  const ContractCliRun self = allot("ana", "exception approve not-mine --reason mine");
  EXPECT_NE(self.exit_code, 0);
  EXPECT_NE(self.output.find("only 'bob', the approver PolicyException 'not-mine' names"),
            std::string::npos)
      << self.output;
  const ContractCliRun no_reason = allot("bob", "exception approve not-mine");
  EXPECT_NE(no_reason.exit_code, 0);
  EXPECT_NE(no_reason.output.find("--reason"), std::string::npos) << no_reason.output;
  const ContractCliRun approved =
      allot("bob", "exception approve not-mine --reason 'for the paper'");
  EXPECT_EQ(approved.exit_code, 0) << approved.output;
  EXPECT_NE(approved.output.find("policyexception/not-mine Approved"), std::string::npos)
      << approved.output;
  // A request left undecided past its expiry is Expired: listed so, and its
  // approval is refused (409) with the reason.
  const ContractCliRun stale = allot("ana", "apply -f " + manifest("stale", "bob", -1));
  EXPECT_EQ(stale.exit_code, 0) << stale.output;
  const ContractCliRun late = allot("bob", "exception approve stale --reason 'too late'");
  EXPECT_NE(late.exit_code, 0) << late.output;
  EXPECT_NE(late.output.find("the exception is Expired: its expiry passed while it was Requested"),
            std::string::npos)
      << late.output;
  const Reply late_http = call("POST", "/api/v1/policyexceptions/stale/approve",
                               login("bob", kContractCliPassword, "contract-approver"),
                               nlohmann::json{{"reason", "too late"}}.dump());
  EXPECT_EQ(late_http.status, 409) << late_http.describe();
  EXPECT_NE(late_http.body.find("the exception is Expired"), std::string::npos) << late_http.body;
  const Reply stale_object = call("GET", "/api/v1/policyexceptions/stale",
                                  login("bob", kContractCliPassword, "contract-approver"));
  ASSERT_EQ(stale_object.status, 200) << stale_object.describe();
  EXPECT_EQ(stale_object.json["status"]["phase"], "Expired") << stale_object.body;
  EXPECT_EQ(stale_object.json["status"]["requestedBy"], "ana") << stale_object.body;
  const ContractCliRun member = allot("carol", "apply -f " + manifest("member", "carol", 72));
  EXPECT_NE(member.exit_code, 0);
  EXPECT_NE(member.output.find("policyexceptions"), std::string::npos) << member.output;

  const std::vector<std::pair<std::string, int>> applied_exceptions = {
      {"soon", 72}, {"later", 24 * 30}, {"gone", -24}};
  for (const auto& [name, hours] : applied_exceptions) {
    const ContractCliRun applied = allot("bob", "apply -f " + manifest(name, "bob", hours));
    EXPECT_EQ(applied.exit_code, 0) << name << ": " << applied.output;
    EXPECT_NE(applied.output.find(name), std::string::npos) << applied.output;
  }

  const ContractCliRun all = allot("bob", "get exceptions");
  EXPECT_EQ(all.exit_code, 0) << all.output;
  for (const char* text :
       {"NAME", "TEAM", "RELAXES", "OWNER", "APPROVER", "EXPIRES", "STATE", "soon", "later", "gone",
        "quota gpu +gpu=2", "Active", "Expired", "Requested"}) {
    EXPECT_NE(all.output.find(text), std::string::npos) << text << "\n" << all.output;
  }
  std::istringstream rows(all.output);
  std::string stale_row;
  for (std::string row; std::getline(rows, row);) {
    if (row.starts_with("stale ")) stale_row = row;
  }
  EXPECT_NE(stale_row.find(" Expired"), std::string::npos) << "STATE Expired:\n" << all.output;
  // Approved by its approver, past its expiry: Expired in the API's
  // status.phase and in `-o json`, as in the table (the stored phase is not
  // rewritten: its history still ends with the approval).
  const Reply gone_object = call("GET", "/api/v1/policyexceptions/gone",
                                 login("bob", kContractCliPassword, "contract-approver"));
  ASSERT_EQ(gone_object.status, 200) << gone_object.describe();
  EXPECT_EQ(gone_object.json["status"]["phase"], "Expired") << gone_object.body;
  EXPECT_EQ(gone_object.json["status"]["decidedBy"], "bob") << gone_object.body;
  EXPECT_EQ(gone_object.json["status"]["history"].back()["to"], "Approved") << gone_object.body;
  const ContractCliRun as_json = allot("bob", "get exceptions -o json");
  ASSERT_EQ(as_json.exit_code, 0) << as_json.output;
  const nlohmann::json listed_json = nlohmann::json::parse(as_json.output, nullptr, false);
  ASSERT_FALSE(listed_json.is_discarded()) << as_json.output;
  std::map<std::string, std::string> json_phases;
  for (const nlohmann::json& item : listed_json.value("items", nlohmann::json::array())) {
    json_phases[item["metadata"]["name"].get<std::string>()] = item["status"].value("phase", "");
  }
  EXPECT_EQ(json_phases["gone"], "Expired") << as_json.output;
  EXPECT_EQ(json_phases["stale"], "Expired") << as_json.output;
  EXPECT_EQ(json_phases["soon"], "Approved") << as_json.output;
  EXPECT_EQ(json_phases["asked"], "Requested") << as_json.output;
  const ContractCliRun expiring = allot("bob", "get exceptions --expiring 7d");
  EXPECT_EQ(expiring.exit_code, 0) << expiring.output;
  EXPECT_NE(expiring.output.find("soon"), std::string::npos) << expiring.output;
  EXPECT_EQ(expiring.output.find("later"), std::string::npos) << expiring.output;
  EXPECT_EQ(expiring.output.find("gone"), std::string::npos) << "expired already";
  EXPECT_EQ(expiring.output.find("asked"), std::string::npos) << "requested: not in force";
  EXPECT_EQ(expiring.output.find("stale"), std::string::npos) << "expired: not in force";
  const ContractCliRun wrong_kind = allot("bob", "get contracts --expiring 7d");
  EXPECT_EQ(wrong_kind.exit_code, 2);
  EXPECT_NE(wrong_kind.output.find("--expiring applies to exceptions only"), std::string::npos)
      << wrong_kind.output;
  // A member of research reads research's exceptions (its team's roles read
  // them, as its Budgets: docs/governance.md).
  const ContractCliRun member_list = allot("carol", "get exceptions");
  EXPECT_EQ(member_list.exit_code, 0) << member_list.output;
  for (const char* text : {"soon", "asked", "Requested"}) {
    EXPECT_NE(member_list.output.find(text), std::string::npos) << text << "\n"
                                                                << member_list.output;
  }
  const ContractCliRun removal = allot("carol", "delete policyexception soon");
  EXPECT_NE(removal.exit_code, 0) << removal.output;
  EXPECT_NE(removal.output.find("cannot delete policyexceptions"), std::string::npos)
      << removal.output;

  // Applied over HTTP as well; each attempt, allowed or refused, is audited.
  const Reply listed = call("GET", "/api/v1/policyexceptions/soon",
                            login("bob", kContractCliPassword, "contract-approver"));
  EXPECT_EQ(listed.status, 200) << listed.describe();
  ASSERT_TRUE(listed.json.is_object()) << listed.body;
  EXPECT_EQ(listed.json.value("spec", nlohmann::json::object()).value("approver", ""), "bob")
      << listed.body;
  const Reply audit = call("GET", "/api/v1/audit?user=ana", allotd_.admin_token());
  ASSERT_EQ(audit.status, 200) << audit.describe();
  size_t refused = 0;
  for (const nlohmann::json& record : audit.json.value("items", nlohmann::json::array())) {
    if (record["responseStatus"]["code"] == 403 || record["responseStatus"]["code"] == 400) {
      ++refused;
    }
  }
  EXPECT_GE(refused, 2u) << audit.body;
  const Reply decisions = call("GET", "/api/v1/audit?user=bob", allotd_.admin_token());
  ASSERT_EQ(decisions.status, 200) << decisions.describe();
  bool approval = false;
  for (const nlohmann::json& record : decisions.json.value("items", nlohmann::json::array())) {
    approval = approval || (record.value("verb", "") == "approve" &&
                            record["objectRef"].value("resource", "") == "policyexceptions" &&
                            record["objectRef"].value("name", "") == "not-mine");
  }
  EXPECT_TRUE(approval) << decisions.body;
}

// Reads a whole file ("" when absent).
std::string evidence_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST_F(ContractCliTest, EvidenceExportIsCompleteSignedAndAnyChangedByteFailsItsCheck) {
  cli_login("bob", "--role contract-approver");
  cli_login("carol", "--team research --role team-member");
  const std::string ana = login("ana", kContractCliPassword, "contract-approver");
  const std::string bob = login("bob", kContractCliPassword, "contract-approver");
  ASSERT_EQ(call("POST", "/api/v1/apply", ana, kResearchContract).status, 200);
  const auto act = [this](const std::string& token, const std::string& action,
                          const std::string& reason) {
    const Reply done = call("POST", "/api/v1/contracts/research-local/" + action, token,
                            nlohmann::json{{"reason", reason}}.dump());
    EXPECT_EQ(done.status, 200) << done.describe();
  };
  act(bob, "approve", "data owner agreed");
  act(ana, "activate", "go live");
  const std::string exception = temp_file("exception.yaml");
  std::ofstream(exception) << exception_cli_yaml("deadline", "bob", 72);
  ASSERT_EQ(allot("bob", "apply -f " + exception).exit_code, 0);
  // Requested by its owner, approved by its approver with a reason.
  ASSERT_EQ(call("POST", "/api/v1/apply", ana, exception_cli_yaml("asked", "bob", 48)).status, 200);
  const Reply granted = call("POST", "/api/v1/policyexceptions/asked/approve", bob,
                             nlohmann::json{{"reason", "granted, for the paper"}}.dump());
  ASSERT_EQ(granted.status, 200) << granted.describe();
  // Approved by its approver, past its expiry: Expired in every part of the export.
  std::ofstream(temp_file("lapsed.yaml")) << exception_cli_yaml("lapsed", "bob", -24);
  ASSERT_EQ(allot("bob", "apply -f " + temp_file("lapsed.yaml")).exit_code, 0);
  submit("research", "job1");
  wait_phase("research", "job1", "Succeeded");

  // A team member is no owner and holds no contracts/evidence.
  const ContractCliRun refused =
      allot("carol", "evidence export --project research --out " + temp_file("no"));
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.output.find("contracts/evidence"), std::string::npos) << refused.output;

  const std::filesystem::path dir = temp_file("evidence");
  const ContractCliRun exported =
      allot("bob", "evidence export --project research --out " + dir.string());
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const nlohmann::json evidence =
      nlohmann::json::parse(evidence_file(dir / "evidence.json"), nullptr, false);
  ASSERT_TRUE(evidence.is_object()) << evidence_file(dir / "evidence.json");
  EXPECT_EQ(evidence["kind"], "Evidence");
  EXPECT_EQ(evidence["project"], "research");
  EXPECT_EQ(evidence["generatedBy"], "bob");
  EXPECT_EQ(evidence["namespaces"], nlohmann::json::array({"research"}));
  EXPECT_EQ(evidence["teams"], nlohmann::json::array({"research"}));
  ASSERT_EQ(evidence["contracts"].size(), 1u);
  const nlohmann::json& contract = evidence["contracts"][0];
  EXPECT_EQ(contract["metadata"]["name"], "research-local");
  EXPECT_EQ(contract["spec"]["owners"]["business"], "ana");
  EXPECT_EQ(contract["status"]["phase"], "Active");
  EXPECT_EQ(contract["status"]["approvedBy"], "bob");
  EXPECT_TRUE(contract["status"].contains("reviewDue"));
  ASSERT_EQ(contract["status"]["history"].size(), 3u);
  EXPECT_EQ(evidence["period"]["from"], contract["status"]["history"][0]["at"])
      << "the period starts at the contract's creation";
  ASSERT_EQ(evidence["approvals"].size(), 1u);
  EXPECT_EQ(evidence["approvals"][0]["by"], "bob");
  EXPECT_EQ(evidence["approvals"][0]["reason"], "data owner agreed");
  ASSERT_EQ(evidence["reviews"].size(), 1u);
  EXPECT_EQ(evidence["reviews"][0]["action"], "activate");
  EXPECT_EQ(evidence["reviews"][0]["by"], "ana");
  // Each exception with its phase, requester, decider, decision time and reason.
  ASSERT_EQ(evidence["exceptions"].size(), 3u);
  const nlohmann::json& asked = evidence["exceptions"][0];
  EXPECT_EQ(asked["metadata"]["name"], "asked");
  EXPECT_EQ(asked["spec"]["owner"], "ana");
  EXPECT_EQ(asked["spec"]["approver"], "bob");
  EXPECT_EQ(asked["status"]["phase"], "Approved");
  EXPECT_EQ(asked["status"]["requestedBy"], "ana");
  EXPECT_EQ(asked["status"]["decidedBy"], "bob");
  EXPECT_EQ(asked["status"]["decisionReason"], "granted, for the paper");
  ASSERT_EQ(asked["status"]["history"].size(), 2u) << asked.dump();
  EXPECT_EQ(asked["status"]["decidedAt"], asked["status"]["history"][1]["at"]);
  EXPECT_TRUE(asked["status"]["decidedAt"].is_string());
  const nlohmann::json& deadline = evidence["exceptions"][1];
  EXPECT_EQ(deadline["metadata"]["name"], "deadline");
  EXPECT_EQ(deadline["spec"]["approver"], "bob");
  EXPECT_EQ(deadline["status"]["phase"], "Approved");
  EXPECT_EQ(deadline["status"]["requestedBy"], "bob");
  EXPECT_EQ(deadline["status"]["decidedBy"], "bob");
  EXPECT_EQ(deadline["status"]["decisionReason"], "applied by its approver");
  const nlohmann::json& lapsed = evidence["exceptions"][2];
  EXPECT_EQ(lapsed["metadata"]["name"], "lapsed");
  EXPECT_EQ(lapsed["status"]["phase"], "Expired") << lapsed.dump();
  EXPECT_EQ(lapsed["status"]["decidedBy"], "bob");
  ASSERT_EQ(evidence["bindings"]["roleBindings"].size(), 1u);
  EXPECT_EQ(evidence["bindings"]["roleBindings"][0]["metadata"]["namespace"], "research");
  EXPECT_EQ(evidence["bindings"]["roleBindings"][0]["subjects"][0]["name"], "carol");
  ASSERT_EQ(evidence["bindings"]["clusterRoleBindings"].size(), 1u);
  EXPECT_EQ(evidence["bindings"]["clusterRoleBindings"][0]["metadata"]["name"], "approvers");
  ASSERT_TRUE(evidence["usage"].is_object()) << evidence["usage"];
  bool research_row = false;
  for (const nlohmann::json& row : evidence["usage"]["rows"]) {
    research_row = research_row || row.dump().find("research") != std::string::npos;
    EXPECT_EQ(row.dump().find("prod"), std::string::npos) << "only the project's teams";
  }
  EXPECT_TRUE(research_row) << evidence["usage"];
  const nlohmann::json& audit = evidence["audit"];
  EXPECT_EQ(audit["verification"]["verified"], true) << audit["verification"];
  EXPECT_GT(audit["verification"]["records"].get<uint64_t>(), 0u);
  EXPECT_LE(audit["firstSequence"].get<uint64_t>(), audit["lastSequence"].get<uint64_t>());
  EXPECT_EQ(audit["publicKey"],
            call("GET", "/api/v1/audit/key", allotd_.admin_token()).json["publicKey"]);
  bool approve_record = false;
  for (const nlohmann::json& record : audit["records"]) {
    approve_record =
        approve_record || (record["verb"] == "approve" && record["user"]["username"] == "bob" &&
                           record["responseStatus"]["code"] == 200);
  }
  EXPECT_TRUE(approve_record) << audit["records"].dump();

  // The tables and the page, rendered from it.
  const std::string history = evidence_file(dir / "history.csv");
  EXPECT_TRUE(history.starts_with("contract,action,from,to,by,at,reason\n")) << history;
  EXPECT_NE(history.find("research-local,approve,Draft,Approved,bob,"), std::string::npos)
      << history;
  EXPECT_NE(history.find(",data owner agreed\n"), std::string::npos) << history;
  EXPECT_NE(evidence_file(dir / "bindings.csv")
                .find("RoleBinding,research,members,ClusterRole,team-member,User:carol\n"),
            std::string::npos)
      << evidence_file(dir / "bindings.csv");
  const std::string exceptions_csv = evidence_file(dir / "exceptions.csv");
  EXPECT_TRUE(exceptions_csv.starts_with(
      "name,team,relaxes,owner,approver,reason,expires,phase,requestedBy,decidedBy,decidedAt,"
      "decisionReason\n"))
      << exceptions_csv;
  // The relaxes column is the JSON of spec.relaxes; the fields after it:
  const std::string asked_row = ",ana,bob,paper deadline," +
                                asked["spec"]["expires"].get<std::string>() + ",Approved,ana,bob," +
                                asked["status"]["decidedAt"].get<std::string>() +
                                ",\"granted, for the paper\"\n";
  EXPECT_NE(exceptions_csv.find("\nasked,research,"), std::string::npos) << exceptions_csv;
  EXPECT_NE(exceptions_csv.find(asked_row), std::string::npos) << asked_row << "\n"
                                                               << exceptions_csv;
  EXPECT_NE(exceptions_csv.find(",Approved,bob,bob,"), std::string::npos) << exceptions_csv;
  EXPECT_NE(exceptions_csv.find("deadline,research,"), std::string::npos) << exceptions_csv;
  EXPECT_NE(
      exceptions_csv.find("," + lapsed["spec"]["expires"].get<std::string>() + ",Expired,bob,bob,"),
      std::string::npos)
      << exceptions_csv;
  EXPECT_NE(evidence_file(dir / "usage.csv").find("research"), std::string::npos);
  const std::string html = evidence_file(dir / "evidence.html");
  for (const char* text :
       {"<h1>Evidence: project research</h1>", "research-local", "data owner agreed", "deadline",
        "User:carol", "<td>yes</td>", "<th>requestedBy</th>", "<th>decidedBy</th>",
        "<th>decidedAt</th>", "<th>decisionReason</th>", "<td>granted, for the paper</td>",
        "<td>Approved</td><td>ana</td><td>bob</td>", "<td>Expired</td><td>bob</td><td>bob</td>"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
  for (const char* external : {"<script", "src=", "href=", "@import", "url("}) {
    EXPECT_EQ(html.find(external), std::string::npos) << "self-contained: " << external;
  }

  // Every file is signed: evidence.json by its own signature, all six by the
  // signed manifest, SHA256SUMS (sha256sum's format); any changed byte of any
  // of them fails the check, naming the file.
  const std::string manifest = evidence_file(dir / "SHA256SUMS");
  for (const char* name : {"bindings.csv", "evidence.html", "evidence.json", "exceptions.csv",
                           "history.csv", "usage.csv"}) {
    EXPECT_NE(manifest.find("  " + std::string(name) + "\n"), std::string::npos) << name << "\n"
                                                                                 << manifest;
  }
  EXPECT_EQ(std::count(manifest.begin(), manifest.end(), '\n'), 6) << manifest;
  const std::string key = (allotd_.data_dir() / "audit-key.pub").string();
  const std::string verify_command = "evidence verify " + dir.string() + " --key " + key;
  const ContractCliRun verified = allot("bob", verify_command);
  EXPECT_EQ(verified.exit_code, 0) << verified.output;
  EXPECT_EQ(verified.output,
            "evidence verified: evidence.json and SHA256SUMS are signed by the audit key, and "
            "the 6 files it lists match\n");
  for (const char* name : {"evidence.json", "exceptions.csv", "evidence.html", "usage.csv",
                           "history.csv", "bindings.csv", "SHA256SUMS"}) {
    const std::string original = evidence_file(dir / name);
    ASSERT_FALSE(original.empty()) << name;
    for (size_t at = 0; at < original.size(); at += original.size() / 8 + 1) {
      std::string changed = original;
      changed[at] = static_cast<char>(changed[at] ^ 0x01);
      std::ofstream(dir / name, std::ios::binary | std::ios::trunc) << changed;
      const ContractCliRun check = allot("bob", verify_command);
      EXPECT_EQ(check.exit_code, 1) << name << " byte " << at << ": " << check.output;
      EXPECT_NE(check.output.find("evidence NOT verified: " + std::string(name)), std::string::npos)
          << check.output;
    }
    std::ofstream(dir / name, std::ios::binary | std::ios::trunc) << original;
  }
  // The originals verify again; a changed signature or another key does not; a
  // missing key file is unreadable input (exit 2).
  EXPECT_EQ(allot("bob", verify_command).exit_code, 0);
  for (const char* name : {"evidence.json.sig", "SHA256SUMS.sig"}) {
    const std::string original = evidence_file(dir / name);
    std::string signature = original;
    signature[0] = signature[0] == '0' ? '1' : '0';
    std::ofstream(dir / name, std::ios::trunc) << signature;
    EXPECT_EQ(allot("bob", verify_command).exit_code, 1) << name;
    std::ofstream(dir / name, std::ios::trunc) << original;
  }
  // The audit section read only the files of the period; it has one file here.
  EXPECT_EQ(audit["files"], 1) << audit.dump();
  EXPECT_EQ(audit["filesRead"], 1) << audit.dump();
  EXPECT_EQ(audit["projectRecords"], audit["records"].size());
  const ContractCliRun no_key =
      allot("bob", "evidence verify " + dir.string() + " --key " + temp_file("none.pub"));
  EXPECT_EQ(no_key.exit_code, 2) << no_key.output;
}

}  // namespace
}  // namespace allot::server_test
