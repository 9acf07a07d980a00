/* global document, window */
// The inspector shell: header (caller, token), tabs and hash routing.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, token } from './api.js';
import { html, parseHash, useLoad } from './ui.js';
import { MemoriesView } from './memories.js';
import { MemoryView } from './memory.js';
import { PlaygroundView } from './playground.js';
import { LayersView } from './layers.js';
import { UsageView } from './usage.js';
import { OverviewView } from './overview.js';
import { SessionsView, SessionView } from './sessions.js';
import { TransferView } from './transfer.js';
import { Loading } from './ui.js';

const TABS = [
  ['overview', 'Overview'],
  ['memories', 'Memories'],
  ['sessions', 'Conversations'],
  ['playground', 'Recall'],
  ['layers', 'Scenes & persona'],
  ['transfer', 'Import / export'],
  ['usage', 'Usage'],
];

function TokenForm({ required, onSaved }) {
  const [value, setValue] = useState('');
  const save = (e) => {
    e.preventDefault();
    token.set(value.trim());
    setValue('');
    onSaved();
  };
  return html`<form class="token" onSubmit=${save}>
    ${required ? html`<span class="warn">${token.get() ? 'The server rejected this token.' : 'This server needs a bearer token.'}</span>` : null}
    <input
      type="password"
      name="token"
      placeholder="API token"
      aria-label="API token"
      value=${value}
      onInput=${(e) => setValue(e.target.value)}
      autocomplete="off"
    />
    <button type="submit">Use token</button>
    ${
      token.get()
        ? html`<button
            type="button"
            class="link"
            onClick=${() => {
              token.set('');
              onSaved();
            }}
          >
            Forget token
          </button>`
        : null
    }
  </form>`;
}

function App() {
  const [route, setRoute] = useState(parseHash());
  const [needToken, setNeedToken] = useState(false);
  const [showToken, setShowToken] = useState(false);
  // Bumped when the token changes so every view loads again.
  const [epoch, setEpoch] = useState(0);
  useEffect(() => {
    const onHash = () => setRoute(parseHash());
    const onUnauthorized = () => setNeedToken(true);
    window.addEventListener('hashchange', onHash);
    window.addEventListener('strata:unauthorized', onUnauthorized);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('strata:unauthorized', onUnauthorized);
    };
  }, []);
  const whoami = useLoad(() => api('/whoami'), [epoch]);
  const onTokenSaved = () => {
    setNeedToken(false);
    setShowToken(false);
    setEpoch((n) => n + 1);
  };

  const [tab = 'memories', id] = route.path;
  const me = whoami.data;
  let view = null;
  if (me) {
    const props = { me, params: route.params, key: `${epoch}:${tab}:${id ?? ''}` };
    if (tab === 'memory' && id) view = html`<${MemoryView} ...${props} id=${id} />`;
    else if (tab === 'playground') view = html`<${PlaygroundView} ...${props} />`;
    else if (tab === 'layers') view = html`<${LayersView} ...${props} />`;
    else if (tab === 'usage') view = html`<${UsageView} ...${props} />`;
    else if (tab === 'overview') view = html`<${OverviewView} ...${props} />`;
    else if (tab === 'sessions') view = html`<${SessionsView} ...${props} />`;
    else if (tab === 'session') view = html`<${SessionView} ...${props} />`;
    else if (tab === 'transfer') view = html`<${TransferView} ...${props} />`;
    else view = html`<${MemoriesView} ...${props} />`;
  }
  const active = tab === 'memory' ? 'memories' : tab === 'session' ? 'sessions' : tab;

  return html` <header>
      <h1><a href="#/memories">Strata</a> <span class="muted">inspector</span></h1>
      <nav>${TABS.map(([key, label]) => html`<a href=${`#/${key}`} class=${active === key ? 'active' : ''}>${label}</a>`)}</nav>
      <div class="who">
        ${
          me?.owner
            ? html`<span
                class="owner"
                data-testid="owner-badge"
                title="Started with --all-scopes, or on loopback without a token: every scope and every agent's conversations"
                >Owner · all scopes</span
              >`
            : me
              ? html`<span class="caller" title=${`The server acts as this caller: ${me.scopes.join(', ')}`}
                  >agent <b>${me.agent ?? '(none)'}</b> · ${me.scopes.length} scope${me.scopes.length === 1 ? '' : 's'}</span
                >`
              : null
        }
        <button type="button" class="link" onClick=${() => setShowToken(!showToken)}>${token.get() ? 'Token ✓' : 'Token'}</button>
      </div>
    </header>
    ${needToken || showToken ? html`<${TokenForm} required=${needToken} onSaved=${onTokenSaved} />` : null}
    <main>
      ${whoami.error && !needToken ? html`<div class="error" role="alert">${whoami.error.message}</div>` : null}
      ${
        needToken && !me
          ? html`<p class="muted">Enter the server's token (STRATA_HTTP_TOKEN) above. It is kept in this tab's sessionStorage only.</p>`
          : (view ?? (whoami.error ? null : html`<${Loading} what="the inspector" />`))
      }
    </main>`;
}

const root = document.getElementById('app');
root.textContent = ''; // the static "Loading…" placeholder; preact would render next to it
render(html`<${App} />`, root);
