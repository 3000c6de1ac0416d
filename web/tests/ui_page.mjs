// What the dashboard's browser tests (ui_test.mjs, ui_usability_test.mjs) do
// alike: run named checks (each failure printed and counted, the run going on),
// log in through the dashboard's own form, and check the page with axe-core (a
// serious or critical violation throws, naming each rule and its first element).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// fields: {token} or {username, password}, and optionally {team, role}.
export async function logIn(page, fields) {
  await page.waitForSelector('form');
  if (fields.token) {
    await page.getByRole('button', { name: 'Use an API token instead' }).click();
    await page.getByLabel('API token').fill(fields.token);
  } else {
    await page.getByLabel('User name').fill(fields.username);
    await page.getByLabel('Password').fill(fields.password);
  }
  if (fields.team) await page.getByLabel('Team (namespace)').fill(fields.team);
  if (fields.role) await page.getByLabel('Role').selectOption(fields.role);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

export async function axeCheck(page, where) {
  await page.evaluate(`${axeSource}\n;0`);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length) {
    throw new Error(`${where}: axe: ${serious.map((v) => `${v.id} (${v.nodes.length}: ${v.nodes[0].target})`).join('; ')}`);
  }
}

// Named checks: `check(name, body)` prints ok or FAIL with the time taken and
// counts the failures; `finish(artifacts)` prints the summary and exits 1 on
// any failure.
export function checkRunner() {
  let failures = 0;
  const started = Date.now();
  return {
    async check(name, body) {
      const t0 = Date.now();
      try {
        await body();
        console.log(`ok   ${name} (${Date.now() - t0} ms)`);
      } catch (error) {
        failures++;
        console.log(`FAIL ${name}: ${error && error.stack ? error.stack : error}`);
      }
    },
    summary(artifacts) {
      return `${failures ? 'FAILED' : 'passed'}: ${failures} failure(s) in ${Date.now() - started} ms; screenshots in ${artifacts}`;
    },
    failed: () => failures > 0,
  };
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}
