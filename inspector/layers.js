// Scenes (L2) and persona (L3) of an agent whose scope this server's caller holds; read-only.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { ErrorBox, fmtDate, html, Loading, useLoad } from './ui.js';

const orNull = (p) => p.catch((e) => (e.status === 404 ? null : Promise.reject(e)));

function agentsOf(me) {
  const fromScopes = me.scopes.filter((s) => s.startsWith('agent:')).map((s) => s.slice('agent:'.length));
  return [...new Set([...(me.agent ? [me.agent] : []), ...fromScopes])];
}

function Scene({ agent, name }) {
  const scene = useLoad(() => api(`/scenes/${encodeURIComponent(name)}`, { query: { agent } }), [agent, name]);
  if (scene.error) return html`<${ErrorBox} error=${scene.error} />`;
  const s = scene.data;
  if (!s) return html`<p class="muted">Loading…</p>`;
  return html`<article class="card" data-testid="scene">
    <h3>${s.name}</h3>
    <p class="muted">${s.summary} · heat ${s.heat} · updated ${fmtDate(s.updated)}</p>
    <div class="doc">${s.body}</div>
  </article>`;
}

export function LayersView({ me, params }) {
  // An owner may read every agent's layers: the agents are those with a scope or a conversation.
  const known = useLoad(
    () =>
      me.owner
        ? Promise.all([api('/stats'), api('/sessions', { query: { limit: 500 } })]).then(([s, c]) => [
            ...Object.keys(s.byScope)
              .filter((k) => k.startsWith('agent:'))
              .map((k) => k.slice('agent:'.length)),
            ...c.sessions.map((x) => x.agentId),
          ])
        : Promise.resolve([]),
    [],
  );
  if (me.owner && known.data === undefined)
    return known.error ? html`<${ErrorBox} error=${known.error} />` : html`<${Loading} what="agents" />`;
  return html`<${Layers} me=${me} params=${params} agents=${[...new Set([...agentsOf(me), ...(known.data ?? [])])].sort()} />`;
}

function Layers({ params, agents }) {
  const [agent, setAgent] = useState(params.get('agent') ?? agents[0] ?? '');
  const [scene, setScene] = useState(null);
  const data = useLoad(
    () =>
      agent
        ? Promise.all([orNull(api('/persona', { query: { agent } })), orNull(api('/scenes', { query: { agent } }))]).then(
            ([persona, scenes]) => ({ persona, scenes: scenes?.scenes ?? [] }),
          )
        : Promise.resolve(null),
    [agent],
  );
  if (agents.length === 0)
    return html`<p class="muted">This server runs without an agent (--agent), so there are no scenes or persona to show.</p>`;
  const d = data.data;
  return html`<section>
    <div class="filters">
      <label
        >Agent
        <select
          name="agent"
          value=${agent}
          onChange=${(e) => {
            setAgent(e.target.value);
            setScene(null);
          }}
        >
          ${agents.map((a) => html`<option value=${a}>${a}</option>`)}
        </select></label
      >
    </div>
    <${ErrorBox} error=${data.error} />
    ${!d && !data.error ? html`<${Loading} what="scenes and persona" />` : null}
    ${
      d
        ? html`<div class="split">
            <article class="card" data-testid="persona">
              <h3>Persona</h3>
              ${d.persona ? html`<div class="doc">${d.persona.text}</div>` : html`<p class="muted">No persona yet (distillation writes it).</p>`}
            </article>
            <div>
              <div class="card">
                <h3>Scenes <span class="muted">(${d.scenes.length})</span></h3>
                ${d.scenes.length === 0 ? html`<p class="muted">No scenes yet.</p>` : null}
                <ul class="scenes">
                  ${d.scenes.map((s) => html`<li><button type="button" class=${scene === s.name ? 'link active' : 'link'} onClick=${() => setScene(s.name)}>${s.name}</button></li>`)}
                </ul>
              </div>
              ${scene ? html`<${Scene} key=${scene} agent=${agent} name=${scene} />` : null}
            </div>
          </div>`
        : null
    }
  </section>`;
}
