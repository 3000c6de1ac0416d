// Teams: per team and flavor the GPU quota against usage, borrowed, lent,
// pending and admitted (GET /api/v1/top: aggregate numbers, visible to every
// team), and the cohort tree they form.
import { api } from '../api.js';
import { useLive } from '../live.js';
import { count, gpus } from '../format.js';
import { Empty, Loading } from './common.jsx';

function Meter({ used, nominal }) {
  const most = Math.max(used, nominal, 1);
  return (
    <span class="meter" role="img" aria-label={`${used} used of ${nominal} nominal`}>
      <span class="meter-nominal" style={{ width: `${(nominal / most) * 100}%` }} />
      <span class={`meter-used${used > nominal ? ' over' : ''}`} style={{ width: `${(used / most) * 100}%` }} />
    </span>
  );
}

function cohortTree(rows) {
  const tree = new Map();
  for (const r of rows) {
    const cohort = r.cohort || '(no cohort)';
    if (!tree.has(cohort)) tree.set(cohort, new Set());
    tree.get(cohort).add(r.team);
  }
  return [...tree.entries()];
}

export function Teams() {
  const state = useLive(() => api.get('/api/v1/top'), []);
  const rows = ((state.data && state.data.teams) || []).filter((r) => r.resource === 'gpu');
  return (
    <>
      <h1>Teams</h1>
      <Loading state={state} />
      {state.data && rows.length === 0 ? (
        <Empty>No team has GPU quota yet. Apply a Team with a quota (docs/policy.md).</Empty>
      ) : null}
      {rows.length ? (
        <table>
          <caption class="sr-only">GPU quota and usage per team</caption>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Flavor</th>
              <th scope="col">Usage / quota</th>
              <th scope="col">Borrowed</th>
              <th scope="col">Lent</th>
              <th scope="col">Pending</th>
              <th scope="col">Admitted</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <td>{r.team}</td>
                <td>{r.flavor}</td>
                <td>
                  <Meter used={Number(r.usage) || 0} nominal={Number(r.nominal) || 0} /> {gpus(r.usage)} of{' '}
                  {gpus(r.nominal)}
                </td>
                <td>{gpus(r.borrowed)}</td>
                <td>{gpus(r.lent)}</td>
                <td>{count(r.pending)}</td>
                <td>{count(r.admitted)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {rows.length ? (
        <section aria-labelledby="cohorts">
          <h2 id="cohorts">Cohorts</h2>
          <ul class="tree">
            {cohortTree(rows).map(([cohort, teams]) => (
              <li>
                {cohort}
                <ul>
                  {[...teams].map((t) => (
                    <li>{t}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
