// The cohort tree of Teams: each cohort with its teams and, nested, its child
// cohorts (a Cohort's `spec.parent`). The teams and their cohorts come from
// `top` (what everyone who sees Teams sees); the cohorts' parents from GET
// /api/v1/cohorts where the caller may read it (a cluster admin): otherwise
// each team's own cohort only, as a root, which the hint says.
import { api } from '../api.js';
import { useLive } from '../live.js';

// { name, teams: [..], children: [..] } roots from the teams' rows and the
// cohorts' parents (name -> parent; absent: not known).
export function cohortForest(rows, parents) {
  const nodes = new Map();
  const node = (name) => {
    if (!nodes.has(name)) nodes.set(name, { name, teams: [], children: [] });
    return nodes.get(name);
  };
  for (const r of rows) {
    const team = node(r.cohort || '(no cohort)').teams;
    if (!team.includes(r.team)) team.push(r.team);
  }
  for (const [name, parent] of parents) {
    node(name);
    if (parent) node(parent);
  }
  const roots = [];
  for (const n of nodes.values()) {
    const parent = parents.get(n.name);
    if (parent && nodes.has(parent) && parent !== n.name) nodes.get(parent).children.push(n);
    else roots.push(n);
  }
  return roots;
}

function Cohort({ node }) {
  return (
    <li data-cohort={node.name}>
      {node.name}
      <ul>
        {node.teams.map((t) => (
          <li data-tree-team={t}>{t}</li>
        ))}
        {node.children.map((c) => (
          <Cohort node={c} />
        ))}
      </ul>
    </li>
  );
}

export function CohortTree({ rows }) {
  const cohorts = useLive(() => api.optional('/api/v1/cohorts').catch(() => null), []);
  const items = cohorts.data ? cohorts.data.items || [] : null;
  const parents = new Map((items || []).map((c) => [c.metadata.name, (c.spec && c.spec.parent) || '']));
  return (
    <section aria-labelledby="cohorts">
      <h2 id="cohorts">Cohorts</h2>
      <ul class="tree" data-testid="cohort-tree">
        {cohortForest(rows, parents).map((n) => (
          <Cohort node={n} />
        ))}
      </ul>
      {items || cohorts.loading ? null : <p class="hint">Each team&apos;s own cohort; the cohorts above it are not visible to you.</p>}
    </section>
  );
}
