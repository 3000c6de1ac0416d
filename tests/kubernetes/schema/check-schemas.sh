#!/usr/bin/env bash
# The schema check of `allot export kubernetes` (ctest kubernetes_schema_check):
# no kube-apiserver runs here (Debian packages none), so every rendered object
# is validated against the schema the apiserver would use: Kueue's objects
# against the CRDs of Kueue v0.19.2 in ../shared/data/kubernetes/ (read in
# place) and their CEL rules, core objects against the upstream schemas of npm's kubernetes-models
# and the upstream field catalogue of @kubernetes/client-node, unknown fields
# refused everywhere (validate.mjs). Renders the example organisation for plain
# and hyperpod names and both Kueue API versions, two Jobs and a PyTorchJob,
# checks the golden files,
# and checks that the validator refuses the objects of invalid-objects.yaml.
#
#   tests/kubernetes/schema/check-schemas.sh ALLOT_BIN SOURCE_DIR WORK_DIR
#
# Installs the pinned packages (package-lock.json) with `npm ci` in WORK_DIR
# when the lock file changed. Needs Node.js and npm (scripts/install-deps.sh).
set -euo pipefail
[[ $# -eq 3 ]] || { echo "usage: $0 ALLOT_BIN SOURCE_DIR WORK_DIR" >&2; exit 2; }
allot="$1"
src="$(realpath "$2")"
work="$(realpath -m "$3")"
here="${src}/tests/kubernetes/schema"
crds="${src}/../shared/data/kubernetes/kueue-v0.19.2"
[[ -d "${crds}" ]] || { echo "check-schemas: Kueue's CRDs are missing: ${crds}" >&2; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null ||
  { echo "check-schemas: node and npm are needed (scripts/install-deps.sh)" >&2; exit 1; }

mkdir -p "${work}"
cp "${here}/package.json" "${here}"/*.mjs "${work}/"
if ! cmp -s "${here}/package-lock.json" "${work}/package-lock.json" || [[ ! -d "${work}/node_modules" ]]; then
  cp "${here}/package-lock.json" "${work}/"
  # --prefer-offline trusts the cached package lists, which may predate a
  # pinned version: then the registry is asked again.
  (cd "${work}" && { npm ci --no-audit --no-fund --prefer-offline >"${work}/npm.log" 2>&1 ||
    npm ci --no-audit --no-fund >>"${work}/npm.log" 2>&1; }) ||
    { cat "${work}/npm.log" >&2; exit 1; }
fi

out="${work}/rendered"
rm -rf "${out}"
mkdir -p "${out}/workloads"
org=(-f "${src}/examples/org/policy.yaml" -f "${src}/examples/org/rbac.yaml")
for naming in plain hyperpod; do
  for api in v1beta1 v1beta2; do
    "${allot}" export kubernetes "${org[@]}" --flavor "${naming}" --kueue-api "${api}" \
      --out "${out}/${naming}-${api}" >/dev/null
  done
done
"${allot}" export kubernetes workload sweep -n research -f "${src}/examples/org/policy.yaml" \
  -f "${src}/examples/org/demo-workloads.yaml" --image ubuntu:24.04 >"${out}/workloads/sweep.yaml"
"${allot}" export kubernetes workload notes -n research -f "${src}/examples/org/policy.yaml" \
  -f "${src}/examples/org/demo-workloads.yaml" --image ubuntu:24.04 --flavor hyperpod \
  >"${out}/workloads/notes.yaml"
"${allot}" export kubernetes workload llama-pretrain -n llm-training -f "${src}/examples/org/policy.yaml" \
  -f "${src}/examples/org/demo-pretrain.yaml" --image ubuntu:24.04 >"${out}/workloads/llama-pretrain.yaml"

echo "== rendered objects and golden files"
# (a PyTorchJob: Kubeflow's CRD is not among the data here; pytorchjob.mjs says what is checked)
node "${work}/validate.mjs" "${crds}" "${out}"/*-v1beta* "${out}/workloads" \
  "${src}"/tests/kubernetes/golden/*.yaml
echo "== the validator refuses invalid objects"
node "${work}/validate.mjs" "${crds}" --expect-invalid "${src}/tests/kubernetes/data/invalid-objects.yaml"
