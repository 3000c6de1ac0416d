// The HTML report of `allot simulate --trace --report` (issue 18, item 5) in
// a real headless Chromium (Debian's chromium, driven by playwright-core).
//
//   node web/tests/report_test.mjs ALLOT_BINARY ARTIFACT_DIR
//
// Replays a hand-made trace with contention through three policies
// (hard-quota, borrow and a copy of borrow, so that two policies coincide)
// at load factors 1 and 2, once, writing the JSON output and the report.
// Then, at 1280 px and at a phone's 390 px: every figure the page shows
// (summary and per-team tables, each point of the sweep) equals the JSON
// output's value at the precision shown; every team and policy of the JSON
// has its row; every chart is drawn by the page's inlined script (the
// dashboard's chart module, web/src/charts) with every policy (lines that
// coincide are one line naming both), one chart per spec of the page's data
// and no placeholder left; legends lie inside their chart and the page never
// scrolls sideways; no console error (a Content-Security-Policy violation
// is one), no request but the file itself; the page's policy forbids any
// other script; axe-core finds no serious or critical violation.
// Screenshots go to ARTIFACT_DIR. Exits non-zero on the first failure.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [binary, artifacts] = process.argv.slice(2);
if (!binary || !artifacts) {
  console.error('usage: node report_test.mjs ALLOT_BINARY ARTIFACT_DIR');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const CHROMIUM = process.env.ALLOT_CHROMIUM || '/usr/bin/chromium';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function fail(message) {
  throw new Error(message);
}

function policyYaml(borrow) {
  const quota = borrow ? '{nominal: 8}' : '{nominal: 8, borrowingLimit: 0, lendingLimit: 0}';
  const preemption = borrow ? 'Any' : 'Never';
  let text = `apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: c}
spec: {backend: local, scheduling: {fairSharing: false, cycle: 10s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: c, flavor: gpu, count: 3, resources: {gpu: 8}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 100, preemptionPolicy: PreemptLowerPriority, preemptionGracePeriod: 30s}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
`;
  for (const team of ['alpha', 'beta', 'gamma']) {
    text += `---
apiVersion: allot/v1
kind: Team
metadata: {name: ${team}}
spec:
  cohort: org
  preemption: {reclaimWithinCohort: ${preemption}, withinTeam: Never}
  queueingStrategy: BestEffortFIFO
  quota: [{flavor: gpu, resources: {gpu: ${quota}}}]
`;
  }
  return text;
}

// alpha floods, beta comes in bursts, gamma is light: borrowing differs from
// hard quota, and the tail is long.
function traceCsv() {
  const rows = ['submit_s,duration_s,gpus,team'];
  for (let i = 0; i < 120; ++i) {
    rows.push(`${i * 60},${1800 + (i % 7) * 600},${[1, 2, 4, 8][i % 4]},alpha`);
    if (i % 10 < 3) rows.push(`${i * 60 + 5},${900 + (i % 5) * 300},${[2, 4][i % 2]},beta`);
    if (i % 30 === 0) rows.push(`${i * 60 + 7},600,1,gamma`);
  }
  return rows.join('\n') + '\n';
}

function replay(dir) {
  const trace = join(dir, 'trace.csv');
  writeFileSync(trace, traceCsv());
  const policies = { 'hard-quota': policyYaml(false), borrow: policyYaml(true), 'borrow-copy': policyYaml(true) };
  const args = ['simulate', '--trace', trace, '--load-factor', '1,2', '-o', 'json', '--report', join(dir, 'report.html')];
  for (const [name, text] of Object.entries(policies)) {
    writeFileSync(join(dir, `${name}.yaml`), text);
    args.push('--policy', join(dir, `${name}.yaml`));
  }
  const json = JSON.parse(execFileSync(binary, args, { encoding: 'utf8' }));
  if (!Array.isArray(json.sweep) || json.sweep.length !== 2) fail('expected a sweep of 2 points');
  return { json, policies: Object.keys(policies), report: join(dir, 'report.html') };
}

// Everything the page shows, read from the DOM.
function readPage() {
  const specs = JSON.parse(document.getElementById('report-charts').textContent).charts;
  const drawn = document.querySelectorAll('[data-chart] > figure.chart').length;
  if (drawn !== specs.length || document.querySelectorAll('[data-chart] > p').length) {
    throw new Error(`${drawn} charts drawn for ${specs.length} specs`);
  }
  return [...document.querySelectorAll('section[data-load]')].map((section) => ({
    load: section.dataset.load,
    capacity: section.dataset.capacity,
    cells: [...section.querySelectorAll('td[data-figure]')].map((td) => ({
      figure: td.dataset.figure,
      policy: td.dataset.policy,
      team: td.dataset.team ?? null,
      text: td.textContent,
    })),
    charts: [...section.querySelectorAll('figure.chart')].map((figure) => {
      const box = figure.getBoundingClientRect();
      return {
        title: figure.querySelector('figcaption').textContent,
        legend: [...figure.querySelectorAll('.legend li')].map((li) => {
          const r = li.getBoundingClientRect();
          return { name: li.dataset.series, text: li.textContent, inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.width > 0 };
        }),
        lines: [...figure.querySelectorAll('polyline')].map((line) => ({
          name: line.dataset.series,
          points: line.getAttribute('points').trim().split(/\s+/).filter(Boolean).length,
        })),
      };
    }),
  }));
}

const RATIOS = new Set(['guarantee_compliance', 'utilization']);

function checkCell(cell, point, where) {
  const run = point.policies[cell.policy] ?? fail(`${where}: no policy ${cell.policy} in the JSON`);
  const metrics = cell.team === null ? run.overall : run.teams[cell.team];
  if (!metrics) fail(`${where}: no team ${cell.team} in the JSON`);
  const value = metrics[cell.figure];
  if (value === undefined) fail(`${where}: no figure ${cell.figure} in the JSON`);
  if (cell.text === '-') {
    if (value !== null) fail(`${where}: shows '-' for ${value}`);
    return;
  }
  const number = cell.text.replace(/ [A-Z]*$/, '');
  if (!/^-?\d{1,3}(,\d{3})*(\.\d+)?$/.test(number)) fail(`${where}: '${cell.text}' lacks thousands separators`);
  const shown = Number(number.replaceAll(',', ''));
  const decimals = (number.split('.')[1] ?? '').length;
  const expected = (RATIOS.has(cell.figure) ? 100 : 1) * value;
  if (Math.abs(shown - expected) > 0.5 * 10 ** -decimals + 1e-9) {
    fail(`${where}: shows ${cell.text}, the JSON has ${expected}`);
  }
}

function checkPoint(section, point, policies, where) {
  if (Number(section.load) !== point.load_factor) fail(`${where}: load ${section.load} vs ${point.load_factor}`);
  if (Number(section.capacity) !== point.capacity_factor) fail(`${where}: capacity ${section.capacity}`);
  for (const cell of section.cells) {
    checkCell(cell, point, `${where} ${cell.team ?? 'overall'}/${cell.policy}/${cell.figure}`);
  }
  for (const policy of policies) {
    for (const team of Object.keys(point.policies[policy].teams)) {
      const shown = section.cells.filter((c) => c.team === team && c.policy === policy);
      if (shown.length !== 6) fail(`${where}: team ${team} under ${policy} has ${shown.length} figures, not 6`);
    }
    if (!section.cells.some((c) => c.team === null && c.policy === policy)) fail(`${where}: no summary for ${policy}`);
  }
  const teamsWithJobs = Object.entries(point.policies[policies[0]].teams).filter(([, m]) => m.jobs > 0);
  if (section.charts.length !== 1 + teamsWithJobs.length) {
    fail(`${where}: ${section.charts.length} charts, expected the tail and ${teamsWithJobs.length} teams`);
  }
  let merged = 0;
  for (const chart of section.charts) {
    const drawn = chart.legend.flatMap((item) => item.name.split(' = '));
    for (const policy of policies) {
      if (!drawn.includes(policy)) fail(`${where}: chart '${chart.title}' lacks ${policy}`);
    }
    for (const item of chart.legend) {
      if (!item.inside) fail(`${where}: legend '${item.text}' of '${chart.title}' is clipped`);
      const line = chart.lines.find((l) => l.name === item.name);
      if (!line || line.points < 2) fail(`${where}: '${item.name}' in '${chart.title}' has no line`);
      if (item.name.includes('borrow = borrow-copy')) ++merged;
    }
  }
  if (merged !== section.charts.length) fail(`${where}: borrow and its copy coincide but are not one line`);
}

async function checkWidth(browser, url, run, width) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => r.url() !== url && problems.push(`fetched ${r.url()}`));
  await page.goto(url);
  const sections = await page.evaluate(readPage);
  if (sections.length !== run.json.sweep.length) fail(`${width}px: ${sections.length} sections`);
  sections.forEach((section, i) => checkPoint(section, run.json.sweep[i], run.policies, `${width}px point ${i}`));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) fail(`${width}px: the page scrolls sideways by ${overflow} px`);
  await page.evaluate(axeSource); // through DevTools: not a script of the page, which its policy forbids
  const axe = await page.evaluate(async () => (await window.axe.run(document)).violations);
  const serious = axe.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length) fail(`${width}px: axe: ${serious.map((v) => `${v.id} (${v.nodes.length})`).join(', ')}`);
  await page.screenshot({ path: join(artifacts, `report-${width}.png`), fullPage: true });
  if (problems.length) fail(`${width}px: ${problems.join('; ')}`);
  // Last (its refusal is a console error): the policy allows the page's own
  // script and style only.
  const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? '');
  if (!/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'$/.test(csp)) fail(`${width}px: policy '${csp}'`);
  const injected = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
    return window.injected === true;
  });
  if (injected) fail(`${width}px: the page's policy let an injected script run`);
  await page.close();
  const cells = sections.reduce((n, s) => n + s.cells.length, 0);
  const charts = sections.reduce((n, s) => n + s.charts.length, 0);
  console.log(`ok ${width}px: ${cells} figures equal the JSON, ${charts} charts drawn, ${sections.length} points, axe clean, strict CSP`);
}

const dir = mkdtempSync(join(tmpdir(), 'allot-report-'));
let browser;
try {
  const run = replay(dir);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const url = pathToFileURL(run.report).href;
  for (const width of [1280, 390]) {
    await checkWidth(browser, url, run, width);
  }
} catch (error) {
  console.error(`FAIL: ${error.message}`);
  process.exitCode = 1;
} finally {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
}
