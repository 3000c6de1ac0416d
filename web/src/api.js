// Talks to allotd: the REST API (docs/api.md) with the session cookie, the
// CSRF token on every change, and the server's error message on a refusal.
let csrfToken = '';
// Reads refused (403) in this session: `api.optional` does not ask again.
const refusedReads = new Set();

// A new session (login, logout) has a new token and may read other things.
export function setCsrfToken(token) {
  csrfToken = token || '';
  refusedReads.clear();
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!response.ok) {
    const message = (data && data.message) || `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, (data && data.code) || '', message);
  }
  return data;
}

export const api = {
  get: (path) => request('GET', path),
  post: (path, body) => request('POST', path, body === undefined ? {} : body),
  del: (path) => request('DELETE', path),
  // A read that may be refused for good (a team's member listing nodes).
  optional: (path) => {
    if (refusedReads.has(path)) return Promise.reject(new ApiError(403, 'forbidden', 'refused before'));
    return request('GET', path).catch((error) => {
      if (error.status === 403) refusedReads.add(path);
      throw error;
    });
  },
};

export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function workloadPath(ns, name) {
  return `/api/v1/namespaces/${encodeURIComponent(ns)}/workloads/${encodeURIComponent(name)}`;
}
