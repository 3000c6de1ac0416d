#include "api/yaml_shape.h"

#include <optional>
#include <sstream>
#include <utility>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

namespace allot {
namespace {

// Thrown by the handler to end the parse at the first refusal; caught below,
// never beyond this file (yaml-cpp reports through exceptions itself).
struct Refusal {
  std::string what;
  YAML::Mark mark;
};

class ShapeChecker final : public YAML::EventHandler {
 public:
  explicit ShapeChecker(const std::string& text) : text_(text) {}

  // yaml-cpp 0.7 leaves a token that cannot start a node (a ',' outside a
  // flow collection) unread and reports an empty document before it, again
  // and again: the loader would never return, and would add a document on
  // each turn until memory ran out (jbeder/yaml-cpp#1040). A document that
  // starts where the last one started is that loop.
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (last_start_ && last_start_->pos == mark.pos) {
      throw Refusal{"invalid YAML: unexpected " + quoted_at(mark), mark};
    }
    last_start_ = mark;
    depth_ = 0;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& /*mark*/, YAML::anchor_t /*anchor*/) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t /*anchor*/) override {
    throw Refusal{"YAML aliases (*name) are not accepted in manifests: write the value out", mark};
  }
  void OnScalar(const YAML::Mark& /*mark*/, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                const std::string& /*value*/) override {}
  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/,
                       YAML::anchor_t /*anchor*/, YAML::EmitterStyle::value /*style*/) override {
    enter(mark);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                  YAML::EmitterStyle::value /*style*/) override {
    enter(mark);
  }
  void OnMapEnd() override { --depth_; }

 private:
  [[nodiscard]] std::string quoted_at(const YAML::Mark& mark) const {
    const auto pos = static_cast<size_t>(mark.pos);
    return mark.pos >= 0 && pos < text_.size() ? "'" + text_.substr(pos, 1) + "'" : "text";
  }

  void enter(const YAML::Mark& mark) {
    if (++depth_ > kMaxYamlDepth) {
      throw Refusal{"YAML nested deeper than " + std::to_string(kMaxYamlDepth) + " levels", mark};
    }
  }

  const std::string& text_;
  std::optional<YAML::Mark> last_start_;
  size_t depth_ = 0;
};

std::string located(std::string_view source, const YAML::Mark& mark) {
  std::string where(source);
  if (!mark.is_null()) {
    where += (where.empty() ? "" : ": ") + std::string("line ") + std::to_string(mark.line + 1) +
             ", column " + std::to_string(mark.column + 1);
  }
  return where;
}

}  // namespace

Status check_yaml_shape(const std::string& text, std::string_view source) {
  std::istringstream stream(text);
  ShapeChecker checker(text);
  try {
    YAML::Parser parser(stream);
    while (parser.HandleNextDocument(checker)) {
    }
  } catch (const Refusal& refusal) {
    return invalid_argument(refusal.what, located(source, refusal.mark));
  } catch (const YAML::Exception&) {
    return {};  // not YAML: the loader says where and why
  }
  return {};
}

}  // namespace allot
