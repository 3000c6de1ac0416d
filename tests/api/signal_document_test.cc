// Signal manifests (issue 14, item 5): the PromQL subset parsed into a
// query, and every malformed manifest refused naming the document, the field
// and, within the expression, the character at fault; the rules rendered for
// Prometheus.
#include "api/signal_document.h"

#include <string>

#include <gtest/gtest.h>

#include "api/prometheus_rules.h"
#include "api/signal_expression.h"
#include "manifest_fixtures.h"

namespace allot {
namespace {

std::string signal_doc(std::string_view expression, std::string_view extra = {}) {
  return document("Signal", "s",
                  "{expression: '" + std::string(expression) +
                      "', owner: platform, response: {text: look}" + std::string(extra) + "}");
}

std::string expression_error(std::string_view expression) {
  const Result<SignalQuery> query = parse_signal_expression(expression);
  if (query.ok()) return "parsed";
  return query.status().message();
}

TEST(SignalDocument, ParsesEveryFormOfTheSubset) {
  const ManifestBundle bundle = parse_ok(
      document("Signal", "queue-wait",
               "{expression: 'histogram_quantile(0.95, rate(allot_admission_wait_seconds_bucket"
               "{team=\"ml\"}[1h])) > 3600', for: 10m, owner: ml-leads, response: {text: Look, "
               "runbook: 'https://wiki.example/q'}, webhook: 'http://127.0.0.1:9/hook'}"));
  ASSERT_EQ(bundle.policy.signals.size(), 1u);
  const SignalSpec& spec = bundle.policy.signals[0].spec;
  EXPECT_EQ(spec.query.selector.metric, "allot_admission_wait_seconds_bucket");
  EXPECT_EQ(spec.query.selector.matchers, (std::vector<LabelMatcher>{{"team", true, "ml"}}));
  EXPECT_EQ(spec.query.function, RangeFunction::kRate);
  EXPECT_EQ(spec.query.window, Duration::hours(1));
  EXPECT_EQ(spec.query.quantile, 0.95);
  EXPECT_EQ(spec.query.comparison, Comparison::kGreater);
  EXPECT_EQ(spec.query.threshold, 3600);
  EXPECT_EQ(spec.for_duration, Duration::minutes(10));
  EXPECT_EQ(spec.owner, "ml-leads");
  EXPECT_EQ(spec.response.runbook, "https://wiki.example/q");
  EXPECT_EQ(spec.webhook, "http://127.0.0.1:9/hook");

  const Result<SignalQuery> avg =
      parse_signal_expression("avg_over_time(allot_team_usage{resource!=\"cpu\",}[30m]) <= 2");
  ASSERT_TRUE(avg.ok()) << avg.status().to_string();
  EXPECT_EQ(avg->function, RangeFunction::kAvgOverTime);
  EXPECT_EQ(avg->selector.matchers, (std::vector<LabelMatcher>{{"resource", false, "cpu"}}));
  EXPECT_EQ(avg->comparison, Comparison::kLessEqual);
  const Result<SignalQuery> plain = parse_signal_expression("allot_node_healthy==0");
  ASSERT_TRUE(plain.ok()) << plain.status().to_string();
  EXPECT_EQ(plain->comparison, Comparison::kEqual);
}

TEST(SignalDocument, ExpressionErrorsSayWhichCharacterAndWhy) {
  EXPECT_EQ(expression_error("allot_nope > 1"),
            "at character 1 of the expression: unknown metric 'allot_nope' (docs/metrics.md "
            "lists allot's)");
  EXPECT_NE(expression_error("allot_team_usage{tem=\"a\"} > 1")
                .find("at character 18 of the expression: allot_team_usage has no label 'tem'"),
            std::string::npos);
  EXPECT_NE(expression_error("rate(allot_team_usage[5m]) > 1").find("character 1 of"),
            std::string::npos);
  EXPECT_NE(expression_error("allot_admission_wait_seconds > 1").find("is a histogram"),
            std::string::npos);
  EXPECT_NE(expression_error("allot_team_usage")
                .find("character 17 of the expression: "
                      "expected a comparison"),
            std::string::npos);
  EXPECT_NE(expression_error("allot_team_usage > x").find("character 20"), std::string::npos);
  EXPECT_NE(expression_error("allot_team_usage > 1 and 2").find("unexpected text"),
            std::string::npos);
  EXPECT_NE(expression_error("avg_over_time(allot_team_usage[2d]) > 1").find("out of range"),
            std::string::npos);
  EXPECT_NE(expression_error("avg_over_time(allot_team_usage[xx]) > 1").find("bad window"),
            std::string::npos);
  EXPECT_NE(expression_error("allot_team_usage{team=~\"a.*\"} > 1").find("regular expression"),
            std::string::npos);
  EXPECT_NE(expression_error("sum(allot_team_usage) > 1").find("not in allot's PromQL subset"),
            std::string::npos);
  EXPECT_NE(expression_error("histogram_quantile(1.5, rate(allot_admission_wait_seconds_bucket"
                             "[1h])) > 1")
                .find("character 20 of the expression: the quantile is out of range"),
            std::string::npos);
  EXPECT_NE(expression_error("allot_team_usage{team=\"a} > 1").find("no closing quote"),
            std::string::npos);
}

TEST(SignalDocument, AThresholdOutOfTheMetricsRangeIsRefused) {
  EXPECT_NE(expression_error("allot_team_usage > -1")
                .find("character 20 of the expression: the "
                      "threshold is out of range"),
            std::string::npos);
  EXPECT_NE(expression_error("allot_node_healthy < 2").find("lies in [0, 1]"), std::string::npos);
  EXPECT_EQ(expression_error("rate(allot_preemptions_total[1h]) > 2"), "parsed");
}

TEST(SignalDocument, BadManifestsNameDocumentFieldAndPosition) {
  const Status unknown = parse_error(signal_doc("allot_team_usge > 1"));
  EXPECT_EQ(unknown.details(), "document 1 (Signal/s): spec.expression");
  EXPECT_NE(unknown.message().find("at character 1 of the expression: unknown metric"),
            std::string::npos)
      << unknown.message();
  EXPECT_NE(unknown.message().find("(line 4, column"), std::string::npos) << unknown.message();
  EXPECT_TRUE(fails_with(signal_doc("allot_node_healthy == 0", ", webhook: 'ftp://x/y'"),
                         "document 1 (Signal/s): spec.webhook", "http:// or https://"));
  EXPECT_TRUE(fails_with(signal_doc("allot_node_healthy == 0", ", webhook: 'http://'"),
                         "document 1 (Signal/s): spec.webhook", "with a host"));
  EXPECT_TRUE(fails_with(document("Signal", "s",
                                  "{expression: 'allot_node_healthy == 0', owner: p, "
                                  "response: {text: t, runbook: 'file:///etc/passwd'}}"),
                         "document 1 (Signal/s): spec.response.runbook", "http://"));
  EXPECT_TRUE(fails_with(document("Signal", "s",
                                  "{expression: 'allot_node_healthy == 0', "
                                  "response: {text: t}}"),
                         "document 1 (Signal/s): spec.owner", "missing required field"));
  EXPECT_TRUE(fails_with(signal_doc("allot_node_healthy == 0", ", for: 40d"),
                         "document 1 (Signal/s): spec.for", "31 days"));
  EXPECT_TRUE(fails_with(signal_doc("allot_node_healthy == 0", ", severity: high"),
                         "document 1 (Signal/s): spec.severity", "unknown"));
  Policy twice;
  twice.signals = {parse_ok(signal_doc("allot_node_healthy == 0")).policy.signals.at(0),
                   parse_ok(signal_doc("allot_node_healthy == 1")).policy.signals.at(0)};
  const Status duplicate = validate_policy(twice);
  EXPECT_FALSE(duplicate.ok());
  EXPECT_NE(duplicate.to_string().find("Signal"), std::string::npos) << duplicate.to_string();
}

TEST(SignalDocument, WebhookUrlsAreHttpOrHttpsWithAHost) {
  EXPECT_TRUE(is_http_url("https://hooks.example/a?b=c"));
  EXPECT_TRUE(is_http_url("http://127.0.0.1:8080"));
  EXPECT_FALSE(is_http_url("https://user@host/x"));
  EXPECT_FALSE(is_http_url("https://host/a b"));
  EXPECT_FALSE(is_http_url("gopher://host"));
  EXPECT_FALSE(is_http_url("https:///path"));
}

TEST(PrometheusRules, RendersOneAlertingRulePerSignal) {
  const ManifestBundle bundle = parse_ok(
      document("Signal", "node-unhealthy",
               "{expression: 'allot_node_healthy == 0', for: 5m, owner: \"platform: on-call\", "
               "response: {text: 'Drain it: \"now\"', runbook: 'https://wiki.example/n'}}") +
      "---\n" + signal_doc("allot_team_usage > 1"));
  const std::string rules = render_prometheus_rules(bundle.policy.signals);
  EXPECT_EQ(rules,
            "groups:\n"
            "  - name: allot-signals\n"
            "    rules:\n"
            "      - alert: node-unhealthy\n"
            "        expr: \"allot_node_healthy == 0\"\n"
            "        for: 300s\n"
            "        labels:\n"
            "          owner: \"platform: on-call\"\n"
            "          signal: node-unhealthy\n"
            "          source: allot\n"
            "        annotations:\n"
            "          summary: \"Drain it: \\\"now\\\"\"\n"
            "          runbook_url: https://wiki.example/n\n"
            "      - alert: s\n"
            "        expr: \"allot_team_usage > 1\"\n"
            "        labels:\n"
            "          owner: \"platform\"\n"
            "          signal: s\n"
            "          source: allot\n"
            "        annotations:\n"
            "          summary: \"look\"\n");
  EXPECT_EQ(prometheus_duration(Duration::millis(1500)), "1500ms");
}

}  // namespace
}  // namespace allot
