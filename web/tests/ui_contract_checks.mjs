// The Contracts view in the dashboard's browser test (ui_test.mjs runs these
// once the governance fixtures are applied): a second cluster admin (carla)
// approves and activates alpha-research, the card showing its facts, the
// transitions an access review allows and the history; the requester of
// alpha-extra (still Draft) is offered Revoke but not Approve, a transition
// without a reason shows the server's answer, and the card lists the
// contract's monitoring signals (alpha-busy); a contract naming none shows
// no such fact.
export async function contractApprovalChecks(page, admin, { visit, axeCheck, assert, screenshot }) {
  await visit(page, '#/contracts', 'Contracts', 'contracts-draft');
  const card = page.locator('[data-contract="alpha-research"]');
  await card.locator('h2 .phase').getByText('Draft').waitFor();
  const facts = await card.locator('.facts').innerText();
  for (const fact of ['business ana', 'operations bob', 'cost vic', 'local', 'public', 'Job', 'not scheduled']) {
    assert(facts.includes(fact), `the card shows ${fact}: ${facts}`);
  }
  assert(!facts.includes('Monitoring signals'), `no monitoring signals named, none shown: ${facts}`);
  await card.getByLabel('Reason').fill('data reviewed');
  await card.getByRole('button', { name: 'Approve' }).click();
  await card.getByText('Approve: now Approved.').waitFor();
  let got = await admin.get('/api/v1/contracts/alpha-research');
  assert(got.json.status.phase === 'Approved' && got.json.status.approvedBy === 'carla', JSON.stringify(got.json.status));
  await card.locator('h2 .phase').getByText('Approved').waitFor();
  assert((await card.getByRole('button', { name: 'Approve' }).count()) === 0, 'no approve once Approved');
  await card.getByLabel('Reason').fill('go live');
  await card.getByRole('button', { name: 'Activate' }).click();
  await card.getByText('Activate: now Active.').waitFor();
  got = await admin.get('/api/v1/contracts/alpha-research');
  assert(got.json.status.phase === 'Active', `phase ${got.json.status.phase}`);
  await card.getByTestId('review-due').getByText(/grace until/).waitFor();
  await card.getByRole('button', { name: 'Start review' }).waitFor();
  await card.getByText(/^History \(\d+\)$/).click();
  await card.getByText('go live').waitFor();
  await screenshot('contracts');
  await axeCheck(page, 'contracts');
}

export async function contractRequesterChecks(page, admin, { visit, assert, screenshot }) {
  await visit(page, '#/contracts', 'Contracts', 'contracts-requester');
  const card = page.locator('[data-contract="alpha-extra"]');
  await card.getByRole('button', { name: 'Revoke' }).waitFor();
  assert((await card.getByRole('button', { name: 'Approve' }).count()) === 0, 'no approve for the requester');
  await card.getByText('You requested this contract').waitFor();
  const got = await admin.get('/api/v1/contracts/alpha-extra');
  assert(JSON.stringify(got.json.spec.monitoringSignals) === '["alpha-busy"]', `spec: ${JSON.stringify(got.json.spec)}`);
  const signals = await card.getByTestId('monitoring-signals').textContent();
  assert(signals === 'alpha-busy', `the card lists its monitoring signals: ${signals}`);
  const term = card.locator('.facts dt', { hasText: 'Monitoring signals' });
  assert((await term.count()) === 1, 'the fact is named Monitoring signals');
  await screenshot('contracts-monitoring-signals');
  await card.getByRole('button', { name: 'Revoke' }).click();
  await card.locator('p.problem[role="status"]').waitFor();
  const shown = await card.locator('p.problem[role="status"]').textContent();
  assert(/reason/.test(shown), `a transition without a reason shows the server's answer: ${shown}`);
}

// A user whose only right is the contract-approver ClusterRole (cora, bound
// by a ClusterRoleBinding) logs in with that role and no team, lands on
// Contracts, approves alpha-extra (requested by the admin), and is shown no
// workload, node or quota: Overview, Hardware and Teams show the server's
// refusal, Tasks the empty list the API gives it, and no response the page
// fetched names a workload.
export async function bindContractApprover(admin, assert) {
  const bound = await admin.apply(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: cora-approver}
subjects: [{kind: User, name: cora}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: contract-approver}
`);
  assert(bound.status === 200, `binding: ${bound.status} ${bound.text}`);
}

export async function contractApproverSessionChecks(page, admin, seen, secrets, { visit, axeCheck, assert, screenshot }) {
  await page.getByRole('heading', { level: 1, name: 'Contracts' }).waitFor();
  const who = await page.getByTestId('who').textContent();
  assert(who === 'cora · contract-approver', `who: ${who}`);
  const card = page.locator('[data-contract="alpha-extra"]');
  await card.getByLabel('Reason').fill('approved in the browser');
  await card.getByRole('button', { name: 'Approve' }).click();
  await card.getByText('Approve: now Approved.').waitFor();
  const got = await admin.get('/api/v1/contracts/alpha-extra');
  assert(got.json.status.phase === 'Approved' && got.json.status.approvedBy === 'cora', JSON.stringify(got.json.status));
  await screenshot('contract-approver');
  await axeCheck(page, 'contract-approver contracts');
  for (const [view, heading] of [['overview', 'Overview'], ['hardware', 'Hardware'], ['teams', 'Teams']]) {
    await visit(page, `#/${view}`, heading, `contract-approver-${view}`);
    await page.locator('.problem').first().waitFor();
  }
  // The API lists no workload to it (an empty list, not a refusal): nor does Tasks.
  await visit(page, '#/tasks', 'Tasks', 'contract-approver-tasks');
  await page.getByText('No workloads here.').waitFor();
  const dom = await page.content();
  for (const name of secrets) assert(!dom.includes(name), `${name} in the DOM`);
  const leaked = seen.bodies.filter((r) => secrets.some((name) => r.body.includes(name)));
  assert(!leaked.length, `a workload named in ${leaked.map((r) => r.url).join(', ')}`);
  // Tasks' chart counts what the list shows: nothing (every bucket 0).
  const none = (r) =>
    /\/api\/v1\/top\/workloads\?/.test(r.url) && JSON.parse(r.body).buckets.every((b) => b.pending === 0 && b.running === 0);
  const api = seen.bodies.filter((r) => /\/api\/v1\/(top|nodes|workloads)/.test(r.url));
  assert(api.length && api.every((r) => r.status === 403 || (r.status === 200 && (/"items":\[\]/.test(r.body) || none(r)))),
    `what the page was given: ${api.map((r) => `${r.status} ${r.url} ${r.body.slice(0, 80)}`).join('\n')}`);
}
