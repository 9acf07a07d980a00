// Browse (filter by scope, category, tag; page) and search (recall) memories. Filters live in the
// URL hash so a view can be linked and survives opening a memory and coming back.
import { useState } from 'preact/hooks';
import { api, CATEGORIES } from './api.js';
import { ErrorBox, fmtDate, fmtNum, fmtScore, hashFor, html, navigate, Tags, useLoad } from './ui.js';

const PAGE = 25;

function Filters({ me, f, onChange }) {
  const set = (key) => (e) => onChange({ ...f, [key]: e.target.type === 'checkbox' ? e.target.checked : e.target.value, offset: 0 });
  return html`<div class="filters">
    <label
      >Scope
      <select name="scope" value=${f.scope} onChange=${set('scope')}>
        <option value="">all (${me.scopes.length})</option>
        ${me.scopes.map((s) => html`<option value=${s}>${s}</option>`)}
      </select></label
    >
    <label
      >Category
      <select name="category" value=${f.category} onChange=${set('category')}>
        <option value="">all</option>
        ${CATEGORIES.map((c) => html`<option value=${c}>${c}</option>`)}
      </select></label
    >
    <label>Tag <input name="tag" size="10" value=${f.tag} onChange=${set('tag')} placeholder="any" /></label>
    <label
      >Order
      <select name="order" value=${f.order} onChange=${set('order')}>
        <option value="newest">newest</option>
        <option value="oldest">oldest</option>
      </select></label
    >
    <label class="check"><input type="checkbox" name="history" checked=${f.history} onChange=${set('history')} /> include superseded</label>
  </div>`;
}

function MemoryRow({ m, score, history }) {
  // With superseded memories listed, every row says whether it is the current one.
  const state = !history
    ? null
    : m.validTo
      ? html` <span class="state old" title=${m.supersededBy ? `replaced by ${m.supersededBy}` : ''}>until ${fmtDate(m.validTo)}</span>`
      : html` <span class="state current">current</span>`;
  return html`<tr class=${m.validTo ? 'old' : ''}>
    <td class="text"><a href=${`#/memory/${encodeURIComponent(m.id)}`}>${m.text}</a>${state}</td>
    <td><span class=${`cat cat-${m.category}`}>${m.category}</span></td>
    <td class="mono">${m.scope}</td>
    <td><${Tags} tags=${m.tags} /></td>
    <td class="num">${score === undefined ? fmtNum(m.importance, 2) : fmtScore(score)}</td>
    <td class="nowrap">${fmtDate(m.updatedAt)}</td>
  </tr>`;
}

function MemoryTable({ rows, scored, history }) {
  if (rows.length === 0) return html`<p class="muted empty">No memories match.</p>`;
  return html`<table class="list">
    <thead>
      <tr>
        <th>Memory</th>
        <th>Category</th>
        <th>Scope</th>
        <th>Tags</th>
        <th class="num">${scored ? 'Score' : 'Importance'}</th>
        <th>Updated</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map((r) => html`<${MemoryRow} key=${r.m.id} m=${r.m} score=${r.score} history=${history} />`)}
    </tbody>
  </table>`;
}

export function MemoriesView({ me, params }) {
  const f = {
    scope: params.get('scope') ?? '',
    category: params.get('category') ?? '',
    tag: params.get('tag') ?? '',
    order: params.get('order') ?? 'newest',
    history: params.get('history') === 'true',
    offset: Number(params.get('offset') ?? 0) || 0,
    q: params.get('q') ?? '',
  };
  const [draft, setDraft] = useState(f.q);
  const go = (next) => navigate('memories', next);
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
  const search = (e) => {
    e.preventDefault();
    go({ ...f, q: draft.trim(), offset: 0 });
  };
  const data = listing.data;
  let body = null;
  if (data && f.q) {
    const hits = data.results.filter((r) => !f.tag || r.record.tags.includes(f.tag));
    body = html`<p class="muted">
        ${hits.length} result${hits.length === 1 ? '' : 's'} for <q>${data.query}</q> ·
        <a href=${hashFor('playground', { q: f.q })}>explain in the playground</a>
      </p>
      <${MemoryTable}
        rows=${hits.map((r) => ({ m: r.record, score: r.score })).sort((a, b) => Number(Boolean(a.m.validTo)) - Number(Boolean(b.m.validTo)))}
        scored
        history=${f.history}
      />`;
  } else if (data) {
    const end = data.offset + data.memories.length;
    const more = end < data.total;
    body = html`<${MemoryTable} rows=${data.memories.map((m) => ({ m }))} history=${f.history} />
      <div class="pager">
        <button type="button" disabled=${data.offset === 0} onClick=${() => go({ ...f, offset: Math.max(0, data.offset - PAGE) })}>
          ← Previous
        </button>
        <span class="muted" data-testid="page-info">${data.memories.length ? `${data.offset + 1}–${end}` : '0'}${` of ${data.total}`}</span>
        <button type="button" disabled=${!more} onClick=${() => go({ ...f, offset: data.offset + PAGE })}>Next →</button>
      </div>`;
  }
  return html`<section>
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
    </form>
    <${Filters} me=${me} f=${f} onChange=${go} />
    <${ErrorBox} error=${listing.error} />
    ${body}
  </section>`;
}
