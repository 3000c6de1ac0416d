// The filter and PATCH path parser (scim_filter.h): recursive descent over
// the text, one byte offset for errors.
#include "identity/scim/scim_filter.h"

#include <array>
#include <cmath>
#include <utility>

#include "identity/scim/scim_error.h"
#include "identity/scim/scim_names.h"

namespace allot::scim {
namespace {

struct OperatorName {
  std::string_view name;
  CompareOp op;
};

constexpr std::array<OperatorName, 10> kOperators = {{{"eq", CompareOp::kEq},
                                                      {"ne", CompareOp::kNe},
                                                      {"co", CompareOp::kCo},
                                                      {"sw", CompareOp::kSw},
                                                      {"ew", CompareOp::kEw},
                                                      {"gt", CompareOp::kGt},
                                                      {"ge", CompareOp::kGe},
                                                      {"lt", CompareOp::kLt},
                                                      {"le", CompareOp::kLe},
                                                      {"pr", CompareOp::kPr}}};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

class Parser {
 public:
  Parser(std::string_view text, ScimType error_type) : text_(text), error_type_(error_type) {}

  Result<FilterNode> whole_filter() {
    ALLOT_ASSIGN_OR_RETURN(FilterNode filter, parse_or(0));
    return expect_end(std::move(filter));
  }

  Result<PatchPath> whole_patch_path();

 private:
  Result<FilterNode> parse_or(int depth);
  Result<FilterNode> parse_and(int depth);
  Result<FilterNode> parse_unary(int depth);
  Result<FilterNode> parse_parenthesised(int depth);
  Result<FilterNode> parse_value_path(AttributePath path, int depth);
  Result<FilterNode> parse_comparison(AttributePath path);
  Result<CompareOp> parse_operator();
  Result<nlohmann::json> parse_literal();
  Result<nlohmann::json> parse_string_literal();
  Result<AttributePath> parse_path(bool allow_whole_schema = false);

  template <typename T>
  Result<T> expect_end(T value) {
    skip_spaces();
    if (pos_ != text_.size()) return error("unexpected " + quote_input(text_.substr(pos_)));
    return value;
  }

  void skip_spaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  [[nodiscard]] bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  // The keyword `word` at pos_ (any case), not followed by a name character.
  [[nodiscard]] bool at_word(std::string_view word) const {
    const std::string_view rest = text_.substr(pos_);
    return istarts_with(rest, word) &&
           (rest.size() == word.size() || !is_path_char(rest[word.size()]));
  }
  [[nodiscard]] std::string_view read_word() {
    const size_t start = pos_;
    while (pos_ < text_.size() && is_letter(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  [[nodiscard]] Status error(std::string why) const { return error_at(pos_, std::move(why)); }
  [[nodiscard]] Status error_at(size_t offset, std::string why) const {
    return scim_error(error_type_,
                      "invalid " +
                          std::string(error_type_ == ScimType::kInvalidFilter ? "filter" : "path") +
                          ": " + why + " at offset " + std::to_string(offset),
                      "offset " + std::to_string(offset));
  }

  std::string_view text_;
  ScimType error_type_;
  size_t pos_ = 0;
  bool in_value_path_ = false;
};

Result<FilterNode> Parser::parse_or(int depth) {
  ALLOT_ASSIGN_OR_RETURN(FilterNode first, parse_and(depth));
  FilterNode node{FilterNode::Kind::kOr, {}, CompareOp::kPr, nullptr, {}};
  node.children.push_back(std::move(first));
  while (true) {
    skip_spaces();
    if (!at_word("or")) break;
    pos_ += 2;
    ALLOT_ASSIGN_OR_RETURN(FilterNode next, parse_and(depth));
    node.children.push_back(std::move(next));
  }
  if (node.children.size() == 1) return std::move(node.children.front());
  return node;
}

Result<FilterNode> Parser::parse_and(int depth) {
  ALLOT_ASSIGN_OR_RETURN(FilterNode first, parse_unary(depth));
  FilterNode node{FilterNode::Kind::kAnd, {}, CompareOp::kPr, nullptr, {}};
  node.children.push_back(std::move(first));
  while (true) {
    skip_spaces();
    if (!at_word("and")) break;
    pos_ += 3;
    ALLOT_ASSIGN_OR_RETURN(FilterNode next, parse_unary(depth));
    node.children.push_back(std::move(next));
  }
  if (node.children.size() == 1) return std::move(node.children.front());
  return node;
}

Result<FilterNode> Parser::parse_unary(int depth) {
  if (depth >= kMaxFilterDepth) {
    return error("nested deeper than " + std::to_string(kMaxFilterDepth) + " levels");
  }
  skip_spaces();
  if (pos_ == text_.size()) return error("expected an expression, found the end");
  if (at('(')) return parse_parenthesised(depth + 1);
  if (at_word("not")) {
    const size_t word_end = pos_ + 3;
    size_t next = word_end;
    while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t')) ++next;
    if (next < text_.size() && text_[next] == '(') {
      pos_ = next;
      ALLOT_ASSIGN_OR_RETURN(FilterNode inner, parse_parenthesised(depth + 1));
      FilterNode node{FilterNode::Kind::kNot, {}, CompareOp::kPr, nullptr, {}};
      node.children.push_back(std::move(inner));
      return node;
    }
  }
  ALLOT_ASSIGN_OR_RETURN(AttributePath path, parse_path());
  if (at('[')) return parse_value_path(std::move(path), depth + 1);
  return parse_comparison(std::move(path));
}

Result<FilterNode> Parser::parse_parenthesised(int depth) {
  ++pos_;  // '('
  ALLOT_ASSIGN_OR_RETURN(FilterNode inner, parse_or(depth));
  skip_spaces();
  if (!at(')')) return error("expected ')'");
  ++pos_;
  return inner;
}

Result<FilterNode> Parser::parse_value_path(AttributePath path, int depth) {
  if (in_value_path_) return error("a value path inside a value path");
  if (!path.sub_attribute.empty() || path.attribute.empty()) {
    return error("a value path needs a multi-valued attribute");
  }
  ++pos_;  // '['
  in_value_path_ = true;
  ALLOT_ASSIGN_OR_RETURN(FilterNode inner, parse_or(depth));
  in_value_path_ = false;
  skip_spaces();
  if (!at(']')) return error("expected ']'");
  ++pos_;
  FilterNode node{FilterNode::Kind::kValuePath, std::move(path), CompareOp::kPr, nullptr, {}};
  node.children.push_back(std::move(inner));
  return node;
}

Result<AttributePath> Parser::parse_path(bool allow_whole_schema) {
  const size_t start = pos_;
  while (pos_ < text_.size() && is_path_char(text_[pos_])) ++pos_;
  if (pos_ == start) {
    return error_at(start,
                    "expected an attribute path, found " + quote_input(text_.substr(start, 1)));
  }
  Result<AttributePath> path = parse_attribute_path(text_.substr(start, pos_ - start));
  if (!path.ok()) return error_at(start, path.status().message());
  if (path->attribute.empty() && !allow_whole_schema) {
    return error_at(start, "a schema URN without an attribute");
  }
  return path;
}

Result<FilterNode> Parser::parse_comparison(AttributePath path) {
  ALLOT_ASSIGN_OR_RETURN(CompareOp op, parse_operator());
  FilterNode node{FilterNode::Kind::kCompare, std::move(path), op, nullptr, {}};
  if (op == CompareOp::kPr) return node;
  skip_spaces();
  ALLOT_ASSIGN_OR_RETURN(node.value, parse_literal());
  return node;
}

Result<CompareOp> Parser::parse_operator() {
  skip_spaces();
  const size_t start = pos_;
  const std::string_view word = read_word();
  for (const OperatorName& candidate : kOperators) {
    if (iequals(word, candidate.name)) return candidate.op;
  }
  pos_ = start;
  return error("expected an operator (eq ne co sw ew gt ge lt le pr), found " +
               quote_input(text_.substr(start, word.empty() ? 1 : word.size())));
}

Result<nlohmann::json> Parser::parse_literal() {
  if (at('"')) return parse_string_literal();
  const size_t start = pos_;
  if (is_letter(text_.size() > pos_ ? text_[pos_] : '\0')) {
    const std::string_view word = read_word();
    if (iequals(word, "true")) return nlohmann::json(true);
    if (iequals(word, "false")) return nlohmann::json(false);
    if (iequals(word, "null")) return nlohmann::json(nullptr);
    return error_at(start, "expected a value (a string, number, true, false or null), found " +
                               quote_input(word));
  }
  while (pos_ < text_.size() &&
         (std::string_view("0123456789+-.eE").find(text_[pos_]) != std::string_view::npos)) {
    ++pos_;
  }
  if (pos_ == start) return error("expected a value (a string, number, true, false or null)");
  nlohmann::json number =
      nlohmann::json::parse(text_.substr(start, pos_ - start), nullptr, /*allow_exceptions=*/false);
  // 1e999 reads as infinity, which JSON cannot write back: refused.
  if (number.is_discarded() || !number.is_number() ||
      (number.is_number_float() && !std::isfinite(number.get<double>()))) {
    return error_at(start, "invalid number " + quote_input(text_.substr(start, pos_ - start)));
  }
  return number;
}

Result<nlohmann::json> Parser::parse_string_literal() {
  const size_t start = pos_;
  ++pos_;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    pos_ += text_[pos_] == '\\' ? 2 : 1;
  }
  if (pos_ >= text_.size()) return error_at(start, "unterminated string");
  ++pos_;
  nlohmann::json value =
      nlohmann::json::parse(text_.substr(start, pos_ - start), nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded() || !value.is_string()) {
    return error_at(start, "invalid string (JSON escapes and UTF-8 only)");
  }
  return value;
}

Result<PatchPath> Parser::whole_patch_path() {
  skip_spaces();
  ALLOT_ASSIGN_OR_RETURN(AttributePath path, parse_path(/*allow_whole_schema=*/true));
  if (!at('[')) return expect_end(PatchPath{std::move(path), std::nullopt});
  ALLOT_ASSIGN_OR_RETURN(FilterNode node, parse_value_path(std::move(path), 1));
  PatchPath patch_path{std::move(node.path), std::move(node.children.front())};
  if (at('.')) {
    ++pos_;
    const size_t start = pos_;
    while (pos_ < text_.size() && is_path_char(text_[pos_])) ++pos_;
    Result<AttributePath> sub = parse_attribute_path(text_.substr(start, pos_ - start));
    if (!sub.ok() || !sub->schema.empty() || !sub->sub_attribute.empty()) {
      return error_at(start, "expected a sub-attribute name after ']'");
    }
    patch_path.attribute.sub_attribute = sub->attribute;
  }
  return expect_end(std::move(patch_path));
}

}  // namespace

Result<FilterNode> parse_filter(std::string_view text) {
  return Parser(text, ScimType::kInvalidFilter).whole_filter();
}

Result<PatchPath> parse_patch_path(std::string_view text) {
  return Parser(text, ScimType::kInvalidPath).whole_patch_path();
}

}  // namespace allot::scim
