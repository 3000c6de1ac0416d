// The SCIM schemas allotd serves (RFC 7643 sections 4 and 8.7): the core
// User with the enterprise extension, and the Group. The filter evaluator,
// PATCH and the resource normalizer read attribute definitions from here
// (type, multiValued, caseExact, mutability, returned, uniqueness).
//
// Contract: the definitions are immutable statics built on first use;
// every function returns references to them, valid for the program's life.
// Names are matched case-insensitively. Thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace allot::scim {

inline constexpr std::string_view kUserSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
inline constexpr std::string_view kEnterpriseUserSchema =
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
inline constexpr std::string_view kGroupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";

enum class ResourceKind { kUser, kGroup };

enum class AttributeType {
  kString,
  kBoolean,
  kDecimal,
  kInteger,
  kDateTime,
  kReference,
  kComplex,
  kBinary
};
enum class Mutability { kReadOnly, kReadWrite, kImmutable, kWriteOnly };
enum class Returned { kAlways, kNever, kDefault, kRequest };
enum class Uniqueness { kNone, kServer, kGlobal };

struct AttributeDef {
  std::string name;  // canonical spelling: "givenName", "$ref"
  AttributeType type = AttributeType::kString;
  bool multi_valued = false;
  bool required = false;
  bool case_exact = false;
  Mutability mutability = Mutability::kReadWrite;
  Returned returned = Returned::kDefault;
  Uniqueness uniqueness = Uniqueness::kNone;
  std::string description;
  std::vector<std::string> reference_types;  // for kReference
  std::vector<AttributeDef> sub_attributes;  // for kComplex

  // The sub-attribute named `name` (any case), or nullptr.
  [[nodiscard]] const AttributeDef* find_sub(std::string_view sub_name) const;
};

struct SchemaDef {
  std::string id;  // the URN
  std::string name;
  std::string description;
  std::vector<AttributeDef> attributes;

  [[nodiscard]] const AttributeDef* find(std::string_view attribute_name) const;
};

// "User" or "Group" (meta.resourceType, /ResourceTypes).
std::string_view resource_type_name(ResourceKind kind);
// "/Users" or "/Groups".
std::string_view resource_endpoint(ResourceKind kind);

// The core schema of a resource kind and its extensions (enterprise for User).
const SchemaDef& core_schema(ResourceKind kind);
const std::vector<const SchemaDef*>& extension_schemas(ResourceKind kind);
// id, externalId and meta (RFC 7643 section 3.1), shared by every kind.
const std::vector<AttributeDef>& common_attributes();

// Every schema (User, enterprise User, Group), for /Schemas.
const std::vector<const SchemaDef*>& all_schemas();

// The schema whose URN equals `urn` (any case), or nullptr.
const SchemaDef* find_schema(std::string_view urn);

// The RFC 7643 section 7 representation of a schema (as /Schemas returns it).
nlohmann::json schema_to_json(const SchemaDef& schema, std::string_view base_location);

}  // namespace allot::scim
