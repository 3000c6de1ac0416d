// Validates rendered Kubernetes objects without a kube-apiserver (none runs
// here), unknown fields refused everywhere as `kubectl apply --validate=strict`
// refuses them: Kueue's objects against the OpenAPI v3 schema of their CRD and
// apiVersion (Kueue v0.19.2's CRDs, read in place) and the CEL rules in it
// (cel-rules.mjs); core objects against the
// upstream Kubernetes schemas that kubernetes-models compiles (types, required
// fields, enums) and the upstream field catalogue of strict-core.mjs (unknown
// fields); a PyTorchJob as pytorchjob.mjs says (no Kubeflow CRD is at hand).
//
//   node validate.mjs CRD_DIR [--expect-invalid] FILE|DIR...
//
// Every YAML document of every file (a DIR: its *.yaml files) is checked;
// with --expect-invalid every document must FAIL (the check's own test), and
// one whose comment says "refused for: TEXT" must fail with TEXT in the reason.
// Prints one line per document and "N passed, N failed"; exits 1 on any failure.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import { parseAllDocuments } from "yaml";
import * as core from "kubernetes-models/v1";
import * as rbac from "kubernetes-models/rbac.authorization.k8s.io/v1";
import * as networking from "kubernetes-models/networking.k8s.io/v1";
import * as batch from "kubernetes-models/batch/v1";
import { ObjectMeta } from "@kubernetes-models/apimachinery/apis/meta/v1";
import { celViolations } from "./cel-rules.mjs";
import { coreTypeName, unknownFields } from "./strict-core.mjs";
import { kPyTorchJobSchema, pytorchCoreParts } from "./pytorchjob.mjs";

const coreModels = {
  "v1": core,
  "rbac.authorization.k8s.io/v1": rbac,
  "networking.k8s.io/v1": networking,
  "batch/v1": batch,
};

// Unknown fields are errors: every object schema with properties (and no
// x-kubernetes-preserve-unknown-fields) gets additionalProperties: false.
function strict(schema) {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) out[key] = strict(value);
  if (out.properties && out.additionalProperties === undefined &&
      !out["x-kubernetes-preserve-unknown-fields"]) {
    out.additionalProperties = false;
  }
  return out;
}

function loadCrds(dir) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const validators = new Map();  // "apiVersion/Kind" -> validate
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort()) {
    const crd = parseAllDocuments(readFileSync(join(dir, file), "utf8"))[0].toJS();
    for (const version of crd.spec.versions) {
      if (!version.served) continue;
      const schema = strict(version.schema.openAPIV3Schema);
      // metadata is the apiserver's: only name and namespace are checked here.
      schema.properties.metadata = { type: "object" };
      const key = `${crd.spec.group}/${version.name}/${crd.spec.names.kind}`;
      validators.set(key, { validate: ajv.compile(schema), rules: version.schema.openAPIV3Schema });
    }
  }
  return validators;
}

function checkDocument(doc, crds) {
  const { apiVersion, kind } = doc;
  if (!doc.metadata || typeof doc.metadata.name !== "string" || !doc.metadata.name) {
    return "metadata.name is missing";
  }
  if (typeof apiVersion === "string" && apiVersion.startsWith("kueue.x-k8s.io/")) {
    const crd = crds.get(`${apiVersion}/${kind}`);
    if (!crd) return `no CRD serves ${apiVersion} ${kind}`;
    if (!crd.validate(doc)) return ajvErrors(crd.validate.errors);
    const violations = celViolations(crd.rules, doc);
    return violations.length === 0 ? null : violations.join("; ");
  }
  if (apiVersion === "kubeflow.org/v1" && kind === "PyTorchJob") return checkPyTorchJob(doc);
  const group = coreModels[apiVersion];
  const Model = group && group[kind];
  const type = coreTypeName(kind);
  if (!Model || !type) return `no upstream schema for ${apiVersion} ${kind}`;
  return checkCore(Model, type, doc, "");
}

// kubernetes-models' validation of `value`, then its unknown fields.
function checkCore(Model, type, value, path) {
  try {
    new Model(value).validate();
  } catch (error) {
    return path ? `${path}: ${error.message}` : error.message;
  }
  const unknown = unknownFields(value, type);
  return unknown.length === 0 ? null : unknown.map((field) => path + field).join("; ");
}

const coreParts = { V1ObjectMeta: ObjectMeta, V1PodTemplateSpec: core.PodTemplateSpec };
const pytorchAjv = new Ajv({ strict: false, allErrors: true });
const validatePyTorchJob = pytorchAjv.compile(kPyTorchJobSchema);

function checkPyTorchJob(doc) {
  if (!validatePyTorchJob(doc)) return ajvErrors(validatePyTorchJob.errors);
  const problems = pytorchCoreParts(doc)
    .map(([type, value, path]) => checkCore(coreParts[type], type, value, path))
    .filter((problem) => problem !== null);
  return problems.length === 0 ? null : problems.join("; ");
}

// ajv's errors, an unknown field named by its path as strict-core.mjs names it.
function ajvErrors(errors) {
  return errors.map((e) => e.keyword === "additionalProperties"
    ? `${e.instancePath}/${e.params.additionalProperty}: unknown field "${e.params.additionalProperty}"`
    : `${e.instancePath || "/"} ${e.message}`).join("; ");
}

function files(paths) {
  return paths.flatMap((path) => statSync(path).isDirectory()
    ? readdirSync(path).filter((f) => f.endsWith(".yaml")).sort().map((f) => join(path, f))
    : [path]);
}

const args = process.argv.slice(2);
const crds = loadCrds(args.shift());
const expectInvalid = args[0] === "--expect-invalid" && args.shift() !== undefined;
let passed = 0;
let failed = 0;
for (const file of files(args)) {
  parseAllDocuments(readFileSync(file, "utf8")).forEach((parsed, index) => {
    const doc = parsed.toJS();
    if (doc === null || doc === undefined) return;
    const problem = checkDocument(doc, crds);
    const name = `${file} #${index + 1} ${doc.apiVersion} ${doc.kind}/${doc.metadata?.name}`;
    // An invalid object's comment may say what its refusal must mention.
    const comment = parsed.commentBefore ?? parsed.contents?.commentBefore ?? "";
    const reason = /refused for: (.+)$/m.exec(comment)?.[1].trim();
    if (expectInvalid && problem !== null && reason && !problem.includes(reason)) {
      failed++;
      console.log(`FAIL ${name}: refused, but not for ${reason}: ${problem}`);
    } else if ((problem === null) !== expectInvalid) {
      passed++;
      console.log(`ok ${name}${problem ? `: refused as expected: ${problem}` : ""}`);
    } else {
      failed++;
      console.log(`FAIL ${name}: ${problem ?? "valid, but it should have been refused"}`);
    }
  });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
