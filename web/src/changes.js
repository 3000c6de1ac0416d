// The change stream: one EventSource per page on allotd's GET /api/v1/watch
// (server-sent events; docs/web.md#live-updates). Views subscribe with
// `onChange`; a burst of changes reaches them once (coalesced over
// COALESCE_MS). The browser reconnects by itself and sends Last-Event-ID;
// allotd's `hello` says whether changes were missed meanwhile (`resync`),
// and then every subscriber refreshes. A stream the server refused or
// closed for good (401, 429, allotd stopped) is opened again after
// RETRY_MS; meanwhile `streamOpen()` is false and the views poll slowly.
const WATCH_PATH = '/api/v1/watch';
const COALESCE_MS = 100;
const RETRY_MS = 10000;

const listeners = new Set();
let source = null;
let open = false;
let retryTimer = null;
let coalesceTimer = null;
let pending = [];

function deliver() {
  coalesceTimer = null;
  const changes = pending;
  pending = [];
  for (const listener of [...listeners]) listener(changes);
}

function changed(changes) {
  pending.push(...changes);
  if (!coalesceTimer) coalesceTimer = setTimeout(deliver, COALESCE_MS);
}

function connect() {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(WATCH_PATH);
  source.addEventListener('hello', (event) => {
    open = true;
    const hello = safeParse(event.data);
    if (!hello || hello.resync) changed([{ kind: 'Resync' }]);
  });
  source.addEventListener('change', (event) => {
    const notice = safeParse(event.data);
    changed((notice && notice.changes) || [{ kind: 'Resync' }]);
  });
  source.onerror = () => {
    open = false;
    if (source && source.readyState === EventSource.CLOSED) {
      source = null;
      clearTimeout(retryTimer);
      if (listeners.size) retryTimer = setTimeout(connect, RETRY_MS);
    }
  };
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// Calls `listener(changes)` after changes; returns the unsubscribe.
export function onChange(listener) {
  listeners.add(listener);
  connect();
  return () => listeners.delete(listener);
}

export function streamOpen() {
  return open;
}

// At logout: the stream of the old session ends here.
export function closeStream() {
  clearTimeout(retryTimer);
  if (source) source.close();
  source = null;
  open = false;
}
