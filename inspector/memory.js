// One memory: every field, provenance (source messages), history; edit, forget and revert.
import { useState } from 'preact/hooks';
import { api, CATEGORIES } from './api.js';
import { ACTION_LABELS, CATEGORY_LABELS, FIELD_LABELS, label, ROLE_LABELS, scopeLabel, SOURCE_LABELS } from './labels.js';
import { sessionHash } from './sessions.js';
import { ErrorBox, fmtDate, fmtNum, html, Loading, Tags, useLoad } from './ui.js';

const FIELDS = [
  'id',
  'category',
  'scope',
  'importance',
  'confidence',
  'tags',
  'createdAt',
  'updatedAt',
  'validFrom',
  'validTo',
  'supersedes',
  'supersededBy',
  'accessCount',
  'lastAccessedAt',
  'contentHash',
  'embeddingModel',
];

/** A 404 is an answer here (forgotten memory, no history yet), not an error. */
const orNull = (p) => p.catch((e) => (e.status === 404 ? null : Promise.reject(e)));

function fieldValue(m, key) {
  const v = m[key];
  if (key === 'tags') return html`<${Tags} tags=${v} />`;
  if (key === 'supersedes' || key === 'supersededBy')
    return v ? html`<a href=${`#/memory/${encodeURIComponent(v)}`} class="mono">${v}</a>` : '—';
  if (/At$|^valid/.test(key)) return fmtDate(v);
  if (key === 'category') return label(CATEGORY_LABELS, v);
  if (key === 'importance' || key === 'confidence') return fmt2(v);
  if (key === 'scope') return html`<span title=${scopeLabel(v)}>${v}</span>`;
  if (typeof v === 'number') return fmtNum(v, 2);
  return v === null || v === undefined || v === '' ? '—' : String(v);
}

function Fields({ m }) {
  return html`<dl class="fields">
    ${FIELDS.map(
      (k) =>
        html`<dt>${label(FIELD_LABELS, k)}</dt>
          <dd data-field=${k}>${fieldValue(m, k)}</dd>`,
    )}
  </dl>`;
}

/** A number from 0 to 1 (importance, confidence). */
function UnitInput({ label: text, name, value, onInput }) {
  return html`<label
    >${text} <input name=${name} type="number" min="0" max="1" step="0.05" value=${value} onInput=${(e) => onInput(e.target.value)}
  /></label>`;
}

function EditForm({ m, scopes, onDone }) {
  const [text, setText] = useState(m.text);
  const [category, setCategory] = useState(m.category);
  const [scope, setScope] = useState(m.scope);
  const [importance, setImportance] = useState(String(m.importance));
  const [confidence, setConfidence] = useState(String(m.confidence));
  const [tags, setTags] = useState(m.tags.join(', '));
  const [error, setError] = useState(null);
  const save = async (e) => {
    e.preventDefault();
    const patch = {};
    const tagList = tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (text !== m.text) patch.text = text;
    if (category !== m.category) patch.category = category;
    if (scope !== m.scope) patch.scope = scope;
    if (Number(importance) !== m.importance) patch.importance = Number(importance);
    if (Number(confidence) !== m.confidence) patch.confidence = Number(confidence);
    if (tagList.join('\n') !== m.tags.join('\n')) patch.tags = tagList;
    if (Object.keys(patch).length === 0) return onDone('Nothing changed.');
    try {
      await api(`/memories/${encodeURIComponent(m.id)}`, { method: 'PATCH', body: patch });
      onDone(
        `Saved (${Object.keys(patch)
          .map((k) => label(FIELD_LABELS, k).toLowerCase())
          .join(', ')}).`,
      );
    } catch (err) {
      setError(err);
    }
  };
  return html`<form class="edit" onSubmit=${save}>
    <label>Text <textarea name="text" rows="4" value=${text} onInput=${(e) => setText(e.target.value)} /></label>
    <div class="row">
      <label
        >Category
        <select name="category" value=${category} onChange=${(e) => setCategory(e.target.value)}>
          ${CATEGORIES.map((c) => html`<option value=${c}>${label(CATEGORY_LABELS, c)}</option>`)}
        </select></label
      >
      <label
        >Scope
        <select name="scope" value=${scope} onChange=${(e) => setScope(e.target.value)}>
          ${[...new Set([m.scope, ...scopes])].map((s) => html`<option value=${s}>${scopeLabel(s)} (${s})</option>`)}
        </select></label
      >
      <${UnitInput} label="Importance" name="importance" value=${importance} onInput=${setImportance} />
      <${UnitInput} label="Confidence" name="confidence" value=${confidence} onInput=${setConfidence} />
      <label class="grow"
        >Tags <input name="tags" value=${tags} onInput=${(e) => setTags(e.target.value)} placeholder="comma, separated"
      /></label>
    </div>
    <${ErrorBox} error=${error} />
    <div class="row">
      <button type="submit" class="primary">Save</button><button type="button" onClick=${() => onDone(null)}>Cancel</button>
    </div>
  </form>`;
}

function Provenance({ p }) {
  if (!p) return null;
  const s = p.source;
  return html`<section class="card" data-testid="provenance">
    <h3>Provenance</h3>
    <dl class="fields">
      <dt>Source</dt>
      <dd><span data-field="source.kind">${s.kind}</span> <span class="muted">(${label(SOURCE_LABELS, s.kind)})</span></dd>
      <dt>Agent</dt>
      <dd data-field="source.agentId">${s.agentId ?? '—'}</dd>
      <dt>Session</dt>
      <dd class="mono">
        <span data-field="source.sessionKey">${s.sessionKey ?? '—'}</span>${
          s.sessionKey && s.agentId && !p.withheld
            ? html` <a class="session-link" href=${sessionHash(s.agentId, s.sessionKey, s.messageIds[0])}>open the conversation</a>`
            : null
        }
      </dd>
      <dt>Messages</dt>
      <dd class="mono">${s.messageIds.length ? s.messageIds.join(', ') : 'none cited'}</dd>
    </dl>
    ${p.withheld ? html`<p class="warn">${p.withheld}</p>` : null}
    ${p.messages.map(
      (msg) =>
        html`<div class="message" data-role=${msg.role}>
          <div class="meta">
            <b>${label(ROLE_LABELS, msg.role)}</b>${` · ${fmtDate(new Date(msg.timestamp).toISOString())} · `}<span class="mono"
              >${msg.id}</span
            >${` · ${msg.host} · `}<a class="turn-link" href=${sessionHash(msg.agentId, msg.sessionKey, msg.id)}>in the session</a>
          </div>
          <div class="body">${msg.content}</div>
        </div>`,
    )}
    ${p.missing.length && !p.withheld ? html`<p class="muted">Not in the conversation log: ${p.missing.join(', ')}</p>` : null}
  </section>`;
}

function Change({ label, before, after }) {
  if (before === after) return null;
  return html`<div class="change"><span class="muted">${label}</span> <del>${before ?? '—'}</del> → <ins>${after ?? '—'}</ins></div>`;
}

const fmt2 = (n) => (typeof n === 'number' ? n.toFixed(2) : '—');
const tagText = (t) => (t?.length ? t.join(', ') : '—');

/**
 * Entries newest first. An entry's `next` lacks importance and tags, so the full record after a
 * change is the next entry's `previous` (or the current memory for the last change).
 */
function History({ entries, current, onRestore }) {
  if (!entries || entries.length === 0)
    return html`<section class="card">
      <h3>History</h3>
      <p class="muted">No recorded changes.</p>
    </section>`;
  const rows = entries.map((e, i) => ({ e, after: i + 1 < entries.length ? entries[i + 1].previous : current })).reverse();
  return html`<section class="card" data-testid="history">
    <h3>History <span class="muted">(${entries.length})</span></h3>
    <ol class="history">
      ${rows.map(
        ({ e, after }) =>
          html`<li data-action=${e.action}>
            <div class="meta">
              <b>${label(ACTION_LABELS, e.action)}</b
              >${` by ${e.actor} · ${fmtDate(e.at)}`}${e.reason ? html` · <span class="muted">${e.reason}</span>` : null}
              ${e.previous && current ? html` <button type="button" class="link" title="Write this version back as a new change" onClick=${() => onRestore(e.previous)}>Restore the version before this change</button>` : null}
            </div>
            ${e.previous === null && e.next ? html`<div class="change"><ins>${e.next.text}</ins></div>` : null}
            ${e.previous && e.next === null ? html`<div class="change"><del>${e.previous.text}</del></div>` : null}
            ${
              e.previous && e.next
                ? html`<${Change} label="text" before=${e.previous.text} after=${e.next.text} />
                    <${Change} label="category" before=${e.previous.category} after=${e.next.category} />
                    <${Change} label="scope" before=${e.previous.scope} after=${e.next.scope} />
                    ${
                      after
                        ? html`<${Change} label="importance" before=${fmt2(e.previous.importance)} after=${fmt2(after.importance)} />
                            <${Change} label="confidence" before=${fmt2(e.previous.confidence)} after=${fmt2(after.confidence)} />
                            <${Change} label="tags" before=${tagText(e.previous.tags)} after=${tagText(after.tags)} />`
                        : null
                    }`
                : null
            }
          </li>`,
      )}
    </ol>
  </section>`;
}

export function MemoryView({ id, me }) {
  // Where a memory may move: every scope there is (owner) or this caller's.
  const facets = useLoad(() => api('/stats'), []);
  const scopes = me.owner && facets.data ? Object.keys(facets.data.byScope).sort() : me.scopes;
  const [mode, setMode] = useState('view');
  const [flash, setFlash] = useState(null);
  const [error, setError] = useState(null);
  const path = `/memories/${encodeURIComponent(id)}`;
  const load = useLoad(
    () =>
      Promise.all([orNull(api(path)), orNull(api(`${path}/history`)), orNull(api(`${path}/provenance`))]).then(
        ([memory, history, provenance]) => ({ memory, history: history?.entries ?? [], provenance }),
      ),
    [id],
  );
  const act = async (label, call) => {
    setError(null);
    try {
      const out = await call();
      setFlash(typeof out === 'string' ? out : label);
      setMode('view');
      load.reload();
    } catch (err) {
      setError(err);
    }
  };
  const forget = () => act('Forgotten.', () => api(path, { method: 'DELETE' }));
  const restore = (v) =>
    act('Restored an earlier version.', () =>
      api(path, {
        method: 'PATCH',
        body: { text: v.text, category: v.category, importance: v.importance, confidence: v.confidence, tags: v.tags },
      }),
    );
  const revert = () =>
    act('', async () => {
      const r = await api(`${path}/revert`, { method: 'POST', body: {} });
      return `Reverted the last change (${r.reverted.action} by ${r.reverted.actor}).`;
    });

  if (load.error) return html`<${ErrorBox} error=${load.error} />`;
  if (!load.data) return html`<${Loading} what="the memory" />`;
  const { memory: m, history, provenance } = load.data;
  const last = history[history.length - 1];
  const canRevert = Boolean(last);
  return html`<section class="memory">
    <p><a href="#/memories">← Memories</a></p>
    ${flash ? html`<div class="flash" role="status">${flash}</div>` : null}
    <${ErrorBox} error=${error} />
    ${
      m
        ? html`<div class="card">
            <div class="memory-text" data-testid="memory-text">${m.text}</div>
            <div class="actions">
              <span class=${`cat cat-${m.category}`}>${label(CATEGORY_LABELS, m.category)}</span>
              ${
                m.validTo
                  ? html`<span class="warn" data-testid="memory-state"
                      >not current since
                      ${fmtDate(m.validTo)}${m.supersededBy ? html` · current: <a href=${`#/memory/${encodeURIComponent(m.supersededBy)}`} class="mono">${m.supersededBy}</a>` : null}</span
                    >`
                  : html`<span class="state current" data-testid="memory-state">current</span>`
              }
              <span class="grow"></span>
              <button type="button" onClick=${() => setMode(mode === 'edit' ? 'view' : 'edit')}>Edit</button>
              ${
                mode === 'confirm-forget'
                  ? html`<span class="confirm"
                      >Forget this memory? <button type="button" class="danger" onClick=${forget}>Yes, forget</button
                      ><button type="button" onClick=${() => setMode('view')}>Cancel</button></span
                    >`
                  : html`<button type="button" class="danger" onClick=${() => setMode('confirm-forget')}>Forget</button>`
              }
              <button
                type="button"
                disabled=${!canRevert}
                onClick=${revert}
                title=${last ? `Undo: ${last.action} by ${last.actor}, ${fmtDate(last.at)}` : 'No recorded change'}
              >
                Revert last change
              </button>
            </div>
            ${
              mode === 'edit'
                ? html`<${EditForm}
                    m=${m}
                    scopes=${scopes}
                    onDone=${(msg) => {
                      setMode('view');
                      if (msg) {
                        setFlash(msg);
                        load.reload();
                      }
                    }}
                  />`
                : null
            }
            <${Fields} m=${m} />
          </div>`
        : html`<div class="card">
            <p class="warn" data-testid="forgotten">
              Memory <span class="mono">${id}</span> is not in this caller's scopes (forgotten or never existed).
            </p>
            ${canRevert ? html`<button type="button" onClick=${revert} title=${`Undo: ${last.action} by ${last.actor}`}>Revert last change</button> <span class="muted">(last change: ${last.action} by ${last.actor}, ${fmtDate(last.at)})</span>` : null}
          </div>`
    }
    <${Provenance} p=${provenance} />
    <${History} entries=${history} current=${m} onRestore=${restore} />
  </section>`;
}
