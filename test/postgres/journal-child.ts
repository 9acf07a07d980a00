/**
 * One journal worker in its own process for two-journals.test.ts: opens Strata on the shared
 * database (its own home, so its own machine in effect), waits for the other at a barrier, flushes
 * every session (each at its own day's time), waits again, compiles, and prints one JSON line.
 * argv: home url schema llmBaseURL barrierDir name sessions(json [{id, at}]) lock|nolock
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPostgresJournalStore } from '../../src/backends/journal-postgres/index.js';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import type { JournalStoreV1 } from '../../src/spec/journal-store.js';
import { Strata } from '../../src/strata.js';

const [home, url, schema, baseURL, barrierDir, name, sessionsJson, lockMode] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  'lock' | 'nolock',
];
const sessions = JSON.parse(sessionsJson) as Array<{ id: string; at: string }>;

/** The control: the same store with its locks replaced by a no-op. */
function withoutLocks(store: JournalStoreV1): JournalStoreV1 {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'exclusive') return (_options: unknown, fn: () => Promise<unknown>) => fn();
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function barrier(step: string): Promise<void> {
  await writeFile(join(barrierDir, `${step}-${name}`), '');
  const deadline = Date.now() + 120_000;
  while (!['a', 'b'].every((n) => existsSync(join(barrierDir, `${step}-${n}`)))) {
    if (Date.now() > deadline) throw new Error(`barrier ${step} timed out`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const journalStore = createPostgresJournalStore({ url, schema, poolSize: 4 });
const strata = await Strata.open({
  home,
  env: { STRATA_POSTGRES_URL: url },
  overrides: { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' }, llm: { provider: 'none' } },
  llm: createOpenAIChat({ baseURL, model: 'scripted', jsonMode: 'json_schema' }),
  journalStore: lockMode === 'lock' ? journalStore : withoutLocks(journalStore),
});
const out = { written: 0, skipped: 0, compiledDays: [] as string[], compileSkipped: 0 };
try {
  await barrier('flush');
  for (const s of sessions) {
    const result = await strata.flushJournal({ sessionId: s.id, now: () => new Date(s.at) });
    if (result.status === 'written') out.written++;
    else if (result.status === 'skipped') out.skipped++;
    else throw new Error(`flush of ${s.id}: ${result.status} ${result.reason ?? ''}`);
  }
  await barrier('compile');
  const compiled = await strata.compileJournal({ force: true });
  out.compiledDays = compiled.days;
  if (compiled.status === 'skipped') out.compileSkipped++;
  process.stdout.write(`${JSON.stringify(out)}\n`);
} finally {
  await strata.close();
}
