// A real allotd for the dashboard's browser tests: started on a free port of
// 127.0.0.1 with a fresh data folder (SQLite store, SCIM on), stopped with
// SIGTERM, its folder and the Unix accounts it made removed afterwards (as
// tests/server/allotd_process.cc does); restart() starts it again on the same
// folder (a new port).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SCIM_TOKEN = 'allot-web-test-scim-token-0123456789';

// Starts the binary on a free port of 127.0.0.1 with `data`; resolves once it listens.
async function launch(binary, args) {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // Never left behind, whatever ends the test.
  process.on('exit', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const state = { stderr: '' };
  child.stderr.on('data', (chunk) => (state.stderr += chunk));
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`allotd did not start: ${state.stderr}`)), 30000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /allotd listening on https?:\/\/[^\s]*:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`allotd exited (${code}): ${state.stderr}`)));
  });
  return { child, port, state };
}

async function terminate(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export async function startAllotd(binary, extraArgs = []) {
  const dir = mkdtempSync(join(tmpdir(), 'allot-web-'));
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  writeFileSync(join(dir, 'scim-token'), SCIM_TOKEN, { mode: 0o600 });
  const args = ['--listen', '127.0.0.1:0', '--data-dir', data, '--scim-token-file', join(dir, 'scim-token'), ...extraArgs];
  let run = await launch(binary, args);
  const server = {
    base: `http://127.0.0.1:${run.port}`,
    dir,
    child: run.child,
    stderr: () => run.state.stderr,
    adminToken: readFileSync(join(data, 'admin-token'), 'utf8').trim(),
    // Stops allotd and starts it again on the same data (a new port: `base` changes).
    async restart() {
      await terminate(run.child);
      run = await launch(binary, args);
      server.base = `http://127.0.0.1:${run.port}`;
      server.child = run.child;
    },
    async stop() {
      await terminate(run.child);
      deleteAccounts(data);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

function recorded(path) {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => /^allot-[a-z0-9_-]+$/.test(name));
}

function deleteAccounts(data) {
  if (process.getuid() !== 0) return;
  for (const user of recorded(join(data, 'state', 'user-accounts'))) spawnSync('userdel', [user]);
  for (const team of recorded(join(data, 'state', 'team-accounts'))) {
    spawnSync('userdel', [team]);
    spawnSync('groupdel', [team]);
  }
}

// The REST API with a bearer token (the test's own setup, not the page's).
export function client(base, token) {
  const call = async (method, path, body, type = 'application/json') => {
    const headers = { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = type;
    const response = await fetch(base + path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {}
    return { status: response.status, json, text };
  };
  return {
    call,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    apply: (yaml) => call('POST', '/api/v1/apply', yaml, 'application/yaml'),
    scim: (method, path, body) =>
      fetch(`${base}/scim/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${SCIM_TOKEN}`, 'Content-Type': 'application/scim+json' },
        body: JSON.stringify(body),
      }).then((r) => r.status),
  };
}
