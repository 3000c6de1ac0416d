// The dashboard's OIDC login in a real headless Chromium (Debian's chromium,
// driven by playwright-core) against a real allotd started with
// --oidc-issuer and the tests' real OpenID provider (scripts/oidc-provider,
// ctest fixture oidc_provider, its folder in ALLOT_TEST_OIDC_DIR).
//
//   node web/tests/oidc_login_test.mjs ALLOTD_BINARY ARTIFACT_DIR
//
// Checks: the login page offers "Log in with ISSUER" (no serious axe-core
// violation); a click goes to the
// issuer (the authorization code grant with PKCE), its sign-in and consent
// forms bring the browser back to allotd's callback, which lands on the
// Overview logged in as the issuer's user, in the team and role chosen on
// the login page; a callback this browser did not start shows "Login
// refused" with the reason; no CSP violation. Screenshots go to
// ARTIFACT_DIR. Exits non-zero on the first failure.
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { client, startAllotd } from './allotd.mjs';

const [binary, artifacts] = process.argv.slice(2);
const providerDir = process.env.ALLOT_TEST_OIDC_DIR;
if (!binary || !artifacts || !providerDir) {
  console.error('usage: ALLOT_TEST_OIDC_DIR=DIR node oidc_login_test.mjs ALLOTD_BINARY ARTIFACT_DIR');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const CHROMIUM = process.env.ALLOT_CHROMIUM || '/usr/bin/chromium';
const issuer = readFileSync(join(providerDir, 'issuer'), 'utf8').trim();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const POLICY = `apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 1s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: node}
spec: {cluster: local, flavor: gpu, count: 1, resources: {gpu: 4, cpu: 16, memory: 16Gi}}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec: {quota: [{flavor: gpu, resources: {gpu: {nominal: 4}}}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: platform-admins}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: Group, name: platform-admins}]
`;

const allotd = await startAllotd(binary, [
  '--oidc-issuer', issuer, '--oidc-client-id', 'allot-cli', '--oidc-scopes', 'openid profile groups',
]);
let browser;
let failed = false;
try {
  const admin = client(allotd.base, allotd.adminToken);
  const applied = await admin.apply(POLICY);
  assert(applied.status === 200, `apply: ${applied.status} ${applied.text}`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const violations = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });

  // The login page offers the issuer; the team and role chosen go with it.
  await page.goto(`${allotd.base}/ui/`);
  const link = page.locator('#oidc-login');
  await link.waitFor({ timeout: 10000 });
  assert((await link.textContent()).includes(issuer), `the link names the issuer: ${await link.textContent()}`);
  await page.fill('input[name=team]', 'research');
  await page.selectOption('select[name=role]', 'team-member');
  await page.screenshot({ path: join(artifacts, 'oidc-login-page.png') });
  await page.evaluate(`${axeSource}\n;0`);
  const axe = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert(!serious.length, `login page: axe: ${serious.map((v) => v.id).join('; ')}`);
  const t0 = Date.now();
  await link.click();

  // The issuer's sign-in and consent (scripts/oidc-provider/server.mjs).
  await page.waitForURL((url) => url.href.startsWith(`${issuer}/interaction/`), { timeout: 10000 });
  await page.fill('input[name=login]', 'carol');
  await page.fill('input[name=password]', 'carol-password');
  await page.screenshot({ path: join(artifacts, 'oidc-issuer-sign-in.png') });
  await page.click('button[type=submit]');
  await page.waitForSelector('#prompt', { timeout: 10000 });
  if ((await page.textContent('#prompt')) === 'consent') await page.click('button[type=submit]');

  // Back at allotd, logged in.
  await page.waitForURL(`${allotd.base}/ui/#/overview`, { timeout: 10000 });
  await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: 10000 });
  console.log(`figure: OIDC login from the click to the Overview ${Date.now() - t0} ms`);
  const who = await page.evaluate(async () => (await fetch('/ui/session')).json());
  assert(who.subject === 'carol', `subject: ${JSON.stringify(who)}`);
  assert(who.team === 'research' && who.role === 'team-member', `scope: ${JSON.stringify(who)}`);
  assert(/^[0-9a-f]{64}$/.test(who.csrfToken), 'a CSRF token for the cookie');
  const cookies = await context.cookies(allotd.base);
  const session = cookies.find((c) => c.name === 'allot_session');
  assert(session && session.httpOnly && session.sameSite === 'Strict', `cookie: ${JSON.stringify(session)}`);
  assert(!cookies.some((c) => c.name === 'allot_oidc_state'), 'the state cookie is cleared');
  await page.screenshot({ path: join(artifacts, 'oidc-logged-in.png') });
  console.log('ok   OIDC login with PKCE lands on the Overview as carol (research, team-member)');

  // A callback this browser did not start: refused, with the reason, no 500.
  const refused = await page.goto(`${allotd.base}/ui/oidc/callback?code=forged&state=forged`);
  assert(refused.status() === 400, `status ${refused.status()}`);
  const reason = await page.textContent('#reason');
  assert(reason.includes('does not match the one this browser started'), `reason: ${reason}`);
  await page.screenshot({ path: join(artifacts, 'oidc-refused.png') });
  console.log('ok   a callback the browser did not start shows Login refused and why');
  assert(violations.length === 0, `CSP violations: ${violations.join('; ')}`);
  console.log('ok   no CSP violation');
} catch (error) {
  failed = true;
  console.log(`FAIL ${error && error.stack ? error.stack : error}`);
  console.log(allotd.stderr().slice(-2000));
} finally {
  if (browser) await browser.close();
  await allotd.stop();
}
process.exit(failed ? 1 : 0);
