// The login form: the local provider's user name and password (or an API
// token), and the team and role the session acts as (POST /ui/session; a
// role without a team is a ClusterRole held cluster-wide: contract-approver,
// whose session acts on contracts and sees nothing else); with
// an OIDC issuer, "Log in with ISSUER" (GET /ui/oidc/login: the authorization
// code grant with PKCE, the same team and role).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';

export function Login({ onLogin }) {
  const [form, setForm] = useState({ username: '', password: '', token: '', team: '', role: '' });
  const [useToken, setUseToken] = useState(false);
  const [error, setError] = useState('');
  const [methods, setMethods] = useState(null);
  useEffect(() => {
    api.get('/api/v1/authconfig').then(setMethods).catch(() => setMethods(null));
  }, []);
  const set = (key) => (event) => setForm({ ...form, [key]: event.target.value });
  const oidc = methods && methods.oidc && methods.oidc.issuer ? methods.oidc : null;
  const scope = new URLSearchParams();
  if (form.team) scope.set('team', form.team);
  if (form.role) scope.set('role', form.role);
  const oidcHref = `/ui/oidc/login${scope.toString() ? `?${scope}` : ''}`;
  const submit = async (event) => {
    event.preventDefault();
    setError('');
    const body = useToken
      ? { token: form.token }
      : { username: form.username, password: form.password };
    if (form.team) body.team = form.team;
    if (form.role) body.role = form.role;
    try {
      onLogin(await api.post('/ui/session', body));
    } catch (failure) {
      setError(failure.message);
    }
  };
  return (
    <main id="main" class="login">
      <h1>Log in to allot</h1>
      <form onSubmit={submit} aria-describedby="login-help">
        {useToken ? (
          <label>
            API token
            <input type="password" autocomplete="off" value={form.token} onInput={set('token')} />
          </label>
        ) : (
          <>
            <label>
              User name
              <input name="username" autocomplete="username" value={form.username} onInput={set('username')} />
            </label>
            <label>
              Password
              <input name="password" type="password" autocomplete="current-password" value={form.password} onInput={set('password')} />
            </label>
          </>
        )}
        <label>
          Team (namespace)
          <input name="team" value={form.team} onInput={set('team')} placeholder="empty: cluster-wide (admins)" />
        </label>
        <label>
          Role
          <select name="role" value={form.role} onChange={set('role')}>
            <option value="">none (cluster-wide, admins)</option>
            <option value="team-viewer">team-viewer</option>
            <option value="team-member">team-member</option>
            <option value="team-admin">team-admin</option>
            <option value="contract-approver">contract-approver (no team: contracts only)</option>
          </select>
        </label>
        <button type="submit">Log in</button>
        {oidc ? (
          <a id="oidc-login" class="button" href={oidcHref}>
            Log in with {oidc.issuer}
          </a>
        ) : null}
        <button type="button" class="link" onClick={() => setUseToken(!useToken)}>
          {useToken ? 'Use a user name and password' : 'Use an API token instead'}
        </button>
        {error ? (
          <p class="problem" role="alert">
            {error}
          </p>
        ) : null}
      </form>
      <p id="login-help" class="hint">
        The same identity as <code>allot login</code>: a directory user, or an API token.
        {oidc ? ` Or your organisation's login (${oidc.issuer}), with the team and role above.` : ''}
      </p>
    </main>
  );
}
