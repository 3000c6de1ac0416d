// Tasks: the workloads the caller may list, a page at a time from the
// server (limit and continue: 100,000 stored workloads cost one page),
// filtered by namespace, phase, priority class and user (as typed) and
// sorted by the server (`sort`: the
// order holds across pages), each linking to its own page. A column
// header's button sorts by it, again reverses; `#/tasks?per=N` sets the
// page size (50 by default). Below the list, once it has answered, the
// workloads pending and running over time (activity_chart.jsx), of the same
// team filter and the same visibility as the list.
import { useEffect, useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { useLive } from '../live.js';
import { formatAge } from '../format.js';
import { Empty, Loading, Phase } from './common.jsx';
import { ActivityChart, WORKLOAD_STACKS } from './activity_chart.jsx';

const PHASES = ['', 'Pending', 'Admitted', 'Running', 'Succeeded', 'Failed', 'Preempted', 'Cancelled', 'Suspended'];
const PAGE = 50;

function gpusOf(w) {
  return (w.spec.podSets || []).reduce((n, p) => n + (p.count || 1) * (Number(p.resources && p.resources.gpu) || 0), 0);
}

// The server's sort keys (docs/api.md); GPUs is not one. Phase sorts in
// lifecycle order, priority by the class's value; the server's `age` is the
// oldest first, so Age descending.
const COLUMNS = [
  { id: 'name', label: 'Name', key: 'name' },
  { id: 'namespace', label: 'Namespace', key: 'namespace' },
  { id: 'phase', label: 'Phase', key: 'phase' },
  { id: 'priority', label: 'Priority', key: 'priority' },
  { id: 'user', label: 'User', key: 'user' },
  { id: 'gpus', label: 'GPUs' },
  { id: 'age', label: 'Age', key: '-age' },
];

// The `sort` parameter of a column's order; '' for the server's default.
function sortParam(sort) {
  const key = COLUMNS.find((c) => c.id === sort.by).key;
  const param = sort.desc === key.startsWith('-') ? key.replace(/^-/, '') : `-${key.replace(/^-/, '')}`;
  return param === 'age' ? '' : param;
}

export function Tasks({ perPage = PAGE }) {
  const [filter, setFilter] = useState({ team: '', phase: '', priorityClass: '', user: '' });
  const [pages, setPages] = useState(['']); // continue tokens of the pages seen
  const [sort, setSort] = useState({ by: 'age', desc: true });
  // The chart is asked for once the list has answered (its request walks
  // every stored workload: it must not delay the first rows).
  const [listed, setListed] = useState(false);
  const token = pages[pages.length - 1];
  const order = sortParam(sort);
  const state = useLive(
    () =>
      api.get(
        `/api/v1/workloads${query({ limit: perPage, sort: order, continue: token, ...filter })}`,
      ),
    [filter.team, filter.phase, filter.priorityClass, filter.user, order, token, perPage],
  );
  const change = (key) => (event) => {
    setFilter({ ...filter, [key]: event.target.value });
    setPages(['']);
  };
  const items = state.data ? state.data.items || [] : [];
  useEffect(() => {
    if (state.data && !listed) setListed(true);
  }, [state.data, listed]);
  const next = state.data && state.data.continue;
  const sortBy = (id) => {
    setSort({ by: id, desc: sort.by === id ? !sort.desc : false });
    setPages(['']);
  };
  return (
    <>
      <h1>Tasks</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label>
          Namespace
          <input name="team" value={filter.team} onInput={change('team')} placeholder="all visible" />
        </label>
        <label>
          Phase
          <select name="phase" value={filter.phase} onChange={change('phase')}>
            {PHASES.map((p) => (
              <option value={p}>{p || 'any'}</option>
            ))}
          </select>
        </label>
        <label>
          Priority class
          <input name="priorityClass" value={filter.priorityClass} onInput={change('priorityClass')} placeholder="any" />
        </label>
        <label>
          User
          <input name="user" value={filter.user} onInput={change('user')} placeholder="anyone" />
        </label>
      </form>
      <Loading state={state} />
      {state.data && items.length === 0 ? (
        <Empty>
          No workloads here{Object.values(filter).some(Boolean) ? ' with these filters' : ''}. Submit one with{' '}
          <code>allot run --team TEAM --gpus 1 -- CMD</code>.
        </Empty>
      ) : null}
      {items.length ? (
        <table class="tasks">
          <caption class="sr-only">Workloads, page {pages.length}</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th scope="col" aria-sort={sort.by === c.id ? (sort.desc ? 'descending' : 'ascending') : undefined}>
                  {c.key ? (
                    <button type="button" class="link" onClick={() => sortBy(c.id)}>
                      {c.label}
                      {sort.by === c.id ? (sort.desc ? ' ▼' : ' ▲') : ''}
                    </button>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((w) => (
              <tr>
                <td>
                  <a href={`#/tasks/${encodeURIComponent(w.metadata.namespace)}/${encodeURIComponent(w.metadata.name)}`}>
                    {w.metadata.name}
                  </a>
                </td>
                <td>{w.metadata.namespace}</td>
                <td>
                  <Phase phase={w.status.phase} />
                </td>
                <td>{w.spec.priorityClass || '—'}</td>
                <td>{w.status.submittedBy || '—'}</td>
                <td>{gpusOf(w)}</td>
                <td>{formatAge(w.status.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
          Previous page
        </button>
        <span>Page {pages.length}</span>
        <button type="button" disabled={!next} onClick={() => setPages([...pages, next])}>
          Next page
        </button>
      </nav>
      {listed ? (
        <ActivityChart
          id="tasks-over-time"
          path="/api/v1/top/workloads"
          params={{ team: filter.team }}
          stacks={WORKLOAD_STACKS}
          title="Workloads over time"
          what="workloads"
          empty="No workload you may see was pending or running in this range."
        />
      ) : null}
    </>
  );
}
