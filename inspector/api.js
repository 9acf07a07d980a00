/* global fetch, sessionStorage, location, window, URL, CustomEvent */
// The one way the inspector talks to the server: /api/v1 with the bearer token from sessionStorage.
const TOKEN_KEY = 'strata.token';

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY) || '',
  set: (value) => (value ? sessionStorage.setItem(TOKEN_KEY, value) : sessionStorage.removeItem(TOKEN_KEY)),
};

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** `query` values may be arrays (repeated keys); empty values are left out. */
export async function api(path, { method = 'GET', body, query } = {}) {
  const url = new URL(`/api/v1${path}`, location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const v of [].concat(value ?? [])) if (v !== '' && v !== null && v !== undefined) url.searchParams.append(key, String(v));
  }
  // The server refuses a state-changing request that is neither JSON nor marked with this header (CSRF).
  const headers = { 'x-strata-request': '1' };
  const t = token.get();
  if (t) headers.authorization = `Bearer ${t}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    if (res.status === 401) window.dispatchEvent(new CustomEvent('strata:unauthorized'));
    throw new ApiError(res.status, data?.error?.code ?? `HTTP_${res.status}`, data?.error?.message ?? res.statusText);
  }
  return data;
}

export const CATEGORIES = ['preference', 'fact', 'decision', 'entity', 'event', 'rule', 'lesson', 'other'];
