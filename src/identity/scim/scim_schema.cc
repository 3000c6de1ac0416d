#include "identity/scim/scim_schema.h"

#include <utility>

#include "identity/scim/scim_names.h"

namespace allot::scim {
namespace {

AttributeDef string_attr(std::string name, std::string description) {
  AttributeDef def;
  def.name = std::move(name);
  def.description = std::move(description);
  return def;
}

AttributeDef typed_attr(std::string name, AttributeType type, std::string description) {
  AttributeDef def = string_attr(std::move(name), std::move(description));
  def.type = type;
  return def;
}

AttributeDef complex_attr(std::string name, bool multi_valued, std::vector<AttributeDef> subs,
                          std::string description) {
  AttributeDef def = typed_attr(std::move(name), AttributeType::kComplex, std::move(description));
  def.multi_valued = multi_valued;
  def.sub_attributes = std::move(subs);
  return def;
}

AttributeDef read_only(AttributeDef def) {
  def.mutability = Mutability::kReadOnly;
  return def;
}

AttributeDef reference_attr(std::string name, std::vector<std::string> types) {
  AttributeDef def = typed_attr(std::move(name), AttributeType::kReference, "A URI.");
  def.reference_types = std::move(types);
  return def;
}

// emails, phoneNumbers, ims, photos, entitlements, roles, x509Certificates.
AttributeDef multi_valued_attr(std::string name, AttributeType value_type,
                               std::string description) {
  return complex_attr(
      std::move(name), true,
      {typed_attr("value", value_type, "The value."),
       string_attr("display", "A human-readable name, for display only."),
       string_attr("type", "A label indicating the attribute's function."),
       typed_attr("primary", AttributeType::kBoolean, "Whether this is the primary value.")},
      std::move(description));
}

SchemaDef make_user_schema() {
  AttributeDef user_name = string_attr("userName", "Unique identifier for the User.");
  user_name.required = true;
  user_name.uniqueness = Uniqueness::kServer;
  AttributeDef password = string_attr("password", "The User's cleartext password.");
  password.mutability = Mutability::kWriteOnly;
  password.returned = Returned::kNever;
  AttributeDef addresses = complex_attr(
      "addresses", true,
      {string_attr("formatted", "The full mailing address."),
       string_attr("streetAddress", "The street address."), string_attr("locality", "The city."),
       string_attr("region", "The state or region."), string_attr("postalCode", "The zip code."),
       string_attr("country", "The country name component."),
       string_attr("type", "work, home or other."),
       typed_attr("primary", AttributeType::kBoolean, "Whether this is the primary address.")},
      "A physical mailing address for this User.");
  AttributeDef groups = read_only(complex_attr(
      "groups", true,
      {read_only(string_attr("value", "The identifier of the User's group.")),
       read_only(reference_attr("$ref", {"Group"})),
       read_only(string_attr("display", "The group's displayName.")),
       read_only(string_attr("type", "direct or indirect."))},
      "The groups the User belongs to (read-only; change a Group's members instead)."));
  AttributeDef name = complex_attr(
      "name", false,
      {string_attr("formatted", "The full name."), string_attr("familyName", "The family name."),
       string_attr("givenName", "The given name."), string_attr("middleName", "The middle name."),
       string_attr("honorificPrefix", "For example Ms."),
       string_attr("honorificSuffix", "For example III.")},
      "The components of the User's real name.");
  return {std::string(kUserSchema),
          "User",
          "User Account",
          {user_name,
           name,
           string_attr("displayName", "The name of the User, suitable for display."),
           string_attr("nickName", "The casual way to address the User."),
           reference_attr("profileUrl", {"external"}),
           string_attr("title", "The User's title."),
           string_attr("userType", "The relationship between the organization and the User."),
           string_attr("preferredLanguage", "The User's preferred written or spoken language."),
           string_attr("locale", "The User's default location."),
           string_attr("timezone", "The User's time zone (Olson database)."),
           typed_attr("active", AttributeType::kBoolean, "The User's administrative status."),
           password,
           multi_valued_attr("emails", AttributeType::kString, "Email addresses for the User."),
           multi_valued_attr("phoneNumbers", AttributeType::kString, "Phone numbers."),
           multi_valued_attr("ims", AttributeType::kString, "Instant messaging addresses."),
           multi_valued_attr("photos", AttributeType::kReference, "URLs of photos."),
           addresses,
           groups,
           multi_valued_attr("entitlements", AttributeType::kString, "Entitlements."),
           multi_valued_attr("roles", AttributeType::kString, "Roles."),
           multi_valued_attr("x509Certificates", AttributeType::kBinary, "Certificates.")}};
}

SchemaDef make_enterprise_schema() {
  AttributeDef manager = complex_attr(
      "manager", false,
      {string_attr("value", "The id of the SCIM resource of the User's manager."),
       reference_attr("$ref", {"User"}),
       read_only(string_attr("displayName", "The displayName of the User's manager."))},
      "The User's manager.");
  return {std::string(kEnterpriseUserSchema),
          "EnterpriseUser",
          "Enterprise User",
          {string_attr("employeeNumber", "A string identifier of the employee."),
           string_attr("costCenter", "The name of a cost center."),
           string_attr("organization", "The name of an organization."),
           string_attr("division", "The name of a division."),
           string_attr("department", "The name of a department."), manager}};
}

SchemaDef make_group_schema() {
  AttributeDef display_name = string_attr("displayName", "A human-readable name for the Group.");
  display_name.required = true;
  display_name.uniqueness = Uniqueness::kServer;
  AttributeDef member_value = string_attr("value", "The id of the member.");
  member_value.mutability = Mutability::kImmutable;
  member_value.case_exact = true;
  AttributeDef members =
      complex_attr("members", true,
                   {member_value, reference_attr("$ref", {"User", "Group"}),
                    string_attr("display", "The member's name, for display only."),
                    string_attr("type", "User or Group.")},
                   "A list of members of the Group.");
  return {std::string(kGroupSchema), "Group", "Group", {display_name, members}};
}

std::vector<AttributeDef> make_common_attributes() {
  AttributeDef id = read_only(string_attr("id", "The service provider's identifier."));
  id.case_exact = true;
  id.returned = Returned::kAlways;
  id.uniqueness = Uniqueness::kServer;
  AttributeDef external_id = string_attr("externalId", "The provisioning client's identifier.");
  external_id.case_exact = true;
  AttributeDef meta = read_only(complex_attr(
      "meta", false,
      {read_only(string_attr("resourceType", "User or Group.")),
       read_only(typed_attr("created", AttributeType::kDateTime, "When it was created.")),
       read_only(typed_attr("lastModified", AttributeType::kDateTime, "When it last changed.")),
       read_only(reference_attr("location", {"User", "Group"})),
       read_only(string_attr("version", "The resource's version (a weak ETag)."))},
      "Resource metadata."));
  for (AttributeDef& sub : meta.sub_attributes) sub.case_exact = true;
  return {id, external_id, meta};
}

const SchemaDef& user_schema() {
  static const SchemaDef schema = make_user_schema();
  return schema;
}
const SchemaDef& enterprise_schema() {
  static const SchemaDef schema = make_enterprise_schema();
  return schema;
}
const SchemaDef& group_schema() {
  static const SchemaDef schema = make_group_schema();
  return schema;
}

const char* type_name(AttributeType type) {
  switch (type) {
    case AttributeType::kString: return "string";
    case AttributeType::kBoolean: return "boolean";
    case AttributeType::kDecimal: return "decimal";
    case AttributeType::kInteger: return "integer";
    case AttributeType::kDateTime: return "dateTime";
    case AttributeType::kReference: return "reference";
    case AttributeType::kComplex: return "complex";
    case AttributeType::kBinary: return "binary";
  }
  return "string";
}

const char* mutability_name(Mutability mutability) {
  switch (mutability) {
    case Mutability::kReadOnly: return "readOnly";
    case Mutability::kReadWrite: return "readWrite";
    case Mutability::kImmutable: return "immutable";
    case Mutability::kWriteOnly: return "writeOnly";
  }
  return "readWrite";
}

const char* returned_name(Returned returned) {
  switch (returned) {
    case Returned::kAlways: return "always";
    case Returned::kNever: return "never";
    case Returned::kDefault: return "default";
    case Returned::kRequest: return "request";
  }
  return "default";
}

const char* uniqueness_name(Uniqueness uniqueness) {
  switch (uniqueness) {
    case Uniqueness::kNone: return "none";
    case Uniqueness::kServer: return "server";
    case Uniqueness::kGlobal: return "global";
  }
  return "none";
}

nlohmann::json attribute_to_json(const AttributeDef& def) {
  nlohmann::json out = {{"name", def.name},
                        {"type", type_name(def.type)},
                        {"multiValued", def.multi_valued},
                        {"description", def.description},
                        {"required", def.required},
                        {"mutability", mutability_name(def.mutability)},
                        {"returned", returned_name(def.returned)}};
  if (def.type == AttributeType::kString || def.type == AttributeType::kReference ||
      def.type == AttributeType::kBinary) {
    out["caseExact"] = def.case_exact;
    out["uniqueness"] = uniqueness_name(def.uniqueness);
  }
  if (def.type == AttributeType::kReference) out["referenceTypes"] = def.reference_types;
  if (def.type == AttributeType::kComplex) {
    nlohmann::json subs = nlohmann::json::array();
    for (const AttributeDef& sub : def.sub_attributes) subs.push_back(attribute_to_json(sub));
    out["subAttributes"] = std::move(subs);
  }
  return out;
}

}  // namespace

const AttributeDef* AttributeDef::find_sub(std::string_view sub_name) const {
  for (const AttributeDef& sub : sub_attributes) {
    if (iequals(sub.name, sub_name)) return &sub;
  }
  return nullptr;
}

const AttributeDef* SchemaDef::find(std::string_view attribute_name) const {
  for (const AttributeDef& def : attributes) {
    if (iequals(def.name, attribute_name)) return &def;
  }
  return nullptr;
}

std::string_view resource_type_name(ResourceKind kind) {
  return kind == ResourceKind::kUser ? "User" : "Group";
}

std::string_view resource_endpoint(ResourceKind kind) {
  return kind == ResourceKind::kUser ? "/Users" : "/Groups";
}

const SchemaDef& core_schema(ResourceKind kind) {
  return kind == ResourceKind::kUser ? user_schema() : group_schema();
}

const std::vector<const SchemaDef*>& extension_schemas(ResourceKind kind) {
  static const std::vector<const SchemaDef*> user_extensions = {&enterprise_schema()};
  static const std::vector<const SchemaDef*> none;
  return kind == ResourceKind::kUser ? user_extensions : none;
}

const std::vector<AttributeDef>& common_attributes() {
  static const std::vector<AttributeDef> common = make_common_attributes();
  return common;
}

const std::vector<const SchemaDef*>& all_schemas() {
  static const std::vector<const SchemaDef*> schemas = {&user_schema(), &enterprise_schema(),
                                                        &group_schema()};
  return schemas;
}

const SchemaDef* find_schema(std::string_view urn) {
  for (const SchemaDef* schema : all_schemas()) {
    if (iequals(schema->id, urn)) return schema;
  }
  return nullptr;
}

nlohmann::json schema_to_json(const SchemaDef& schema, std::string_view base_location) {
  nlohmann::json attributes = nlohmann::json::array();
  for (const AttributeDef& def : schema.attributes) attributes.push_back(attribute_to_json(def));
  return {{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:Schema"}},
          {"id", schema.id},
          {"name", schema.name},
          {"description", schema.description},
          {"attributes", std::move(attributes)},
          {"meta",
           {{"resourceType", "Schema"},
            {"location", std::string(base_location) + "/Schemas/" + schema.id}}}};
}

}  // namespace allot::scim
