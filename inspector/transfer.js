/* global document, URL, Blob, fetch, location, setTimeout */
// Export (download JSONL of the scopes this server may read) and import (upload JSONL, check it with
// a dry run and a preview, then import).
import { useState } from 'preact/hooks';
import { api, ApiError, token } from './api.js';
import { CATEGORY_LABELS, label, scopeLabel } from './labels.js';
import { Empty, ErrorBox, html, useLoad } from './ui.js';

/** The server's request body limit (strata serve: 1 MB); the JSON envelope needs a little of it. */
const MAX_UPLOAD_BYTES = 1024 * 1024 - 4096;

async function download({ scope, history }) {
  const url = new URL('/api/v1/export', location.origin);
  if (scope) url.searchParams.set('scope', scope);
  if (!history) url.searchParams.set('history', 'false');
  const headers = token.get() ? { authorization: `Bearer ${token.get()}` } : {};
  const res = await fetch(url, { headers });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(res.status, body?.error?.code ?? `HTTP_${res.status}`, body?.error?.message ?? res.statusText);
  }
  const text = await res.text();
  const lines = text.split('\n').filter(Boolean).length;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  a.download = `strata-export-${scope ? scope.replace(/[^A-Za-z0-9._-]+/g, '_') : 'all'}-${new Date().toISOString().slice(0, 10)}.jsonl`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return lines;
}

function ExportCard({ me, scopes }) {
  const [scope, setScope] = useState('');
  const [history, setHistory] = useState(true);
  const [state, setState] = useState({});
  const run = async () => {
    setState({ busy: true });
    try {
      const lines = await download({ scope, history });
      setState({ done: `Downloaded ${lines} memor${lines === 1 ? 'y' : 'ies'} as JSONL.` });
    } catch (error) {
      setState({ error });
    }
  };
  return html`<div class="card" data-testid="export">
    <h3>Export</h3>
    <p class="muted">One memory per line (JSONL), every field, in the format Import and <code>strata import</code> read back.</p>
    <div class="row">
      <label
        >Scope
        <select name="export-scope" value=${scope} onChange=${(e) => setScope(e.target.value)}>
          <option value="">${me.owner ? 'every scope (owner)' : 'all of mine'}</option>
          ${scopes.map((s) => html`<option value=${s}>${scopeLabel(s)}</option>`)}
        </select></label
      >
      <label class="check"
        ><input type="checkbox" name="export-history" checked=${history} onChange=${(e) => setHistory(e.target.checked)} /> include replaced
        versions</label
      >
      <button type="button" class="primary" disabled=${state.busy} onClick=${run}>${state.busy ? 'Exporting…' : 'Download JSONL'}</button>
    </div>
    ${state.done ? html`<div class="flash" role="status">${state.done}</div>` : null}
    <${ErrorBox} error=${state.error} />
  </div>`;
}

function Report({ r }) {
  return html`<div data-testid="import-report">
    <p>
      ${`${r.dryRun ? 'Dry run: nothing was written. ' : ''}${r.lines} line${r.lines === 1 ? '' : 's'} read · `}
      <b data-testid="import-count">${r.imported}</b>
      ${` ${r.dryRun ? 'would be imported' : 'imported'} · ${r.skippedExisting} already present (same id) · ${r.skippedDuplicate} duplicate text · ${r.invalid.length} invalid`}
    </p>
    ${
      r.invalid.length
        ? html`<ul class="invalid" data-testid="import-invalid">
            ${r.invalid.slice(0, 20).map((i) => html`<li>line ${i.line}: ${i.error}</li>`)}
          </ul>`
        : null
    }
    ${
      r.preview.length
        ? html`<table class="list" data-testid="import-preview">
            <thead>
              <tr>
                <th class="num">Line</th>
                <th>Memory</th>
                <th>Category</th>
                <th>Scope</th>
              </tr>
            </thead>
            <tbody>
              ${r.preview.map(
                (p) =>
                  html`<tr>
                    <td class="num">${p.line}</td>
                    <td class="text">${p.text}</td>
                    <td>${label(CATEGORY_LABELS, p.category)}</td>
                    <td class="mono">${p.scope}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
        : null
    }
  </div>`;
}

function ImportCard({ me, scopes, onImported }) {
  const [file, setFile] = useState(null);
  const [scope, setScope] = useState('');
  const [state, setState] = useState({});
  const choose = (e) => {
    const f = e.target.files?.[0] ?? null;
    setState(
      f && f.size > MAX_UPLOAD_BYTES
        ? { error: { code: 'TOO_LARGE', message: `${f.name} is over 1 MB: import it with strata import ${f.name}.` } }
        : {},
    );
    setFile(f && f.size <= MAX_UPLOAD_BYTES ? f : null);
  };
  const send = async (dryRun) => {
    setState((s) => ({ ...s, busy: true, error: null }));
    try {
      const jsonl = await file.text();
      const report = await api('/import', { method: 'POST', body: { jsonl, dryRun, ...(scope ? { scope } : {}) } });
      setState({ report, checked: dryRun });
      if (!dryRun) onImported();
    } catch (error) {
      setState({ error });
    }
  };
  const r = state.report;
  return html`<div class="card" data-testid="import">
    <h3>Import</h3>
    <p class="muted">
      A JSONL file as Export writes it (or lines of <code>{"text": …, "scope": …}</code>). Check it first: the dry run validates every line
      and shows what would be stored; ids and texts already present are skipped. Files over 1 MB: <code>strata import</code>.
    </p>
    <div class="row">
      <input type="file" name="import-file" accept=".jsonl,.json,.ndjson,application/x-ndjson,text/plain" onChange=${choose} />
      <label
        >Into scope
        <select name="import-scope" value=${scope} onChange=${(e) => (setScope(e.target.value), setState({}))}>
          <option value="">as each line says</option>
          ${scopes.map((s) => html`<option value=${s}>${scopeLabel(s)}</option>`)}
        </select></label
      >
      <button type="button" disabled=${!file || state.busy} onClick=${() => send(true)}>Check (dry run)</button>
      <button
        type="button"
        class="primary"
        disabled=${!file || state.busy || !(r && state.checked && r.imported > 0)}
        onClick=${() => send(false)}
      >
        ${r && state.checked ? `Import ${r.imported}` : 'Import'}
      </button>
    </div>
    ${!me.owner ? html`<p class="muted">Lines may only go to this server's scopes: ${me.scopes.join(', ')}.</p>` : null}
    <${ErrorBox} error=${state.error} />
    ${r ? html`<${Report} r=${r} />` : file ? null : html`<${Empty}>Choose a file to check.</${Empty}>`}
    ${r && !state.checked ? html`<div class="flash" role="status">Imported ${r.imported} memor${r.imported === 1 ? 'y' : 'ies'}.</div>` : null}
  </div>`;
}

export function TransferView({ me }) {
  const stats = useLoad(() => api('/stats'), []);
  const scopes = stats.data ? [...new Set([...Object.keys(stats.data.byScope), ...(me.owner ? [] : me.scopes)])].sort() : me.scopes;
  return html`<section class="split">
    <${ExportCard} me=${me} scopes=${scopes} />
    <${ImportCard} me=${me} scopes=${scopes} onImported=${stats.reload} />
  </section>`;
}
