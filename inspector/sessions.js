/* global document */
// Conversations: the sessions of the log, one session's turns (with the memories learned from each
// turn), and search over what was said. A memory's provenance links here, and each turn links back.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api.js';
import { CATEGORY_LABELS, label, ROLE_LABELS } from './labels.js';
import { Empty, ErrorBox, fmtScore, fmtTime, hashFor, html, Loaded, Loading, navigate, useLoad } from './ui.js';

const PAGE = 50;

export const sessionHash = (agentId, sessionKey, turn) => hashFor('session', { agent: agentId, key: sessionKey, turn });

function SearchHits({ query, sessionKey }) {
  const hits = useLoad(
    () => api('/conversations/search', { method: 'POST', body: { query, limit: 20, ...(sessionKey ? { sessionKey } : {}) } }),
    [query, sessionKey],
  );
  return html`<div class="card" data-testid="conversation-hits">
    <h3>What was said about <q>${query}</q></h3>
    <${Loaded}
      load=${hits}
      what="matching turns"
      render=${(r) =>
        r.results.length === 0
          ? html`<${Empty}>${r.note ?? 'No turn matches.'}</${Empty}>`
          : html`<ol class="hits">
              ${r.results.map(
                (h) =>
                  html`<li>
                    <div class="meta">
                      <b>${label(ROLE_LABELS, h.record.role)}</b>
                      ${` · ${h.record.agentId} · ${fmtTime(h.record.timestamp)} · score ${fmtScore(h.score)} · `}
                      <a href=${sessionHash(h.record.agentId, h.record.sessionKey, h.record.id)}>open in its session</a>
                    </div>
                    <div class="body">${h.record.content}</div>
                  </li>`,
              )}
            </ol>`}
    />
  </div>`;
}

function SearchForm({ initial, onSearch, placeholder }) {
  const [draft, setDraft] = useState(initial);
  return html`<form
    class="search"
    onSubmit=${(e) => {
      e.preventDefault();
      onSearch(draft.trim());
    }}
  >
    <input type="search" name="cq" placeholder=${placeholder} value=${draft} onInput=${(e) => setDraft(e.target.value)} />
    <button type="submit">Search conversations</button>
    ${initial ? html`<button type="button" class="link" onClick=${() => (setDraft(''), onSearch(''))}>Clear</button>` : null}
  </form>`;
}

export function SessionsView({ params }) {
  const agent = params.get('agent') ?? '';
  const q = params.get('q') ?? '';
  const offset = Number(params.get('offset') ?? 0) || 0;
  const go = (next) => navigate('sessions', { agent, q, offset: 0, ...next });
  const all = useLoad(() => api('/sessions', { query: { limit: 500 } }), []);
  const list = useLoad(() => api('/sessions', { query: { agent, limit: PAGE, offset } }), [agent, offset]);
  const agents = all.data ? [...new Set(all.data.sessions.map((s) => s.agentId))].sort() : [];
  return html`<section>
    <${SearchForm} initial=${q} onSearch=${(query) => go({ q: query })} placeholder="Search every conversation you may read…" />
    ${q ? html`<${SearchHits} query=${q} />` : null}
    <div class="filters">
      <label
        >Agent
        <select name="agent" value=${agent} onChange=${(e) => go({ agent: e.target.value })}>
          <option value="">every agent</option>
          ${agents.map((a) => html`<option value=${a}>${a}</option>`)}
        </select></label
      >
    </div>
    <${Loaded}
      load=${list}
      what="sessions"
      render=${(r) =>
        r.sessions.length === 0
          ? html`<${Empty}>${r.note ?? 'No conversations captured yet. Hosts capture them as agents work (or run strata ingest).'}</${Empty}>`
          : html`<table class="list" data-testid="sessions">
                <thead>
                  <tr>
                    <th>Session</th>
                    <th>Agent</th>
                    <th>Host</th>
                    <th class="num">Messages</th>
                    <th>Started</th>
                    <th>Last message</th>
                  </tr>
                </thead>
                <tbody>
                  ${r.sessions.map(
                    (s) =>
                      html`<tr>
                        <td class="mono"><a href=${sessionHash(s.agentId, s.sessionKey)}>${s.sessionKey}</a></td>
                        <td>${s.agentId}</td>
                        <td>${s.host}</td>
                        <td class="num">${s.messages}</td>
                        <td class="nowrap">${fmtTime(s.firstTimestamp)}</td>
                        <td class="nowrap">${fmtTime(s.lastTimestamp)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
              <div class="pager">
                <button
                  type="button"
                  disabled=${offset === 0}
                  onClick=${() => navigate('sessions', { agent, q, offset: Math.max(0, offset - PAGE) })}
                >
                  ← Previous
                </button>
                <span class="muted">${offset + 1}–${offset + r.sessions.length} of ${r.total}</span>
                <button
                  type="button"
                  disabled=${offset + r.sessions.length >= r.total}
                  onClick=${() => navigate('sessions', { agent, q, offset: offset + PAGE })}
                >
                  Next →
                </button>
              </div>`}
    />
  </section>`;
}

function Turn({ t, cited, focused }) {
  return html`<div class=${`message${focused ? ' focused' : ''}`} data-role=${t.role} id=${`turn-${t.id}`} data-turn=${t.id}>
    <div class="meta"><b>${label(ROLE_LABELS, t.role)}</b> · ${fmtTime(t.timestamp)} · <span class="mono">${t.id}</span></div>
    <div class="body">${t.content}</div>
    ${
      cited?.length
        ? html`<div class="cited" data-testid="cited-by">
            Learned from this turn:
            ${cited.map(
              (m) =>
                html`<a
                  class="memory-link"
                  href=${`#/memory/${encodeURIComponent(m.id)}`}
                  title=${`${label(CATEGORY_LABELS, m.category)} · ${m.scope}`}
                  >${m.text}</a
                >`,
            )}
          </div>`
        : null
    }
  </div>`;
}

export function SessionView({ params }) {
  const agentId = params.get('agent') ?? '';
  const sessionKey = params.get('key') ?? '';
  const turn = params.get('turn') ?? '';
  const q = params.get('q') ?? '';
  const [offset, setOffset] = useState(0);
  const load = useLoad(() => api('/session', { query: { agentId, sessionKey, limit: 200, offset } }), [agentId, sessionKey, offset]);
  useEffect(() => {
    if (turn && load.data) document.getElementById(`turn-${turn}`)?.scrollIntoView({ block: 'center' });
  }, [turn, load.data]);
  if (!agentId || !sessionKey) return html`<${ErrorBox} error=${{ code: 'INVALID_ARGUMENT', message: 'This link names no session.' }} />`;
  return html`<section>
    <p><a href="#/sessions">← Conversations</a></p>
    <h2 class="mono">${sessionKey} <span class="muted">· ${agentId}</span></h2>
    <${SearchForm}
      initial=${q}
      onSearch=${(query) => navigate('session', { agent: agentId, key: sessionKey, q: query })}
      placeholder="Search this session…"
    />
    ${q ? html`<${SearchHits} query=${q} sessionKey=${sessionKey} />` : null}
    <${Loaded}
      load=${load}
      what="the session"
      render=${(s) =>
        html`<div class="card" data-testid="turns">
          <p class="muted">
            ${s.total} messages${s.total > s.turns.length ? `, showing ${s.offset + 1}–${s.offset + s.turns.length}` : ''}.
          </p>
          ${s.turns.map((t) => html`<${Turn} key=${t.id} t=${t} cited=${s.citedBy[t.id]} focused=${t.id === turn} />`)}
          ${
            s.total > s.turns.length
              ? html`<div class="pager">
                  <button type="button" disabled=${s.offset === 0} onClick=${() => setOffset(Math.max(0, s.offset - s.limit))}>
                    ← Earlier
                  </button>
                  <button type="button" disabled=${s.offset + s.turns.length >= s.total} onClick=${() => setOffset(s.offset + s.limit)}>
                    Later →
                  </button>
                </div>`
              : null
          }
        </div>`}
    />
    ${load.loading && load.data ? html`<${Loading} />` : null}
  </section>`;
}
