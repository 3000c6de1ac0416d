// The policy exceptions on the Contracts view in the dashboard's browser test
// (ui_test.mjs runs these after the contract checks): carla, a cluster admin
// who is not their approver, requests three exceptions for team alpha over
// the API (one already past its expiry). On her page each card shows the
// phase, owner, approver, expiry and reason, and she, their requester, is
// offered no Approve or Reject; the expired one reads Expired. On the page
// of an administrator (an access review lets it decide), a decision without
// a reason shows the server's refusal with its reason, then Approve and
// Reject with a reason change the phases (the API agrees, naming the
// decider); the expired request offers no decision, and an approved
// exception past its expiry reads "Expired" (as the API serves it). Last, vic, a viewer of
// alpha whom no access review lets decide but whom alpha-vic names as its
// approver, is offered its decision and approves it. Axe clean.
import { client } from './allotd.mjs';
import { PASSWORD } from './ui_fixtures.mjs';

function exceptionYaml(name, relaxes, hours) {
  const expires = new Date(Date.now() + hours * 3600e3).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `---
apiVersion: allot/v1
kind: PolicyException
metadata: {name: ${name}}
spec:
  team: alpha
  relaxes: ${relaxes}
  owner: ana
  reason: paper deadline ${name}
  approver: vic
  expires: "${expires}"
`;
}

async function sessionClient(base, username) {
  const reply = await fetch(`${base}/api/v1/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  const answer = await reply.json();
  if (reply.status !== 201 || !answer.token) throw new Error(`login ${username}: ${reply.status} ${JSON.stringify(answer)}`);
  return client(base, answer.token);
}

// carla requests alpha-burst, alpha-urgent, alpha-vic and alpha-late (expired
// an hour ago), each naming vic as its approver.
export async function requestExceptions(base, { assert }) {
  const carla = await sessionClient(base, 'carla');
  const applied = await carla.apply(
    exceptionYaml('alpha-burst', '{quota: {flavor: gpu, resources: {gpu: 2}}}', 72) +
      exceptionYaml('alpha-urgent', '{priorityClass: low}', 48) +
      exceptionYaml('alpha-late', '{priorityClass: low}', -1) +
      exceptionYaml('alpha-vic', '{workloadKind: TrainingJob}', 24),
  );
  assert(applied.status === 200, `carla requests: ${applied.status} ${applied.text}`);
  for (const name of ['alpha-burst', 'alpha-urgent']) {
    const got = await carla.get(`/api/v1/policyexceptions/${name}`);
    assert(got.json.status.phase === 'Requested' && got.json.status.requestedBy === 'carla', `${name}: ${got.text}`);
  }
  const late = await carla.get('/api/v1/policyexceptions/alpha-late');
  assert(late.json.status.phase === 'Expired', `alpha-late: ${late.text}`);
}

export async function exceptionRequesterChecks(page, admin, { visit, axeCheck, assert, screenshot }) {
  // Applied over the API after the view was open: the view is opened again.
  await visit(page, '#/overview', 'Overview', 'exceptions-requester-away');
  await visit(page, '#/contracts', 'Contracts', 'exceptions-requester');
  await page.getByRole('heading', { name: 'Policy exceptions' }).waitFor();
  const card = page.locator('[data-exception="alpha-burst"]');
  await card.locator('h3 .phase').getByText('Requested').waitFor();
  const facts = await card.locator('.facts').innerText();
  for (const fact of ['alpha', 'quota gpu +gpu=2', 'ana', 'vic', 'paper deadline alpha-burst', 'carla']) {
    assert(facts.includes(fact), `the card shows ${fact}: ${facts}`);
  }
  assert((await card.getByTestId('exception-owner').textContent()) === 'ana', 'owner');
  assert((await card.getByTestId('exception-approver').textContent()) === 'vic', 'approver');
  const expires = await card.getByTestId('exception-expires').locator('time').getAttribute('datetime');
  const got = await admin.get('/api/v1/policyexceptions/alpha-burst');
  assert(expires === got.json.spec.expires, `expiry ${expires} vs ${got.json.spec.expires}`);
  await card.getByText('You own or requested this exception').waitFor();
  for (const name of ['alpha-burst', 'alpha-urgent', 'alpha-late']) {
    const c = page.locator(`[data-exception="${name}"]`);
    await c.waitFor();
    for (const button of ['Approve', 'Reject']) {
      assert((await c.getByRole('button', { name: button }).count()) === 0, `no ${button} for the requester on ${name}`);
    }
  }
  await page.locator('[data-exception="alpha-late"] h3 .phase').getByText('Expired').waitFor();
  await screenshot('exceptions-requester');
  await axeCheck(page, 'exceptions requester');
}

export async function exceptionDecisionChecks(page, admin, { visit, axeCheck, assert, screenshot }) {
  const me = (await admin.get('/api/v1/whoami')).json.subject;
  await visit(page, '#/contracts', 'Contracts', 'exceptions-decider');
  const burst = page.locator('[data-exception="alpha-burst"]');
  await burst.getByRole('button', { name: 'Approve' }).waitFor();
  await burst.getByRole('button', { name: 'Reject' }).waitFor();
  // No reason: the server refuses, and its reason is shown.
  await burst.getByRole('button', { name: 'Approve' }).click();
  await burst.locator('p.problem[role="status"]').waitFor();
  const refusal = await burst.locator('p.problem[role="status"]').textContent();
  assert(/a decision needs a reason/.test(refusal), `the server's refusal: ${refusal}`);
  let got = await admin.get('/api/v1/policyexceptions/alpha-burst');
  assert(got.json.status.phase === 'Requested', `still Requested: ${got.text}`);

  await burst.getByLabel('Reason').fill('two GPUs for the paper');
  await burst.getByRole('button', { name: 'Approve' }).click();
  await burst.getByText('Approve: now Approved.').waitFor();
  await burst.locator('h3 .phase').getByText('Approved').waitFor();
  got = await admin.get('/api/v1/policyexceptions/alpha-burst');
  assert(got.json.status.phase === 'Approved' && got.json.status.decidedBy === me, JSON.stringify(got.json.status));
  assert(got.json.status.history.at(-1).reason === 'two GPUs for the paper', JSON.stringify(got.json.status.history));
  assert((await burst.getByRole('button', { name: 'Approve' }).count()) === 0, 'no decision once Approved');

  const urgent = page.locator('[data-exception="alpha-urgent"]');
  await urgent.getByLabel('Reason').fill('use the low class as it is');
  await urgent.getByRole('button', { name: 'Reject' }).click();
  await urgent.getByText('Reject: now Rejected.').waitFor();
  got = await admin.get('/api/v1/policyexceptions/alpha-urgent');
  assert(got.json.status.phase === 'Rejected' && got.json.status.decidedBy === me, JSON.stringify(got.json.status));

  const late = page.locator('[data-exception="alpha-late"]');
  await late.locator('h3 .phase').getByText('Expired').waitFor();
  // Applied by the administrator identity (Approved at once) past its expiry: out of force.
  const old = await admin.apply(exceptionYaml('alpha-old', '{priorityClass: low}', -2));
  assert(old.status === 200, `alpha-old: ${old.status} ${old.text}`);
  await visit(page, '#/overview', 'Overview', 'exceptions-decider-away');
  await visit(page, '#/contracts', 'Contracts', 'exceptions-decider-again');
  const lapsed = await page.locator('[data-exception="alpha-old"] h3 .phase').textContent();
  assert(lapsed === 'Expired', `an approved exception past its expiry: ${lapsed}`);
  const oldGot = await admin.get('/api/v1/policyexceptions/alpha-old');
  assert(oldGot.json.status.phase === 'Expired', `served Expired: ${JSON.stringify(oldGot.json.status)}`);
  const shown = page.locator('[data-exception="alpha-burst"] h3 .phase');
  assert((await shown.textContent()) === 'Approved', 'one in force reads Approved');
  assert((await late.getByRole('button', { name: 'Approve' }).count()) === 0, 'no decision on an expired request');
  await urgent.getByText(/^History \(\d+\)$/).click();
  await urgent.getByText('use the low class as it is').waitFor();
  await screenshot('exceptions-decided');
  await axeCheck(page, 'exceptions');
}

export async function exceptionNamedApproverChecks(page, admin, { visit, axeCheck, assert, screenshot }) {
  await visit(page, '#/contracts', 'Contracts', 'exceptions-named-approver');
  const card = page.locator('[data-exception="alpha-vic"]');
  await card.locator('h3 .phase').getByText('Requested').waitFor();
  assert(
    (await page.locator('[data-exception="alpha-burst"]').getByRole('button', { name: 'Approve' }).count()) === 0,
    'nothing to decide once Approved',
  );
  await card.getByLabel('Reason').fill('services for the demo');
  await card.getByRole('button', { name: 'Approve' }).click();
  await card.getByText('Approve: now Approved.').waitFor();
  const got = await admin.get('/api/v1/policyexceptions/alpha-vic');
  assert(got.json.status.phase === 'Approved' && got.json.status.decidedBy === 'vic', JSON.stringify(got.json.status));
  await screenshot('exceptions-named-approver');
  await axeCheck(page, 'exceptions named approver');
}
