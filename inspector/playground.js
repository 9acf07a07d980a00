// Recall playground: one recall with explain, showing each candidate's score at every stage.
import { useState } from 'preact/hooks';
import { api, CATEGORIES } from './api.js';
import { ErrorBox, fmtNum, fmtScore, html, Loading } from './ui.js';

function Stage({ v, rank }) {
  if (!v) return html`<td class="num muted">—</td>`;
  return html`<td class="num">${v}${rank !== undefined ? html`<small class="rank">#${rank}</small>` : null}</td>`;
}

function factorsTitle(factors) {
  return Object.entries(factors ?? {})
    .map(([k, v]) => `${k}: ${typeof v === 'number' ? fmtNum(v) : v}`)
    .join('\n');
}

function Candidates({ explain }) {
  return html`<table class="list stages" data-testid="stages">
    <thead>
      <tr>
        <th>#</th>
        <th>Memory</th>
        <th>Scope</th>
        <th class="num" title="BM25 normalised to the best hit (0..1)">Lexical</th>
        <th class="num" title="Cosine similarity with the query">Vector</th>
        <th class="num" title="Fused score of both channels">Fused</th>
        <th class="num" title="Reranker relevance (blended score)">Rerank</th>
        <th class="num" title="After metadata scoring (hover for factors)">Scored</th>
        <th class="num">Final</th>
        <th>Outcome</th>
      </tr>
    </thead>
    <tbody>
      ${explain.candidates.map(
        (c) =>
          html`<tr class=${c.dropped ? 'dropped' : 'kept'} data-id=${c.id}>
            <td class="num">${c.final ? c.final.rank : ''}</td>
            <td class="text"><a href=${`#/memory/${encodeURIComponent(c.id)}`}>${c.preview}</a></td>
            <td class="mono">${c.scope}</td>
            <${Stage} v=${c.lexical && fmtScore(c.lexical.normalized)} rank=${c.lexical?.rank} />
            <${Stage} v=${c.vector && fmtScore(c.vector.score)} rank=${c.vector?.rank} />
            <${Stage} v=${c.fused && fmtScore(c.fused.score)} rank=${c.fused?.rank} />
            <${Stage}
              v=${c.rerank && (c.rerank.score === undefined ? `→${fmtScore(c.rerank.blended)}` : `${fmtScore(c.rerank.score)} →${fmtScore(c.rerank.blended)}`)}
              rank=${c.rerank?.rank}
            />
            <td class="num" title=${factorsTitle(c.scoring?.factors)}>${c.scoring ? fmtScore(c.scoring.score) : '—'}</td>
            <td class="num"><b>${c.final ? fmtScore(c.final.score) : '—'}</b></td>
            <td class="outcome">
              ${c.dropped ? html`<span class="warn">dropped at ${c.dropped.stage}</span> <small>${c.dropped.reason}</small>` : 'returned'}${c.demoted ? html` <small class="muted">demoted: similar to ${c.demoted.similarTo} (${fmtScore(c.demoted.similarity)}, ${c.demoted.by})</small>` : null}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function Summary({ result }) {
  const x = result.explain;
  const channel = (name, r) =>
    html`<span class=${r.used ? '' : 'muted'}>${name}: ${r.used ? `${r.hits} hits` : 'off'}${r.note ? ` (${r.note})` : ''}</span>`;
  return html`<div class="summary">
    <div>
      Searched
      <q>${result.query}</q>${x.query.removed.length ? html` <small class="muted">(removed: ${x.query.removed.join(', ')})</small>` : null}
    </div>
    <div>
      ${channel('lexical', x.channels.lexical)} · ${channel('vector', x.channels.vector)} · fusion ${x.fusion.method} · rerank
      ${x.rerank.applied ? `applied (${x.rerank.reranker ?? ''}, window ${x.rerank.window})` : `not applied${x.rerank.note ? ` (${x.rerank.note})` : ''}`}
    </div>
    <div class="muted">
      pool ${x.candidatePool} · limit ${x.limit} · min score ${x.minScore} · ${result.results.length} returned, ${x.dropped.length} dropped
      · ${fmtNum(result.timings.total, 1)} ms
    </div>
    ${
      x.notes.length
        ? html`<ul class="notes">
            ${x.notes.map((n) => html`<li>${n}</li>`)}
          </ul>`
        : null
    }
  </div>`;
}

export function PlaygroundView({ me, params }) {
  const [query, setQuery] = useState(params.get('q') ?? '');
  const [scopes, setScopes] = useState(me.scopes);
  const [category, setCategory] = useState('');
  const [limit, setLimit] = useState('10');
  const [rerank, setRerank] = useState('default');
  const [history, setHistory] = useState(false);
  const [state, setState] = useState({ result: null, error: null, busy: false });
  const toggle = (s) => setScopes(scopes.includes(s) ? scopes.filter((x) => x !== s) : [...scopes, s]);
  const run = async (e) => {
    e.preventDefault();
    if (!query.trim()) return;
    setState({ ...state, busy: true, error: null });
    const body = { query: query.trim(), explain: true, limit: Number(limit) || 10, includeHistory: history };
    if (scopes.length && scopes.length < me.scopes.length) body.scopes = scopes;
    if (category) body.categories = [category];
    if (rerank !== 'default') body.rerank = rerank === 'on';
    try {
      setState({ result: await api('/recall', { method: 'POST', body }), error: null, busy: false });
    } catch (error) {
      setState({ result: null, error, busy: false });
    }
  };
  return html`<section>
    <form class="playground" onSubmit=${run}>
      <div class="row">
        <input
          type="search"
          name="query"
          class="grow"
          placeholder="Query, as an agent would send it"
          value=${query}
          onInput=${(e) => setQuery(e.target.value)}
        /><button type="submit" class="primary" disabled=${state.busy}>Recall</button>
      </div>
      <div class="row">
        ${me.owner ? html`<span>Owner: every scope of this home</span>` : html`<span>Agent <b>${me.agent ?? '(none)'}</b> · scopes</span>`}
        ${(me.owner ? [] : me.scopes).map((s) => html`<label class="check"><input type="checkbox" name="scope" value=${s} checked=${scopes.includes(s)} onChange=${() => toggle(s)} /> ${s}</label>`)}
      </div>
      <div class="row">
        <label
          >Category
          <select name="category" value=${category} onChange=${(e) => setCategory(e.target.value)}>
            <option value="">all</option>
            ${CATEGORIES.map((c) => html`<option value=${c}>${c}</option>`)}
          </select></label
        >
        <label
          >Limit <input name="limit" type="number" min="1" max="100" value=${limit} onInput=${(e) => setLimit(e.target.value)}
        /></label>
        <label
          >Rerank
          <select name="rerank" value=${rerank} onChange=${(e) => setRerank(e.target.value)}>
            <option value="default">as configured</option>
            <option value="on">on</option>
            <option value="off">off</option>
          </select></label
        >
        <label class="check"
          ><input type="checkbox" name="history" checked=${history} onChange=${(e) => setHistory(e.target.checked)} /> include
          superseded</label
        >
      </div>
    </form>
    <${ErrorBox} error=${state.error} />
    ${state.busy ? html`<${Loading} what="recall" />` : null}
    ${state.result ? html`<${Summary} result=${state.result} /><${Candidates} explain=${state.result.explain} />` : null}
  </section>`;
}
