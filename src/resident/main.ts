/**
 * Entry of the resident Strata process: `node main.js --home <dir> --stamp <stamp> [--idle-ms <n>]`.
 * Started detached by the first caller that finds none running (src/resident/client.ts); its
 * output goes to `<home>/logs/resident.log`. The socket is up before the engine loads (LanceDB,
 * the embedding model), so concurrent callers find it while it warms up.
 */
import { runResident } from './server.js';

/** Default idle exit; `$STRATA_RESIDENT_IDLE_MS` (or --idle-ms) overrides. */
const DEFAULT_IDLE_MS = 15 * 60_000;
/**
 * The resident answers people waiting on a prompt: a query embedding slower than this (the model
 * still loading on a cold start, a stalled remote embedder) gives way to lexical-only recall
 * instead of holding the prompt. A warm local model embeds a query in ~5-20 ms.
 */
const INTERACTIVE_EMBED_TIMEOUT_MS = 400;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

process.env.LANCEDB_LOG ??= 'error';
const home = arg('--home');
const stamp = arg('--stamp');
if (!home || !stamp) {
  process.stderr.write('usage: main.js --home <dir> --stamp <stamp> [--idle-ms <n>]\n');
  process.exit(2);
}
const idleMs = Number(arg('--idle-ms') ?? process.env.STRATA_RESIDENT_IDLE_MS ?? DEFAULT_IDLE_MS);

const code = await runResident({
  home,
  stamp,
  idleMs: Number.isFinite(idleMs) && idleMs > 0 ? idleMs : DEFAULT_IDLE_MS,
  openEngine: async () => {
    const [{ Strata }, { loadConfig }] = await Promise.all([import('../strata.js'), import('../config/load.js')]);
    const { config } = await loadConfig({ home });
    const embedTimeoutMs = Math.min(config.recall.embedTimeoutMs ?? INTERACTIVE_EMBED_TIMEOUT_MS, INTERACTIVE_EMBED_TIMEOUT_MS);
    const { claudeCodeLlmOverrides } = await import('../hosts/claude-code/host-llm.js');
    // No llm configured: the Claude Code user's own `claude` CLI distills (issue 14.6).
    return Strata.open({ home, overrides: { recall: { embedTimeoutMs }, ...claudeCodeLlmOverrides({ config, env: process.env }) } });
  },
  loadOps: async () => (await import('./ops.js')).residentOps(),
  warmUp: async (strata) => (await import('./ops.js')).warmUp(strata),
}).catch((error: unknown) => {
  process.stderr.write(`${new Date().toISOString()} resident[${process.pid}] failed: ${(error as Error).stack ?? String(error)}\n`);
  return 1;
});
process.exit(code);
