// The figure of issue 16: first meaningful paint of Tasks with N workloads
// stored (default 100,000). Not a ctest test (it takes minutes to store
// them); run by hand:
//
//   node web/tests/tasks_paint_bench.mjs build/release/src/app/allotd [N] [--api-only]
//
// --api-only stops after the API reads (no browser): the A/B of their cost
// against another allotd binary.
// Starts a real allotd (allotd.mjs), submits N workloads to a team without
// quota (they stay Pending) from 32 concurrent clients, then opens Tasks,
// logged in, in headless Chromium and prints the time from navigation to
// the first rows of workloads on screen, and the browser's first-contentful-paint;
// then allotd's CPU over 10 s idle, with no dashboard and with one open (on
// Overview, Tasks, Costs and Hardware). Before the browser: the time and
// allotd's CPU per GET /api/v1/top/stats, /top/hardware and /top/workloads
// with N stored.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { client, startAllotd } from './allotd.mjs';

const args = process.argv.slice(2);
const apiOnly = args.includes('--api-only');
const [binary, countText] = args.filter((a) => a !== '--api-only');
const total = Number(countText || 100000);
const allotd = await startAllotd(binary);
const admin = client(allotd.base, allotd.adminToken);
try {
  const policy = `apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 10s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: node}
spec: {cluster: local, flavor: gpu, count: 1, resources: {gpu: 1, cpu: 4, memory: 4Gi}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10}
---
apiVersion: allot/v1
kind: Team
metadata: {name: bulk}
spec: {quota: [{flavor: gpu, resources: {gpu: {nominal: 0}}}]}
`;
  const applied = await admin.apply(policy);
  if (applied.status !== 200) throw new Error(`apply: ${applied.text}`);
  const t0 = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const reply = await admin.post('/api/v1/namespaces/bulk/workloads', {
        apiVersion: 'allot/v1',
        kind: 'Workload',
        metadata: { name: `job-${i}` },
        spec: { priorityClass: 'low', podSets: [{ count: 1, resources: { gpu: 1 } }], command: ['true'] },
      });
      if (reply.status !== 201) throw new Error(`submit ${i}: ${reply.status} ${reply.text}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  console.log(`stored ${total} workloads in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${allotd.child.pid}/status`, 'utf8'));
  console.log(`figure: allotd resident memory with ${total} stored: ${rss ? (Number(rss[1]) / 1024).toFixed(0) : '?'} MiB`);
  // The Teams and Hardware charts' reads with that many stored: wall time
  // per request and allotd's CPU for them.
  const cpuSeconds = () => {
    const fields = readFileSync(`/proc/${allotd.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const paths = ['/api/v1/top/stats?range=30d', '/api/v1/top/stats?range=1h', '/api/v1/top/hardware?range=30d'];
  // Tasks' chart (an index kept as workloads change; main before issue 16's
  // web11 walked every stored workload here, as /top/stats' waits did).
  paths.push('/api/v1/top/workloads?range=24h', '/api/v1/top/workloads?range=30d');
  for (const path of paths) {
    const n = 20;
    const ms = [];
    const cpu0 = cpuSeconds();
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      const reply = await admin.get(path);
      if (reply.status === 404) break; // an allotd from before /top/hardware (an A/B run)
      if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.text}`);
      ms.push(performance.now() - start);
    }
    if (ms.length < n) {
      console.log(`GET ${path}: not served by this allotd`);
      continue;
    }
    const cpu = ((cpuSeconds() - cpu0) * 1000) / n;
    ms.sort((a, b) => a - b);
    console.log(`figure: GET ${path} with ${total} stored: median ${ms[n / 2].toFixed(1)} ms (${ms[0].toFixed(1)}-${ms[n - 1].toFixed(1)}), allotd CPU ${cpu.toFixed(1)} ms a request, over ${n}`);
  }

  if (!apiOnly) await browserFigures();
} finally {
  await allotd.stop();
}

// The browser's figures: Tasks' first paint and allotd's CPU while idle.
async function browserFigures() {
  const cpuSeconds = () => {
    const fields = readFileSync(`/proc/${allotd.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const browser = await chromium.launch({ executablePath: process.env.ALLOT_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const login = await context.request.post(`${allotd.base}/ui/session`, { data: { token: allotd.adminToken } });
  if (login.status() !== 201) throw new Error(`login: ${login.status()}`);
  const page = await context.newPage();
  for (const round of [1, 2, 3]) {
    const start = Date.now();
    await page.goto(`${allotd.base}/ui/#/tasks`);
    await page.locator('table.tasks tbody tr').first().waitFor({ timeout: 30000 });
    const shown = Date.now() - start;
    const fcp = await page.evaluate(() => {
      const entry = performance.getEntriesByName('first-contentful-paint')[0];
      return entry ? Math.round(entry.startTime) : null;
    });
    const rows = await page.locator('table.tasks tbody tr').count();
    console.log(`figure: round ${round}: Tasks showed ${rows} of ${total} workloads ${shown} ms after navigation (first-contentful-paint ${fcp} ms)`);
    await page.goto('about:blank');
  }
  // allotd's CPU while idle, without and with a dashboard open on Overview.
  const idle = async (what) => {
    const before = cpuSeconds();
    await new Promise((r) => setTimeout(r, 10000));
    console.log(`figure: allotd CPU over 10 s ${what}: ${(cpuSeconds() - before).toFixed(2)} s`);
  };
  await idle('with no dashboard open');
  await page.goto(`${allotd.base}/ui/#/overview`);
  await page.getByText('GPUs total').waitFor();
  await idle('with one dashboard open on Overview');
  await page.goto(`${allotd.base}/ui/#/tasks`);
  await page.locator('table.tasks tbody tr').first().waitFor();
  await idle('with one dashboard open on Tasks');
  await page.goto(`${allotd.base}/ui/#/costs`);
  await page.getByRole('heading', { name: 'Budgets' }).waitFor();
  await idle('with one dashboard open on Costs');
  if ((await admin.get('/api/v1/top/hardware')).status === 200) {
    await page.goto(`${allotd.base}/ui/#/hardware`);
    await page.locator('figure[data-chart="hardware"] svg.chart').waitFor();
    await idle('with one dashboard open on Hardware');
  }
  await browser.close();
}
