#include "api/signal_expression.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "model/metric_catalog.h"

namespace allot {
namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':';
}

bool is_name_char(char c) {
  return is_name_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

std::string joined_labels(const MetricSample& sample) {
  std::string out;
  for (std::string_view label : sample.family->labels) {
    out += (out.empty() ? "" : ", ") + std::string(label);
  }
  if (sample.part == HistogramPart::kBucket) out += (out.empty() ? "" : ", ") + std::string("le");
  return out.empty() ? "none" : out;
}

// A cursor over the expression; every error names the character it is at.
class ExpressionReader {
 public:
  explicit ExpressionReader(std::string_view text) : text_(text) {}

  Result<SignalQuery> query() {
    SignalQuery q;
    ALLOT_RETURN_IF_ERROR(value(q));
    ALLOT_RETURN_IF_ERROR(comparison(q));
    skip_space();
    if (pos_ < text_.size()) return fail(pos_, "unexpected text after the threshold");
    return q;
  }

 private:
  Status fail(size_t at, std::string_view why) const {
    return invalid_argument("at character " + std::to_string(at + 1) +
                            " of the expression: " + std::string(why));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])) != 0) {
      ++pos_;
    }
  }

  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(pos_).starts_with(token)) {
      pos_ += token.size();
      return true;
    }
    return false;
  }

  Status expect(std::string_view token) {
    if (accept(token)) return {};
    return fail(pos_, "expected '" + std::string(token) + "'");
  }

  std::string name() {
    skip_space();
    const size_t start = pos_;
    if (pos_ < text_.size() && is_name_start(text_[pos_])) {
      while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  Result<double> number(std::string_view what) {
    skip_space();
    const size_t start = pos_;
    size_t end = pos_;
    while (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) != 0 ||
                                  text_[end] == '.' || text_[end] == '-' || text_[end] == '+')) {
      ++end;
    }
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text_.data() + start, text_.data() + end, value);
    if (ec != std::errc() || ptr != text_.data() + end || !std::isfinite(value)) {
      return fail(start, "expected " + std::string(what) + " (a finite number)");
    }
    pos_ = end;
    return value;
  }

  Status value(SignalQuery& q) {
    skip_space();
    const size_t at = pos_;
    const std::string word = name();
    if (word.empty())
      return fail(at, "expected a metric or rate(, avg_over_time(, histogram_quantile(");
    if (word == "histogram_quantile") return quantile(q, at);
    if (word == "rate" || word == "avg_over_time") {
      q.function = word == "rate" ? RangeFunction::kRate : RangeFunction::kAvgOverTime;
      ALLOT_RETURN_IF_ERROR(expect("("));
      ALLOT_RETURN_IF_ERROR(range_selector(q, at));
      return expect(")");
    }
    if (accept("(")) return fail(at, "function " + word + "() is not in allot's PromQL subset");
    pos_ = at;
    const Result<MetricSample> sample = selector(q.selector);
    return sample.ok() ? Status() : sample.status();
  }

  Status quantile(SignalQuery& q, size_t at) {
    ALLOT_RETURN_IF_ERROR(expect("("));
    const size_t phi_at = (skip_space(), pos_);
    ALLOT_ASSIGN_OR_RETURN(const double phi, number("a quantile"));
    if (phi < 0 || phi > 1) return fail(phi_at, "the quantile is out of range: it lies in [0, 1]");
    q.quantile = phi;
    ALLOT_RETURN_IF_ERROR(expect(","));
    const size_t rate_at = (skip_space(), pos_);
    if (name() != "rate" || !accept("(")) {
      return fail(rate_at, "histogram_quantile takes rate(<histogram>_bucket[window])");
    }
    q.function = RangeFunction::kRate;
    const size_t selector_at = (skip_space(), pos_);
    ALLOT_RETURN_IF_ERROR(range_selector(q, at));
    if (!q.selector.metric.ends_with("_bucket")) {
      return fail(selector_at, "histogram_quantile takes the _bucket series of a histogram");
    }
    ALLOT_RETURN_IF_ERROR(expect(")"));
    return expect(")");
  }

  // selector[window], for the function that starts at `function_at`.
  Status range_selector(SignalQuery& q, size_t function_at) {
    ALLOT_ASSIGN_OR_RETURN(const MetricSample sample, selector(q.selector));
    if (q.function == RangeFunction::kRate && !sample.is_counter()) {
      return fail(function_at, "rate() takes a counter or a histogram's series; " +
                                   q.selector.metric + " is a gauge (use avg_over_time)");
    }
    ALLOT_RETURN_IF_ERROR(expect("["));
    skip_space();
    const size_t window_at = pos_;
    const size_t close = text_.find(']', pos_);
    if (close == std::string_view::npos) return fail(window_at, "expected a window and ']'");
    const std::string window(text_.substr(window_at, close - window_at));
    Result<Duration> parsed = parse_duration(window);
    if (!parsed.ok())
      return fail(window_at, "bad window '" + window + "': " + parsed.status().message());
    if (*parsed <= Duration() || *parsed > kMaxSignalWindow) {
      return fail(window_at, "the window is out of range: more than 0 and at most 24h");
    }
    q.window = *parsed;
    pos_ = close + 1;
    return {};
  }

  Result<MetricSample> selector(SeriesSelector& out) {
    skip_space();
    const size_t at = pos_;
    out.metric = name();
    if (out.metric.empty()) return fail(at, "expected a metric name");
    const std::optional<MetricSample> sample = find_metric_sample(out.metric);
    if (!sample) {
      const MetricFamily* family = find_metric_family(out.metric);
      if (family != nullptr) {
        return fail(at, out.metric + " is a histogram: select its _bucket, _sum or _count series");
      }
      return fail(at, "unknown metric '" + out.metric + "' (docs/metrics.md lists allot's)");
    }
    if (accept("{")) ALLOT_RETURN_IF_ERROR(matchers(*sample, out));
    return *sample;
  }

  // {label="v", label!="v", ...}: the '{' read already.
  Status matchers(const MetricSample& sample, SeriesSelector& out) {
    if (accept("}")) return {};
    while (true) {
      ALLOT_ASSIGN_OR_RETURN(LabelMatcher m, matcher(sample, out.metric));
      out.matchers.push_back(std::move(m));
      if (accept("}")) return {};
      ALLOT_RETURN_IF_ERROR(expect(","));
      if (accept("}")) return {};
    }
  }

  Result<LabelMatcher> matcher(const MetricSample& sample, const std::string& metric) {
    skip_space();
    const size_t at = pos_;
    LabelMatcher m;
    m.label = name();
    if (m.label.empty()) return fail(at, "expected a label name or '}'");
    if (!sample.has_label(m.label)) {
      return fail(at, metric + " has no label '" + m.label + "'; it has " + joined_labels(sample));
    }
    skip_space();
    const size_t op_at = pos_;
    if (accept("=~") || accept("!~")) {
      return fail(op_at, "regular expression matchers are not in allot's subset: use = or !=");
    }
    if (accept("!=")) {
      m.equal = false;
    } else if (!accept("=")) {
      return fail(op_at, "expected = or != after the label");
    }
    ALLOT_ASSIGN_OR_RETURN(m.value, string_literal());
    return m;
  }

  Result<std::string> string_literal() {
    skip_space();
    const size_t at = pos_;
    if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) {
      return fail(at, "expected a quoted label value");
    }
    const char quote = text_[pos_++];
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      value += text_[pos_++];
    }
    if (pos_ >= text_.size()) return fail(at, "the label value has no closing quote");
    ++pos_;
    return value;
  }

  Status comparison(SignalQuery& q) {
    skip_space();
    const size_t at = pos_;
    constexpr std::pair<std::string_view, Comparison> kOps[] = {
        {">=", Comparison::kGreaterEqual}, {"<=", Comparison::kLessEqual},
        {"==", Comparison::kEqual},        {"!=", Comparison::kNotEqual},
        {">", Comparison::kGreater},       {"<", Comparison::kLess}};
    bool found = false;
    for (const auto& [token, op] : kOps) {
      if (accept(token)) {
        q.comparison = op;
        found = true;
        break;
      }
    }
    if (!found) return fail(at, "expected a comparison (>, >=, <, <=, ==, !=) and a threshold");
    skip_space();
    const size_t threshold_at = pos_;
    ALLOT_ASSIGN_OR_RETURN(q.threshold, number("a threshold"));
    return threshold_in_range(q, threshold_at);
  }

  // Every allot metric is >= 0; 0/1 gauges (allot_node_healthy) are <= 1.
  Status threshold_in_range(const SignalQuery& q, size_t at) const {
    if (q.threshold < 0) {
      return fail(at, "the threshold is out of range: " + q.selector.metric + " is never negative");
    }
    const std::optional<MetricSample> sample = find_metric_sample(q.selector.metric);
    if (q.function != RangeFunction::kRate && !q.quantile && sample->family->max >= 0 &&
        q.threshold > sample->family->max) {
      return fail(at, "the threshold is out of range: " + q.selector.metric + " lies in [0, " +
                          std::to_string(static_cast<int>(sample->family->max)) + "]");
    }
    return {};
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<SignalQuery> parse_signal_expression(std::string_view text) {
  return ExpressionReader(text).query();
}

}  // namespace allot
