// The CEL rules of a CRD schema (x-kubernetes-validations), evaluated as the
// apiserver evaluates them when an object is created: each rule with `self`
// bound to the value at its place in the schema. Transition rules (those that
// read oldSelf) only run on an update and are skipped. A rule that fails to
// evaluate (a missing key, say) fails, as it does in the apiserver.
//
//   celViolations(schema, object) -> ["/spec: <message>", ...]
import { evaluate } from "@marcbachmann/cel-js";

function check(schema, value, path, out) {
  if (!schema || typeof schema !== "object" || value === undefined || value === null) return;
  for (const validation of schema["x-kubernetes-validations"] ?? []) {
    if (/\boldSelf\b/.test(validation.rule)) continue;
    let result;
    try {
      result = evaluate(validation.rule, { self: value });
    } catch (error) {
      const reason = error.message.split("\n")[0];
      out.push(`${path || "/"}: ${validation.message ?? validation.rule} (${reason})`);
      continue;
    }
    if (result !== true) out.push(`${path || "/"}: ${validation.message ?? validation.rule}`);
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => check(schema.items, item, `${path}/${i}`, out));
  } else if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const child = schema.properties?.[key] ??
        (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      check(child, item, `${path}/${key}`, out);
    }
  }
}

export function celViolations(schema, object) {
  const out = [];
  check(schema, object, "", out);
  return out;
}
