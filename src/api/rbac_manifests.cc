#include "api/rbac_manifests.h"

#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "api/doc_node.h"
#include "api/document_label.h"
#include "api/rbac_documents.h"
#include "api/utf8.h"
#include "api/yaml_shape.h"

namespace allot {
namespace {

Result<RbacPolicy> parse_documents(const std::string& text, std::string_view source) {
  if (Status utf8 = check_utf8(text); !utf8.ok()) {
    return Status(utf8.code(), utf8.message(),
                  source.empty() ? utf8.details() : std::string(source) + ": " + utf8.details());
  }
  ALLOT_RETURN_IF_ERROR(check_yaml_shape(text, source));
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    std::string where(source);
    if (!e.mark.is_null()) {
      where += (where.empty() ? "" : ": ") + std::string("line ") +
               std::to_string(e.mark.line + 1) + ", column " + std::to_string(e.mark.column + 1);
    }
    return invalid_argument("invalid YAML: " + e.msg, std::move(where));
  }
  RbacPolicy policy;
  for (size_t i = 0; i < documents.size(); ++i) {
    if (documents[i].IsNull()) continue;  // an empty document, e.g. after a trailing ---
    const DocNode document(documents[i]);
    Result<RbacObject> object = decode_rbac_document(document);
    if (!object.ok()) return located(object.status(), document_label(document, i + 1, source));
    add_rbac_object(std::move(object).value(), policy);
  }
  return policy;
}

}  // namespace

Result<RbacPolicy> parse_rbac_manifests(std::string_view text, std::string_view source_name) {
  try {
    return parse_documents(std::string(text), source_name);
  } catch (const std::exception& e) {
    return Status(ErrorCode::kInternal, std::string("RBAC manifest parser failed: ") + e.what(),
                  std::string(source_name));
  }
}

}  // namespace allot
