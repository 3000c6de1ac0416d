// The Costs view's measured efficiency in a real headless Chromium against a
// real allotd whose local backend reads GPU utilisation through the tests'
// fake NVML (tests/backends/local/fake_nvml.cc: four GPUs, each 25 % busy,
// read every 100 ms, as GpuMetricsScrapeTest does):
//
//   node web/tests/ui_efficiency_test.mjs ALLOTD_BINARY FAKE_NVML_LIBRARY ARTIFACT_DIR
//
// Checks: once the usage report has measured GPU time for alpha's workload
// (2 GPUs), the Costs row of alpha and the totals show its measured GPU-hours
// and a GPU utilisation of 25 % (not "not measured"); the CSV download ends
// with measuredGpuHours (a positive number, at most the row's GPU-hours) and
// gpuUtilization 0.25, as `allot report usage -o csv` does; no serious
// axe-core violation; no console error. Hardware's chart over time (GET
// /api/v1/top/hardware, range 1 h) draws the utilisation the API measured:
// 25 % in the buckets measured. Then allotd restarts on the same data: the
// time it was down is missing data (`missingData`), drawn as grey bands
// (rect.bar-missing, "no data" in the bucket's title) with a line saying so
// on Hardware's chart and on Teams' chart of alpha. Exits non-zero on a failure.
import { chromium } from 'playwright-core';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, startAllotd } from './allotd.mjs';
import { POLICY, workload } from './ui_fixtures.mjs';

const [binary, nvml, artifacts] = process.argv.slice(2);
if (!binary || !nvml || !artifacts) {
  console.error('usage: node ui_efficiency_test.mjs ALLOTD_BINARY FAKE_NVML_LIBRARY ARTIFACT_DIR');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const CHROMIUM = process.env.ALLOT_CHROMIUM || '/usr/bin/chromium';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

// The fake NVML's GPUs (one line each: uuid, percent busy, memory used and total, name).
function fakeNvmlFile() {
  const dir = mkdtempSync(join(tmpdir(), 'allot-web-nvml-'));
  const gpus = [0, 1, 2, 3].map((i) => `GPU-fake-${i} 25 1073741824 85899345920 Fake GPU\n`).join('');
  writeFileSync(join(dir, 'fake-nvml.txt'), gpus);
  return { dir, file: join(dir, 'fake-nvml.txt') };
}

// The usage report since `from`, once its totals hold measured GPU time
// (the meter records an interval per sample after a GPU's first one).
async function measuredReport(admin, from) {
  const deadline = Date.now() + 30000;
  let report;
  while (Date.now() < deadline) {
    report = await admin.get(`/api/v1/reports/usage?by=team&from=${from}&to=2100-01-01T00:00:00Z`);
    const measured = report.json && report.json.totals && report.json.totals.measuredGpuHours;
    if (report.status === 200 && typeof measured === 'number' && measured * 3600 >= 0.5) return report.json;
    await new Promise((r) => setTimeout(r, 200)); // allotd's own pace: the admission loop's passes
  }
  throw new Error(`no measured GPU time: ${report && report.text}`);
}

async function costsChecks(page) {
  await page.evaluate(() => (location.hash = '#/costs'));
  await page.getByRole('heading', { level: 1, name: 'Costs' }).waitFor();
  const row = page.locator('tr[data-team="alpha"]');
  await row.getByTestId('utilization').getByText('25 %').waitFor();
  await page.locator('tfoot').getByTestId('utilization').getByText('25 %').waitFor();
  for (const where of [row, page.locator('tfoot')]) {
    const measured = await where.getByTestId('measured').textContent();
    assert(/GPU-h$/.test(measured) && measured !== '0 GPU-h', `measured GPU-hours shown: ${measured}`);
  }
  await page.screenshot({ path: join(artifacts, 'costs-measured.png'), fullPage: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
  const header = csv[0].split(',');
  assert(header.slice(-3).join(',') === 'currency,measuredGpuHours,gpuUtilization', `CSV header: ${csv[0]}`);
  for (const line of csv.slice(1)) {
    const cells = line.split(',');
    const gpuHours = Number(cells[header.indexOf('gpuHours')]);
    const measured = Number(cells[header.indexOf('measuredGpuHours')]);
    assert(measured > 0 && measured <= gpuHours, `CSV measured GPU-hours in (0, ${gpuHours}]: ${line}`);
    assert(cells[header.indexOf('gpuUtilization')] === '0.25', `CSV utilisation 0.25: ${line}`);
  }
  await page.evaluate(`${axeSource}\n;0`);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!serious.length, `axe: ${serious.map((v) => v.id).join('; ')}`);
}

async function hardwareUtilizationChecks(page, admin) {
  await page.evaluate(() => (location.hash = '#/hardware'));
  await page.getByRole('heading', { level: 1, name: 'Hardware' }).waitFor();
  await page.locator('section[aria-labelledby="hardware-over-time"]').getByRole('button', { name: '1 h' }).click();
  const chart = page.locator('figure[data-chart="utilization"] svg.chart');
  // The range's 60 buckets drawn (the chart may first show the range before it).
  await page.waitForFunction(() => document.querySelectorAll('figure[data-chart="utilization"] svg.chart g > title').length === 60);
  const stats = (await admin.get('/api/v1/top/hardware?range=1h')).json;
  const measured = stats.buckets.filter((b) => b.utilization !== null);
  assert(measured.length && measured.every((b) => Math.abs(b.utilization - 0.25) < 1e-9), `the API's utilisation: ${JSON.stringify(measured)}`);
  const titles = await chart.locator('g > title').allTextContents();
  assert(titles.length === 60, `60 buckets drawn: ${titles.length}`);
  assert(titles.some((t) => /: 25 % utilised$/.test(t)), `a bucket drawn at 25 %: ${titles.slice(-3).join(' | ')}`);
  assert(titles.some((t) => /: not measured$/.test(t)), 'the buckets before it: not measured');
  await page.screenshot({ path: join(artifacts, 'hardware-utilization.png'), fullPage: true });
}

async function logInAsAdmin(page, allotd) {
  await page.goto(`${allotd.base}/ui/`);
  await page.getByRole('button', { name: 'Use an API token instead' }).click();
  await page.getByLabel('API token').fill(allotd.adminToken);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

async function missingDataChecks(browser, allotd, errors) {
  await allotd.restart();
  const admin = client(allotd.base, allotd.adminToken);
  const hw = (await admin.get('/api/v1/top/hardware?range=1h')).json;
  assert(hw.missingData.length === 1, `one period without data after the restart: ${JSON.stringify(hw.missingData)}`);
  assert(hw.buckets.some((b) => b.missing > 0), 'a bucket with missing data');
  const stats = (await admin.get('/api/v1/top/stats?range=1h')).json;
  assert(JSON.stringify(stats.missingData) === JSON.stringify(hw.missingData), `/top/stats: ${JSON.stringify(stats.missingData)}`);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(10000);
  page.on('pageerror', (error) => errors.push(String(error)));
  await logInAsAdmin(page, allotd);
  await page.evaluate(() => (location.hash = '#/hardware'));
  const section = page.locator('section[aria-labelledby="hardware-over-time"]');
  await section.getByRole('button', { name: '1 h' }).click();
  await section.getByText('one period without data in this range (allotd was down)').waitFor();
  // Drawn once the 1 h range's data is in. A re-render may replace the chart
  // between two reads from here, so the band and its title are read in one
  // step in the page: the title of the first grey band once there is one.
  const bandTitle = await (await page.waitForFunction(() => {
    const bar = document.querySelector('figure[data-chart="hardware"] g[data-missing="true"] rect.bar-missing');
    const title = bar && bar.closest('g[data-missing="true"]').querySelector('title');
    return title ? title.textContent : null;
  })).jsonValue();
  assert(typeof bandTitle === 'string', 'a grey band on Hardware');
  assert(/no data for \d+ % of it \(allotd was down\)$/.test(bandTitle), `the band's title: ${bandTitle}`);
  await page.screenshot({ path: join(artifacts, 'hardware-missing-data.png'), fullPage: true });
  await page.evaluate(() => (location.hash = '#/teams'));
  const teams = page.locator('section[aria-labelledby="over-time"]');
  await teams.getByRole('button', { name: '1 h' }).click();
  await teams.getByText('one period without data in this range (allotd was down)').waitFor();
  await page.locator('figure[data-series="alpha"] g[data-missing="true"] rect.bar-missing').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'teams-missing-data.png'), fullPage: true });
  await page.evaluate(`${axeSource}\n;0`);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!serious.length, `axe: ${serious.map((v) => v.id).join('; ')}`);
}

async function main() {
  const nvmlFile = fakeNvmlFile();
  process.env.ALLOT_FAKE_NVML_FILE = nvmlFile.file; // allotd inherits it
  const allotd = await startAllotd(binary, ['--nvml-library', nvml, '--gpu-sample-interval', '100ms']);
  const admin = client(allotd.base, allotd.adminToken);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const from = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const applied = await admin.apply(POLICY);
    assert(applied.status === 200, `apply: ${applied.status} ${applied.text}`);
    const submitted = await admin.post('/api/v1/namespaces/alpha/workloads', workload('alpha-measured', 2, 'sleep 600'));
    assert(submitted.status === 201, `submit: ${submitted.status} ${submitted.text}`);
    const report = await measuredReport(admin, from);
    assert(report.rows.length === 1 && report.rows[0].gpuUtilization === 0.25, `report: ${JSON.stringify(report)}`);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(10000);
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${allotd.base}/ui/`);
    await page.getByRole('button', { name: 'Use an API token instead' }).click();
    await page.getByLabel('API token').fill(allotd.adminToken);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await costsChecks(page);
    await hardwareUtilizationChecks(page, admin);
    await missingDataChecks(browser, allotd, errors);
    assert(!errors.length, errors.join('\n'));
  } finally {
    await browser.close();
    await allotd.stop();
    rmSync(nvmlFile.dir, { recursive: true, force: true });
  }
}

const started = Date.now();
try {
  await main();
  console.log(`passed: measured efficiency on Costs in ${Date.now() - started} ms; screenshots in ${artifacts}`);
  process.exit(0);
} catch (error) {
  console.log(`FAIL ${error && error.stack ? error.stack : error}`);
  process.exit(1);
}
