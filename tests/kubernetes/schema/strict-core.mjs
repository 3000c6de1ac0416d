// Unknown-field check for core Kubernetes objects: kubernetes-models validates
// types, required fields and enums against the upstream OpenAPI schemas but
// lets unknown fields through, which `kubectl apply --validate=strict` (and
// the apiserver's fieldValidation=Strict) refuses. This walks an object along
// the field catalogue that @kubernetes/client-node generates from the same
// upstream OpenAPI spec (each model's attributeTypeMap: JSON name and type of
// every field) and reports every field that the catalogue does not know.
//
//   unknownFields(object, "V1Namespace") -> ["/spec/finalizerz", ...]
import * as models from "@kubernetes/client-node/dist/gen/models/ObjectSerializer.js";

// Types that hold no fields of their own to check.
const kLeafTypes = new Set([
  "string", "number", "boolean", "any", "object", "Date", "IntOrString", "V1MicroTime",
]);

function collect(value, type, path, out) {
  if (value === null || value === undefined || kLeafTypes.has(type)) return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (Array.isArray(value)) value.forEach((item, i) => collect(item, array[1], `${path}/${i}`, out));
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (typeof value === "object") {
      for (const [key, item] of Object.entries(value)) collect(item, map[1], `${path}/${key}`, out);
    }
    return;
  }
  const model = models[type];
  if (!model || !Array.isArray(model.attributeTypeMap)) {
    out.push(`${path || "/"}: no field catalogue for type ${type}`);
    return;
  }
  if (typeof value !== "object" || Array.isArray(value)) return;  // kubernetes-models reports it
  const fields = new Map(model.attributeTypeMap.map((a) => [a.baseName, a.type]));
  for (const [key, item] of Object.entries(value)) {
    if (!fields.has(key)) {
      out.push(`${path}/${key}: unknown field "${key}" of ${type}`);
      continue;
    }
    collect(item, fields.get(key), `${path}/${key}`, out);
  }
}

// The unknown fields of `object` read as the upstream type `type` (V1Job...).
export function unknownFields(object, type) {
  const out = [];
  collect(object, type, "", out);
  return out;
}

// The catalogue's type of a top-level core object: V1<Kind> ("V1Role").
export function coreTypeName(kind) {
  const type = `V1${kind}`;
  return models[type] ? type : null;
}
