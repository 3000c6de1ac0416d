#!/usr/bin/env bash
# The run command: installs what is missing, builds (release) and runs allot's
# main job on the embedded default: allotd with SQLite and the local executor
# on loopback, the example organisation of examples/org, and a demo mix of
# workloads that run as real processes under each team's Unix identity.
#
# allotd keeps running afterwards; the script prints what to try next and how
# to stop it. ALLOT_DEMO_DIR (default .allot-demo) holds its data and logs;
# ALLOT_DEMO_PORT (default 7800) its port.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

echo "== configure (release)"
cmake --preset release
echo "== build (release)"
cmake --build build/release --target allot allotd -j"$(nproc)"

allot=./build/release/src/app/allot
allotd=./build/release/src/app/allotd
data_dir="${ALLOT_DEMO_DIR:-.allot-demo}"
port="${ALLOT_DEMO_PORT:-7800}"
server="http://127.0.0.1:${port}"
export ALLOT_SERVER="${server}"

answers() {
  python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)" \
    "${server}/readyz" >/dev/null 2>&1
}

if answers; then
  echo "An allotd already answers on ${server}; stop it first (kill \$(cat ${data_dir}/allotd.pid))." >&2
  exit 1
fi

# A fresh demo each time: the previous demo's state is moved aside.
if [[ -d "${data_dir}" ]]; then
  rm -rf "${data_dir}.previous"
  mv "${data_dir}" "${data_dir}.previous"
fi
mkdir -p "${data_dir}"

data_path="$(cd "${data_dir}" && pwd)"
# The directory's bearer token (what Entra ID or Okta would be given), 0600.
(umask 077 && head -c 32 /dev/urandom | base64 | tr -d '\n' >"${data_dir}/scim-token")
echo "== start allotd on ${server} (data in ${data_dir}; SCIM at ${server}/scim/v2)"
# The node health check: a node is unhealthy while DATA/fail-<node> exists.
"${allotd}" --listen "127.0.0.1:${port}" --data-dir "${data_dir}" \
  --scim-token-file "${data_dir}/scim-token" \
  --health-check "test ! -e '${data_path}'/fail-\$ALLOT_NODE" --health-interval 5s \
  >"${data_dir}/allotd.log" 2>&1 &
echo $! >"${data_dir}/allotd.pid"
for _ in $(seq 1 100); do
  if answers && [[ -s "${data_dir}/admin-token" ]]; then break; fi
  sleep 0.1
done

# Deny by default: allotd wrote the first administrator's token, once; the
# demo's logins are kept in its own folder, not in ~/.config/allot.
export ALLOT_CREDENTIALS="${data_path}/credentials.json"
echo "== allot login --token-file ${data_dir}/admin-token (the first administrator)"
"${allot}" login --token-file "${data_dir}/admin-token"
"${allot}" whoami

echo "== allot apply -f examples/org/policy.yaml"
"${allot}" apply -f examples/org/policy.yaml
echo "== allot apply -f examples/org/rbac.yaml (the teams' directory groups bound to their roles)"
"${allot}" apply -f examples/org/rbac.yaml
"${allot}" get rolebindings -A
echo "== the directory provisions the organisation's people and groups (SCIM, as Entra ID would)"
# Each person gets a random password (Okta's password sync), kept 0600 in
# DATA/passwords/<user> for the demo's local logins.
python3 - "${server}" "${data_dir}" <<'PEOPLE'
import base64, json, os, sys, urllib.request
server, data_dir = sys.argv[1], sys.argv[2]
token = open(os.path.join(data_dir, "scim-token")).read().strip()
def scim(path, body):
    request = urllib.request.Request(server + "/scim/v2" + path, json.dumps(body).encode(),
        {"Authorization": "Bearer " + token, "Content-Type": "application/scim+json"})
    return json.load(urllib.request.urlopen(request, timeout=10))
people = {"ana": ["research-engineers"], "raj": ["research-leads"],
          "lin": ["llm-training-engineers"], "lea": ["llm-training-leads"],
          "vic": ["vision-inference-viewers"], "fay": ["finance"], "pat": ["platform-admins"]}
os.makedirs(os.path.join(data_dir, "passwords"), mode=0o700, exist_ok=True)
ids = {}
for user in people:
    password = base64.urlsafe_b64encode(os.urandom(18)).decode()
    path = os.path.join(data_dir, "passwords", user)
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write(password + "\n")
    ids[user] = scim("/Users", {"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
        "userName": user, "active": True, "password": password,
        "emails": [{"type": "work", "primary": True, "value": user + "@example.com"}]})["id"]
groups = sorted({g for gs in people.values() for g in gs})
for group in groups:
    members = [{"value": ids[u]} for u, gs in people.items() if group in gs]
    scim("/Groups", {"schemas": ["urn:ietf:params:scim:schemas:core:2.0:Group"],
        "displayName": group, "members": members})
print("   users: " + ", ".join(f"{u} ({', '.join(gs)})" for u, gs in people.items()))
PEOPLE

echo "== allot submit -f examples/org/demo-workloads.yaml"
"${allot}" submit -f examples/org/demo-workloads.yaml
sleep 3
echo "== research borrows the idle H100s:"
"${allot}" get workloads -A
"${allot}" top
echo "== allot submit -f examples/org/demo-pretrain.yaml (llm-training reclaims its guarantee)"
"${allot}" submit -f examples/org/demo-pretrain.yaml
sleep 8
"${allot}" get workloads -A -o wide
echo "== allot describe workload sweep -n research"
"${allot}" describe workload sweep -n research

echo "== ana (research-engineers) logs in with her password: she sees research's work only,"
echo "   and may not touch llm-training's"
member_credentials="${data_path}/research-member.json"
ALLOT_CREDENTIALS="${member_credentials}" "${allot}" login --local --username ana \
  --password-stdin --team research --role team-member <"${data_dir}/passwords/ana"
ALLOT_CREDENTIALS="${member_credentials}" "${allot}" whoami
ALLOT_CREDENTIALS="${member_credentials}" "${allot}" get workloads -A
echo "   (what preempted research's sweep is \"another team's workload\" to her)"
ALLOT_CREDENTIALS="${member_credentials}" "${allot}" describe workload sweep -n research | grep -i preempt || true
ALLOT_CREDENTIALS="${member_credentials}" "${allot}" auth can-i cancel workloads -n llm-training || true
ALLOT_CREDENTIALS="${member_credentials}" "${allot}" cancel llama-pretrain -n llm-training || true

cat <<NEXT

allotd runs on ${server} (pid $(cat "${data_dir}/allotd.pid")); its data, team folders and
pod logs are in ${data_dir} (logs under ${data_dir}/logs, allotd's own log in
${data_dir}/allotd.log). What to try next:

  ${server}/ui/                 the web dashboard (docs/web.md): log in as ana with the
                                           password in ${data_dir}/passwords/ana, team research,
                                           role team-member; or with the API token in
                                           ${data_dir}/admin-token
  export ALLOT_SERVER=${server} ALLOT_CREDENTIALS=${data_path}/credentials.json
  ${allot} get workloads -A -o wide        every workload, where it runs, why
  ${allot} top                             quota, usage, borrowed and lent per team
  ${allot} logs llama-pretrain -n llm-training -f
  ${allot} describe workload sweep -n research
  ${allot} run --team research --gpus 2 -- /bin/sh -c 'echo \$CUDA_VISIBLE_DEVICES; id'
  ${allot} get nodes
  touch ${data_dir}/fail-h100-pool-0        fail a node: its work is requeued elsewhere
  ${allot} apply -f examples/org/policy.yaml --dry-run
  ${allot} whoami; ${allot} auth can-i delete teams
  ${allot} login --local --username raj --password-stdin --team research --role team-admin \\
      <${data_dir}/passwords/raj         a team lead (people and groups come from SCIM)
  curl -s -H "Authorization: Bearer \$(cat ${data_dir}/scim-token)" ${server}/scim/v2/Groups
                                           the directory, as Entra ID or Okta provisions it
  curl -s -H "Authorization: Bearer \$(cat ${data_dir}/admin-token)" ${server}/api/v1/teams
                                           the REST API (docs/api.md)
  ${allot} simulate --scenario examples/scenarios/seed-reclaim.yaml   a what-if simulation

Stop allotd: kill \$(cat ${data_dir}/allotd.pid)
NEXT
