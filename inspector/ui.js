/* global location, URLSearchParams */
// Shared bits: the `html` tag (htm bound to preact: every interpolation is escaped text), hash
// routing, a loader hook and formatters.
import { h } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

/** `#/memories?scope=x` -> { path: ['memories'], params: URLSearchParams } */
export function parseHash(hash = location.hash) {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query) };
}

export function hashFor(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== '' && v !== undefined && v !== null && v !== false) q.set(k, String(v));
  const s = q.toString();
  return `#/${path}${s ? `?${s}` : ''}`;
}

export function navigate(path, params) {
  location.hash = hashFor(path, params);
}

/**
 * Runs `load` when `deps` change; `reload()` runs it again. Errors are returned, not thrown. Data
 * of other deps is dropped at once (a view must never render one query's data as another's);
 * a reload keeps showing the current data until the new one arrives.
 */
export function useLoad(load, deps) {
  const key = JSON.stringify(deps);
  const [state, setState] = useState({ key, loading: true, data: undefined, error: undefined });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => (s.key === key ? { ...s, loading: true } : { key, loading: true, data: undefined, error: undefined }));
    load().then(
      (data) => live && setState({ key, loading: false, data, error: undefined }),
      (error) => live && setState({ key, loading: false, data: undefined, error }),
    );
    return () => (live = false);
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const current = state.key === key ? state : { loading: true, data: undefined, error: undefined };
  return { loading: current.loading, data: current.data, error: current.error, reload };
}

export function ErrorBox({ error }) {
  if (!error) return null;
  return html`<div class="error" role="alert"><strong>${error.code ?? 'Error'}</strong> ${error.message}</div>`;
}

export function fmtDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toISOString().replace('T', ' ').slice(0, 19);
}

export function fmtNum(n, digits = 3) {
  if (n === undefined || n === null) return '—';
  return Number.isInteger(n) ? String(n) : n.toFixed(digits);
}

/** Scores always with 3 decimals, so columns line up and 1 reads as 1.000. */
export function fmtScore(n) {
  return n === undefined || n === null ? '—' : n.toFixed(3);
}

export function fmtUsd(n) {
  return `$${(n ?? 0).toFixed(4)}`;
}

export function Tags({ tags }) {
  return html`${(tags ?? []).map((t) => html`<span class="tag">${t}</span>`)}`;
}

/** A loading line with role=status, so a slow first answer never shows a blank area. */
export function Loading({ what = '' }) {
  return html`<p class="muted loading" role="status" data-testid="loading">
    <span class="spinner" aria-hidden="true"></span>Loading${what ? ` ${what}` : ''}…
  </p>`;
}

/** The three states of a `useLoad` result: loading (first time), error, or `render(data)`. */
export function Loaded({ load, what, render }) {
  if (load.error) return html`<${ErrorBox} error=${load.error} />`;
  if (load.data === undefined) return html`<${Loading} what=${what} />`;
  return render(load.data);
}

export function Empty({ children }) {
  return html`<div class="muted empty" data-testid="empty">${children}</div>`;
}

/** Epoch ms or ISO -> `YYYY-MM-DD HH:MM:SS` (UTC, like every time Strata stores). */
export function fmtTime(t) {
  if (t === undefined || t === null) return '—';
  return fmtDate(typeof t === 'number' ? new Date(t).toISOString() : t);
}
