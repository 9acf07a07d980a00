// The dashboard: how many memories, charts over time and by category / scope / agent / source, and
// what the engine can do with and without an LLM.
import { api } from './api.js';
import { BarList, TimeChart } from './charts.js';
import { CATEGORY_LABELS, label, scopeLabel, SOURCE_LABELS } from './labels.js';
import { Empty, hashFor, html, Loaded, navigate, useLoad } from './ui.js';

/** What works without an LLM and what needs one, and how to configure it. */
export function LlmState({ llm }) {
  if (!llm) return null;
  if (llm.configured)
    return html`<div class="card llm ok" data-testid="llm-state" data-configured="true">
      <h3>LLM: <span class="mono">${llm.provider}${llm.model ? ` · ${llm.model}` : ''}</span></h3>
      <p class="muted">Distillation, scenes and persona, summaries and the journal use it. Its calls and cost are under Stats & usage.</p>
    </div>`;
  return html`<div class="card llm none" data-testid="llm-state" data-configured="false">
    <h3>No LLM configured</h3>
    <div class="split">
      <div>
        <h4>Works without one</h4>
        <ul>
          <li>Storing, editing, forgetting, exporting and importing memories</li>
          <li>Recall: lexical + vector search, explain, the context block</li>
          <li>Capturing conversations and searching them</li>
          <li>Learning what people state explicitly ("remember that…", "I prefer…") by rules</li>
        </ul>
      </div>
      <div>
        <h4>Needs an LLM</h4>
        <ul>
          <li>Distilling conversations into memories (beyond explicit statements), with merge and supersede</li>
          <li>Scenes and the persona</li>
          <li>Session summaries and the daily journal</li>
        </ul>
      </div>
    </div>
    <p>
      To configure one, set <code>llm</code> in <code>config.json</code> of this Strata home, e.g.${' '}
      <code>{"llm": {"provider": "openai", "baseURL": "http://127.0.0.1:11434/v1", "model": "qwen2.5:7b"}}</code> (Ollama; any
      OpenAI-compatible server), or <code>"provider": "anthropic"</code> with <code>"apiKeyEnv": "ANTHROPIC_API_KEY"</code>, or${' '}
      <code>"provider": "claude-code"</code> (your own <code>claude</code> CLI). The environment variables${' '}
      <code>STRATA_LLM_PROVIDER</code> and <code>STRATA_LLM_MODEL</code> work too. Restart <code>strata serve</code> after the change;${' '}
      <code>strata doctor</code> checks it.
    </p>
  </div>`;
}

function Tile({ label: name, value, testid }) {
  return html`<div class="stat" data-stat=${testid}>
    <div class="value">${value}</div>
    <div class="label">${name}</div>
  </div>`;
}

export function OverviewView({ me, params }) {
  const scope = params.get('scope') ?? '';
  const stats = useLoad(() => api('/stats'), []);
  const overview = useLoad(() => api('/overview', { query: { scope } }), [scope]);
  const scopes = stats.data ? Object.keys(stats.data.byScope).sort() : me.scopes;
  const list = (extra) => hashFor('memories', { scope, ...extra });
  return html`<section>
    <div class="filters">
      <label
        >Scope
        <select name="scope" value=${scope} onChange=${(e) => navigate('overview', { scope: e.target.value })}>
          <option value="">${me.owner ? 'every scope (owner)' : `all of mine (${me.scopes.length})`}</option>
          ${scopes.map((s) => html`<option value=${s}>${scopeLabel(s)}</option>`)}
        </select></label
      >
    </div>
    <${Loaded}
      load=${overview}
      what="the overview"
      render=${(o) =>
        o.memories === 0
          ? html`<${Empty}>No memories ${scope ? `in ${scopeLabel(scope)}` : 'yet'}. Agents add them as they work (or use <code>strata remember</code>, or Import).</${Empty}>`
          : html`<div class="totals">
                <${Tile} label="current memories" value=${o.memories} testid="memories" />
                <${Tile} label="scopes" value=${Object.keys(o.byScope).length} testid="scopes" />
                <${Tile}
                  label="agents they came from"
                  value=${Object.keys(o.byAgent).filter((a) => a !== '(none)').length}
                  testid="agents"
                />
                <${Tile} label="days with new memories" value=${o.byDay.length} testid="days" />
              </div>
              ${o.truncated ? html`<p class="warn">Counted the first ${o.memories} memories only.</p>` : null}
              <div class="card">
                <h3>Memories over time <span class="muted">(created per day, UTC; the line is the running total)</span></h3>
                <${TimeChart} byDay=${o.byDay} testid="chart-time" />
              </div>
              <div class="split">
                <div class="card">
                  <h3>By category</h3>
                  <${BarList}
                    counts=${o.byCategory}
                    label=${(k) => label(CATEGORY_LABELS, k)}
                    href=${(k) => list({ category: k })}
                    testid="chart-category"
                  />
                </div>
                <div class="card">
                  <h3>By scope</h3>
                  <${BarList}
                    counts=${o.byScope}
                    label=${scopeLabel}
                    href=${(k) => hashFor('memories', { scope: k })}
                    testid="chart-scope"
                  />
                </div>
                <div class="card">
                  <h3>By agent <span class="muted">(the agent each memory was learned from)</span></h3>
                  <${BarList}
                    counts=${o.byAgent}
                    label=${(k) => (k === '(none)' ? 'no agent (stored by hand, imported)' : k)}
                    href=${(k) => (k === '(none)' ? undefined : hashFor('memories', { agent: k }))}
                    testid="chart-agent"
                  />
                </div>
                <div class="card">
                  <h3>By source</h3>
                  <${BarList} counts=${o.bySource} label=${(k) => label(SOURCE_LABELS, k)} testid="chart-source" />
                </div>
              </div>`}
    />
    <${Loaded} load=${stats} what="the engine's state" render=${(s) => html`<${LlmState} llm=${s.llm} />`} />
  </section>`;
}
