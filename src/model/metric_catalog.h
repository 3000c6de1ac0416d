// The metric families allotd exports at /metrics (docs/metrics.md): name,
// type, labels and the range of their values. What a Signal's expression
// may name (api/signal_expression.h) and what the renderer writes
// (service/metrics/prometheus_text.h) must agree: tests/service check that
// every family rendered is listed here.
//
// Contract: a constant table; lookups are pure. A histogram's samples are
// named <family>_bucket (with the label `le`), <family>_sum and
// <family>_count; find_metric_sample() resolves those names to their family.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace allot {

enum class MetricType : uint8_t { kGauge, kCounter, kHistogram };
enum class HistogramPart : uint8_t { kNone, kBucket, kSum, kCount };

struct MetricFamily {
  std::string_view name;
  MetricType type = MetricType::kGauge;
  std::span<const std::string_view> labels;
  double max = -1;  // the largest value a sample takes (1 for 0/1 gauges); < 0: unbounded
};

// A sample name resolved: its family and which part of a histogram it is.
struct MetricSample {
  const MetricFamily* family = nullptr;
  HistogramPart part = HistogramPart::kNone;

  // A counter, or a histogram's _bucket, _sum or _count: what rate() takes.
  [[nodiscard]] bool is_counter() const;
  // Whether `label` may be matched on (the family's labels; `le` for _bucket).
  [[nodiscard]] bool has_label(std::string_view label) const;
};

std::span<const MetricFamily> metric_families();
const MetricFamily* find_metric_family(std::string_view name);
std::optional<MetricSample> find_metric_sample(std::string_view sample_name);

}  // namespace allot
