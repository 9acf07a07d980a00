// Browse (filter by scope, agent, category, tag; page) and search (recall) memories; select rows
// and forget them in bulk. Filters live in the URL hash so a view can be linked and survives
// opening a memory and coming back.
import { useEffect, useState } from 'preact/hooks';
import { api, CATEGORIES } from './api.js';
import { CATEGORY_LABELS, label, scopeLabel } from './labels.js';
import { Empty, ErrorBox, fmtDate, fmtNum, fmtScore, hashFor, html, Loading, navigate, Tags, useLoad } from './ui.js';

const PAGE = 25;
/** The server takes at most this many ids per forget call. */
const FORGET_BATCH = 100;

function Filters({ me, f, scopes, agents, onChange }) {
  const set = (key) => (e) => onChange({ ...f, [key]: e.target.type === 'checkbox' ? e.target.checked : e.target.value, offset: 0 });
  return html`<div class="filters">
    <label
      >Scope
      <select name="scope" value=${f.scope} onChange=${set('scope')}>
        <option value="">${me.owner ? `every scope (${scopes.length})` : `all of mine (${scopes.length})`}</option>
        ${scopes.map((s) => html`<option value=${s}>${scopeLabel(s)}</option>`)}
      </select></label
    >
    <label
      >Learned from
      <select name="agent" value=${f.agent} onChange=${set('agent')}>
        <option value="">any agent</option>
        ${agents.map((a) => html`<option value=${a}>${a}</option>`)}
      </select></label
    >
    <label
      >Category
      <select name="category" value=${f.category} onChange=${set('category')}>
        <option value="">all</option>
        ${CATEGORIES.map((c) => html`<option value=${c}>${label(CATEGORY_LABELS, c)}</option>`)}
      </select></label
    >
    <label>Tag <input name="tag" size="10" value=${f.tag} onChange=${set('tag')} placeholder="any" /></label>
    <label
      >Order
      <select name="order" value=${f.order} onChange=${set('order')}>
        <option value="newest">newest first</option>
        <option value="oldest">oldest first</option>
      </select></label
    >
    <label class="check"
      ><input type="checkbox" name="history" checked=${f.history} onChange=${set('history')} /> include replaced ones</label
    >
  </div>`;
}

function MemoryRow({ m, score, history, selected, onSelect }) {
  // With superseded memories listed, every row says whether it is the current one.
  const state = !history
    ? null
    : m.validTo
      ? html` <span class="state old" title=${m.supersededBy ? `replaced by ${m.supersededBy}` : ''}>until ${fmtDate(m.validTo)}</span>`
      : html` <span class="state current">current</span>`;
  return html`<tr class=${`${m.validTo ? 'old' : ''}${selected ? ' selected' : ''}`} data-id=${m.id}>
    <td class="pick">
      <input type="checkbox" aria-label="Select" checked=${selected} onChange=${(e) => onSelect(m.id, e.target.checked)} />
    </td>
    <td class="text"><a href=${`#/memory/${encodeURIComponent(m.id)}`}>${m.text}</a>${state}</td>
    <td><span class=${`cat cat-${m.category}`} title=${m.category}>${label(CATEGORY_LABELS, m.category)}</span></td>
    <td class="mono" title=${scopeLabel(m.scope)}>${m.scope}</td>
    <td><${Tags} tags=${m.tags} /></td>
    <td class="num">${score === undefined ? fmtNum(m.importance, 2) : fmtScore(score)}</td>
    <td class="nowrap">${fmtDate(m.createdAt)}</td>
  </tr>`;
}

function MemoryTable({ rows, scored, history, selected, onSelect }) {
  if (rows.length === 0) return html`<${Empty}>No memories match these filters.</${Empty}>`;
  const all = rows.every((r) => selected.has(r.m.id));
  return html`<table class="list">
    <thead>
      <tr>
        <th class="pick">
          <input
            type="checkbox"
            aria-label="Select all on this page"
            checked=${all}
            onChange=${(e) => rows.forEach((r) => onSelect(r.m.id, e.target.checked))}
          />
        </th>
        <th>Memory</th>
        <th>Category</th>
        <th>Scope</th>
        <th>Tags</th>
        <th class="num">${scored ? 'Score' : 'Importance'}</th>
        <th>Created</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map((r) => html`<${MemoryRow} key=${r.m.id} m=${r.m} score=${r.score} history=${history} selected=${selected.has(r.m.id)} onSelect=${onSelect} />`)}
    </tbody>
  </table>`;
}

/** The selection bar: how many are selected, and forget them after a confirmation naming the count. */
function BulkBar({ selected, onClear, onDone }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  if (selected.size === 0) return null;
  const forget = async () => {
    setBusy(true);
    setError(null);
    const ids = [...selected];
    let deleted = 0;
    try {
      for (let i = 0; i < ids.length; i += FORGET_BATCH) {
        deleted += (await api('/memories/forget', { method: 'POST', body: { ids: ids.slice(i, i + FORGET_BATCH) } })).deleted;
      }
      setConfirming(false);
      onDone(`Forgot ${deleted} memor${deleted === 1 ? 'y' : 'ies'}. Each can be brought back from its history (Revert).`);
    } catch (err) {
      setError(err);
      if (deleted) onDone(`Forgot ${deleted} before an error.`);
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="bulk" data-testid="bulk-bar">
    <b>${selected.size} selected</b>
    <button type="button" class="link" onClick=${onClear}>Clear selection</button>
    ${
      confirming
        ? html`<span class="confirm" role="alertdialog"
            >Forget ${selected.size} memor${selected.size === 1 ? 'y' : 'ies'}? They leave recall at once.
            <button type="button" class="danger" disabled=${busy} onClick=${forget}>Yes, forget ${selected.size}</button>
            <button type="button" onClick=${() => setConfirming(false)}>Cancel</button></span
          >`
        : html`<button type="button" class="danger" onClick=${() => setConfirming(true)}>Forget selected</button>`
    }
    <${ErrorBox} error=${error} />
  </div>`;
}

export function MemoriesView({ me, params }) {
  const f = {
    scope: params.get('scope') ?? '',
    agent: params.get('agent') ?? '',
    category: params.get('category') ?? '',
    tag: params.get('tag') ?? '',
    order: params.get('order') ?? 'newest',
    history: params.get('history') === 'true',
    offset: Number(params.get('offset') ?? 0) || 0,
    q: params.get('q') ?? '',
  };
  const [draft, setDraft] = useState(f.q);
  const [selected, setSelected] = useState(new Set());
  const [flash, setFlash] = useState(null);
  const go = (next) => navigate('memories', next);
  // A selection never outlives the rows it was made on: forgetting must not reach rows out of sight.
  useEffect(() => setSelected(new Set()), [params.toString()]);
  // Every scope there is (owner) or of this caller, and the agents memories came from: the filter choices.
  const facets = useLoad(() => api('/overview'), []);
  const scopes = facets.data ? [...new Set([...Object.keys(facets.data.byScope), ...(me.owner ? [] : me.scopes)])].sort() : me.scopes;
  const agents = facets.data
    ? Object.keys(facets.data.byAgent)
        .filter((a) => a !== '(none)')
        .sort()
    : [];
  const listing = useLoad(
    () =>
      f.q
        ? api('/recall', {
            method: 'POST',
            body: {
              query: f.q,
              limit: 25,
              includeHistory: f.history,
              ...(f.scope ? { scopes: [f.scope] } : {}),
              ...(f.category ? { categories: [f.category] } : {}),
            },
          })
        : api('/memories', {
            query: {
              scope: f.scope,
              agent: f.agent,
              category: f.category,
              tag: f.tag,
              order: f.order,
              history: f.history ? 'true' : '',
              limit: PAGE,
              offset: f.offset,
            },
          }),
    [params.toString()],
  );
  const onSelect = (id, on) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const search = (e) => {
    e.preventDefault();
    go({ ...f, q: draft.trim(), offset: 0 });
  };
  const data = listing.data;
  const table = (rows, scored) =>
    html`<${MemoryTable} rows=${rows} scored=${scored} history=${f.history} selected=${selected} onSelect=${onSelect} />`;
  let body = null;
  if (!data && listing.loading) body = html`<${Loading} what=${f.q ? 'search results' : 'memories'} />`;
  else if (data && f.q) {
    const hits = data.results.filter((r) => (!f.tag || r.record.tags.includes(f.tag)) && (!f.agent || r.record.source.agentId === f.agent));
    body = html`<p class="muted">
        ${hits.length} result${hits.length === 1 ? '' : 's'} for <q>${data.query}</q> ·
        <a href=${hashFor('playground', { q: f.q })}>explain in the playground</a>
      </p>
      ${table(
        hits.map((r) => ({ m: r.record, score: r.score })).sort((a, b) => Number(Boolean(a.m.validTo)) - Number(Boolean(b.m.validTo))),
        true,
      )}`;
  } else if (data) {
    const end = data.offset + data.memories.length;
    const more = end < data.total;
    body = html`${table(
        data.memories.map((m) => ({ m })),
        false,
      )}
      <div class="pager">
        <button type="button" disabled=${data.offset === 0} onClick=${() => go({ ...f, offset: Math.max(0, data.offset - PAGE) })}>
          ← Previous
        </button>
        <span class="muted" data-testid="page-info">${data.memories.length ? `${data.offset + 1}–${end}` : '0'}${` of ${data.total}`}</span>
        <button type="button" disabled=${!more} onClick=${() => go({ ...f, offset: data.offset + PAGE })}>Next →</button>
      </div>`;
  }
  return html`<section>
    ${
      me.owner
        ? html`<p class="owner-note" data-testid="owner-note">
            Owner view: every scope and every agent's memories in this Strata home. Filter by scope or by the agent a memory was learned
            from.
          </p>`
        : null
    }
    <form class="search" onSubmit=${search}>
      <input type="search" name="q" placeholder="Search memories (recall)…" value=${draft} onInput=${(e) => setDraft(e.target.value)} />
      <button type="submit">Search</button>
      ${
        f.q
          ? html`<button
              type="button"
              class="link"
              onClick=${() => {
                setDraft('');
                go({ ...f, q: '' });
              }}
            >
              Clear search
            </button>`
          : null
      }
      ${listing.loading && data ? html`<span class="muted" role="status">Updating…</span>` : null}
    </form>
    <${Filters} me=${me} f=${f} scopes=${scopes} agents=${agents} onChange=${go} />
    ${flash ? html`<div class="flash" role="status">${flash}</div>` : null}
    <${BulkBar}
      selected=${selected}
      onClear=${() => setSelected(new Set())}
      onDone=${(msg) => {
        setFlash(msg);
        setSelected(new Set());
        listing.reload();
        facets.reload();
      }}
    />
    <${ErrorBox} error=${listing.error} />
    ${body}
  </section>`;
}
