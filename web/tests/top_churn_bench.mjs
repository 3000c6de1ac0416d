// The dashboard's reads after many admissions and requeues (not a ctest
// test; run by hand, docs/benchmarks.md):
//
//   node web/tests/top_churn_bench.mjs ALLOTD [ADMISSIONS] [ROUNDS]
//
// Starts a real allotd (allotd.mjs) with 8 GPUs and a 50 ms cycle, times
// GET /api/v1/top/stats and /top/workloads (wall, and allotd's CPU from
// /proc over 100 requests each) on the fresh allotd, then after ADMISSIONS
// (default 2,000) one-GPU workloads that run `true` (each an admission and a
// release in the usage ledger), then after ROUNDS (default 50) of requeues:
// 8 low-priority workloads hold the GPUs, 8 of a higher priority preempt
// them (each low one pending again, then admitted again once the high ones
// finished).
import { readFileSync } from 'node:fs';
import { client, startAllotd } from './allotd.mjs';

const [binary, admissionsText, roundsText] = process.argv.slice(2);
const admissions = Number(admissionsText || 2000);
const rounds = Number(roundsText || 50);
const allotd = await startAllotd(binary);
const admin = client(allotd.base, allotd.adminToken);
const POLICY = `apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 50ms}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: node}
spec: {cluster: local, flavor: gpu, count: 2, resources: {gpu: 4, cpu: 64, memory: 64Gi}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, preemptionPolicy: Never, preemptionGracePeriod: 1s}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: high}
spec: {value: 100, preemptionPolicy: PreemptLowerPriority}
---
apiVersion: allot/v1
kind: Team
metadata: {name: churn}
spec: {quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}], preemption: {withinTeam: LowerPriority}}
`;

const cpuSeconds = () => {
  const fields = readFileSync(`/proc/${allotd.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function measure(when) {
  const paths = ['/api/v1/top/stats?range=1h', '/api/v1/top/stats?range=30d', '/api/v1/top/workloads?range=24h', '/api/v1/top/workloads?range=30d'];
  for (const path of paths) {
    const n = 100; // allotd's CPU is read in 10 ms ticks: 0.1 ms a request
    const ms = [];
    const cpu0 = cpuSeconds();
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const reply = await admin.get(path);
      if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text}`);
      ms.push(performance.now() - start);
    }
    const cpu = ((cpuSeconds() - cpu0) * 1000) / n;
    ms.sort((a, b) => a - b);
    console.log(`figure: ${when}: GET ${path}: median ${ms[n / 2].toFixed(1)} ms, allotd CPU ${cpu.toFixed(1)} ms a request`);
  }
}

const job = (name, priorityClass, script) => ({
  apiVersion: 'allot/v1',
  kind: 'Workload',
  metadata: { name },
  spec: { priorityClass, podSets: [{ count: 1, resources: { gpu: 1 } }], command: ['/bin/sh', '-c', script] },
});
async function submit(body) {
  const reply = await admin.post('/api/v1/namespaces/churn/workloads', body);
  if (reply.status !== 201) throw new Error(`submit ${body.metadata.name}: ${reply.status} ${reply.text}`);
}
async function count(phase) {
  let n = 0;
  let token = '';
  do {
    const reply = await admin.get(`/api/v1/workloads?phase=${phase}&limit=10000${token ? `&continue=${token}` : ''}`);
    if (reply.status !== 200) throw new Error(`list ${phase} ${token}: ${reply.status} ${reply.text}`);
    n += reply.json.items.length;
    token = reply.json.continue;
  } while (token);
  return n;
}
async function until(probe, what, ms = Number(process.env.CHURN_WAIT_MS || 600000)) {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(200);
  }
}

try {
  const applied = await admin.apply(POLICY);
  if (applied.status !== 200) throw new Error(`apply: ${applied.text}`);
  await measure('fresh');
  let t0 = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < admissions) await submit(job(`run-${next++}`, 'low', 'true'));
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  await until(async () => (await count('Succeeded')) >= admissions, `${admissions} succeeded`);
  console.log(`${admissions} admissions run in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await measure(`after ${admissions} admissions`);
  t0 = Date.now();
  for (let i = 0; i < 8; i++) await submit(job(`hold-${i}`, 'low', 'sleep 3600'));
  await until(async () => (await count('Running')) === 8, 'the 8 low ones run');
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < 8; i++) await submit(job(`urgent-${round}-${i}`, 'high', 'true'));
    await until(async () => (await count('Succeeded')) >= admissions + 8 * (round + 1), `round ${round}: the high ones ran`);
    await until(async () => (await count('Running')) === 8, `round ${round}: the low ones run again`);
  }
  let preempted = 0;
  for (let i = 0; i < 8; i++) {
    const events = (await admin.get(`/api/v1/namespaces/churn/workloads/hold-${i}/events`)).json.items;
    preempted += events.filter((e) => e.reason === 'Preempted').length;
  }
  console.log(`${rounds} rounds of 8 high-priority workloads in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${preempted} preemptions (requeues) of the low ones`);
  await measure(`after ${admissions} admissions and ${preempted} requeues`);
} finally {
  await allotd.stop();
}
