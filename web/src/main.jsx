// The dashboard's shell: who is logged in, the navigation between the views
// (hash routes, so that allotd serves one page), the theme, the keyboard.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, setCsrfToken } from './api.js';
import { closeStream } from './changes.js';
import { Login } from './views/login.jsx';
import { Overview } from './views/overview.jsx';
import { Hardware } from './views/hardware.jsx';
import { Node } from './views/node.jsx';
import { Teams } from './views/teams.jsx';
import { Tasks } from './views/tasks.jsx';
import { Workload } from './views/workload.jsx';
import { Costs } from './views/costs.jsx';
import { Signals } from './views/signals.jsx';
import { Contracts } from './views/contracts.jsx';
import { timeZone } from './format.js';
import './style.css';

const VIEWS = [
  { path: 'overview', label: 'Overview', key: '1' },
  { path: 'hardware', label: 'Hardware', key: '2' },
  { path: 'teams', label: 'Teams', key: '3' },
  { path: 'tasks', label: 'Tasks', key: '4' },
  { path: 'costs', label: 'Costs', key: '5' },
  { path: 'signals', label: 'Signals', key: '6' },
  { path: 'contracts', label: 'Contracts', key: '7' },
];

// "#/tasks/ns/name?per=10": the view, its arguments and its parameters.
function currentRoute() {
  const [path, search] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').map(decodeURIComponent);
  return { view: parts[0] || 'overview', args: parts.slice(1), params: new URLSearchParams(search || '') };
}

function useRoute() {
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    const onChange = () => setRoute(currentRoute());
    addEventListener('hashchange', onChange);
    // Effects run after the first paint: a hash changed between the render
    // and this listener (a quick click right after login) would be missed.
    onChange();
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function useTheme() {
  const [theme, setTheme] = useState(localStorage.getItem('allot-theme') || 'auto');
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem('allot-theme', theme);
  }, [theme]);
  return [theme, setTheme];
}

function useShortcuts() {
  useEffect(() => {
    const onKey = (event) => {
      const target = event.target;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
      const view = VIEWS.find((v) => v.key === event.key);
      if (view) location.hash = `#/${view.path}`;
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);
}

function Page({ route, me }) {
  if (route.view === 'tasks' && route.args.length === 2) {
    return <Workload ns={route.args[0]} name={route.args[1]} me={me} />;
  }
  if (route.view === 'hardware' && route.args.length === 1) return <Node name={route.args[0]} />;
  switch (route.view) {
    case 'hardware':
      return <Hardware />;
    case 'teams':
      return <Teams />;
    case 'tasks':
      return <Tasks perPage={Number(route.params.get('per')) || undefined} />;
    case 'costs':
      return <Costs />;
    case 'signals':
      return <Signals />;
    case 'contracts':
      return <Contracts me={me} />;
    default:
      return <Overview />;
  }
}

function Shell({ me, onLogout }) {
  const route = useRoute();
  const [theme, setTheme] = useTheme();
  useShortcuts();
  const next = { auto: 'dark', dark: 'light', light: 'auto' };
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <span class="brand">allot</span>
        <nav aria-label="Views">
          {VIEWS.map((v) => (
            <a
              href={`#/${v.path}`}
              aria-current={route.view === v.path ? 'page' : undefined}
              aria-keyshortcuts={v.key}
              title={`${v.label} (key ${v.key})`}
            >
              {v.label}
            </a>
          ))}
        </nav>
        <span class="who" data-testid="who">
          {me.subject}
          {me.role ? ` · ${me.role}${me.team ? ` in ${me.team}` : ''}` : ''}
        </span>
        <button type="button" onClick={() => setTheme(next[theme])} title="Theme">
          Theme: {theme}
        </button>
        <button type="button" onClick={onLogout}>
          Log out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} me={me} />
      </main>
      <footer class="foot">Times in {timeZone}. Keys 1–7 switch views.</footer>
    </>
  );
}

function App() {
  const [me, setMe] = useState(undefined);
  useEffect(() => {
    api
      .get('/ui/session')
      .then((who) => {
        setCsrfToken(who.csrfToken);
        setMe(who);
      })
      .catch(() => setMe(null));
  }, []);
  const logout = async () => {
    closeStream();
    try {
      await api.del('/ui/session');
    } finally {
      setCsrfToken('');
      setMe(null);
    }
  };
  if (me === undefined) return <main><p>Loading…</p></main>;
  if (me === null) {
    return (
      <Login
        onLogin={(who) => {
          setCsrfToken(who.csrfToken);
          // A session of a ClusterRole alone (contract-approver) sees only
          // what that role grants: it starts where it can act.
          if (!who.team && who.role === 'contract-approver' && !location.hash.replace(/^#\/?/, '')) {
            location.hash = '#/contracts';
          }
          setMe(who);
        }}
      />
    );
  }
  return <Shell me={me} onLogout={logout} />;
}

render(<App />, document.getElementById('app'));
