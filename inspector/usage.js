// Memory counts and LLM usage/cost (the usage log summed as `strata stats` does), per month and model.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { ErrorBox, fmtUsd, html, Loading, useLoad } from './ui.js';
import { LlmState } from './overview.js';

function Totals({ t }) {
  return html`<div class="totals">
    ${[
      ['calls', t.calls],
      ['failed', t.failedCalls],
      ['input tokens', t.inputTokens.toLocaleString('en-US')],
      ['output tokens', t.outputTokens.toLocaleString('en-US')],
      ['cost', fmtUsd(t.costUsd)],
      ['unpriced calls', t.unpricedCalls],
    ].map(
      ([label, value]) =>
        html`<div class="stat" data-stat=${label}>
          <div class="value">${value}</div>
          <div class="label">${label}</div>
        </div>`,
    )}
  </div>`;
}

function Breakdown({ title, rows, testid }) {
  const entries = Object.entries(rows).sort(([a], [b]) => (a < b ? 1 : -1));
  return html`<div class="card">
    <h3>${title}</h3>
    ${
      entries.length === 0
        ? html`<p class="muted">No calls.</p>`
        : html`<table class="list" data-testid=${testid}>
            <thead>
              <tr>
                <th>${title.replace(/^By /, '')}</th>
                <th class="num">Calls</th>
                <th class="num">Failed</th>
                <th class="num">Input tokens</th>
                <th class="num">Output tokens</th>
                <th class="num">Cost</th>
              </tr>
            </thead>
            <tbody>
              ${entries.map(
                ([k, t]) =>
                  html`<tr>
                    <td class="mono">${k}</td>
                    <td class="num">${t.calls}</td>
                    <td class="num">${t.failedCalls}</td>
                    <td class="num">${t.inputTokens.toLocaleString('en-US')}</td>
                    <td class="num">${t.outputTokens.toLocaleString('en-US')}</td>
                    <td class="num">
                      ${fmtUsd(t.costUsd)}${t.unpricedCalls ? html` <small class="muted">+${t.unpricedCalls} unpriced</small>` : null}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </div>`;
}

function Counts({ title, counts }) {
  return html`<div>
    <h4>${title}</h4>
    <dl class="fields">
      ${Object.entries(counts ?? {}).map(
        ([k, v]) =>
          html`<dt class="mono">${k}</dt>
            <dd class="num">${v}</dd>`,
      )}
    </dl>
  </div>`;
}

function Stats({ s }) {
  const e = s.embedder;
  return html`<div class="card" data-testid="stats">
    <h3>Memories <span class="muted">(${s.memories} current in this caller's scopes)</span></h3>
    <div class="split">
      <${Counts} title="By scope" counts=${s.byScope} />
      ${s.byCategory ? html`<${Counts} title="By category" counts=${s.byCategory} />` : null}
    </div>
    <p class="muted">
      Embedder
      <span class="mono"
        >${e && typeof e === 'object' ? `${e.id ?? '?'}${e.dimensions ? ` (${e.dimensions} dimensions)` : ''}` : String(e ?? '—')}</span
      >
    </p>
  </div>`;
}

export function UsageView() {
  const [since, setSince] = useState('');
  const usage = useLoad(() => api('/usage', { query: { since: since ? new Date(`${since}T00:00:00Z`).toISOString() : '' } }), [since]);
  const stats = useLoad(() => api('/stats'), []);
  const u = usage.data;
  return html`<section>
    <div class="filters">
      <label>LLM usage since <input type="date" name="since" value=${since} onChange=${(e) => setSince(e.target.value)} /></label
      >${since ? html`<button type="button" class="link" onClick=${() => setSince('')}>all time</button>` : null}
    </div>
    <${ErrorBox} error=${usage.error ?? stats.error} />
    ${!u && !usage.error ? html`<${Loading} what="LLM usage" />` : null}
    ${stats.data?.llm ? html`<${LlmState} llm=${stats.data.llm} />` : null}
    ${
      u && !(u.calls === 0 && stats.data?.llm && !stats.data.llm.configured)
        ? html`<${Totals} t=${u} />
            <div class="split">
              <${Breakdown} title="By month" rows=${u.byMonth} testid="by-month" />
              <${Breakdown} title="By model" rows=${u.byModel} testid="by-model" />
            </div>
            <${Breakdown} title="By purpose" rows=${u.byPurpose} testid="by-purpose" />`
        : null
    }
    ${stats.data ? html`<${Stats} s=${stats.data} />` : null}
  </section>`;
}
