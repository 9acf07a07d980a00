import type { Command } from 'commander';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RememberInput } from '../../core/engine/types.js';
import { agentScopes } from '../../core/scope.js';
import { printTable } from '../../commands/output.js';

export const DEMO_MEMORIES: RememberInput[] = [
  { scope: 'global', category: 'preference', importance: 0.8, text: 'The user prefers TypeScript with strict mode for all new services.' },
  {
    scope: 'global',
    category: 'preference',
    importance: 0.7,
    text: 'The user likes concise answers with code first and explanations after.',
  },
  { scope: 'global', category: 'fact', importance: 0.6, text: "The user's name is Maya Chen and she works from Lisbon (UTC+0)." },
  { scope: 'global', category: 'rule', importance: 0.9, text: 'Never push directly to the main branch; always open a pull request.' },
  { scope: 'global', category: 'fact', importance: 0.5, text: 'Maya drinks oat-milk flat whites and takes a coffee break around 11:00.' },
  {
    scope: 'global',
    category: 'decision',
    importance: 0.8,
    text: 'We decided to use PostgreSQL 16 for the billing service instead of MongoDB.',
  },
  {
    scope: 'agent:coder',
    category: 'lesson',
    importance: 0.7,
    text: 'Running the integration tests needs `docker compose up db` first, otherwise they time out.',
  },
  {
    scope: 'agent:coder',
    category: 'fact',
    importance: 0.6,
    text: 'The deploy pipeline runs on GitHub Actions and publishes images to GHCR.',
  },
  {
    scope: 'agent:coder',
    category: 'decision',
    importance: 0.7,
    text: 'API errors use RFC 9457 problem+json bodies with a stable error code.',
  },
  {
    scope: 'agent:coder',
    category: 'preference',
    importance: 0.6,
    text: 'Prefer vitest over jest for new packages; keep tests next to the code.',
  },
  { scope: 'agent:coder', category: 'rule', importance: 0.8, text: 'Database migrations must be backwards compatible for one release.' },
  {
    scope: 'agent:coder',
    category: 'event',
    importance: 0.4,
    text: 'On 2026-11-03 the staging cluster ran out of disk because of unrotated logs.',
  },
];

export const DEMO_QUERIES: Array<{ query: string; scopes: string[]; label: string }> = [
  { query: 'which database did we pick for billing?', scopes: agentScopes('coder'), label: 'agent coder' },
  { query: 'how does the user like answers formatted', scopes: ['global'], label: 'global only' },
  { query: 'why do the integration tests time out', scopes: agentScopes('coder'), label: 'agent coder' },
  { query: 'why do the integration tests time out', scopes: ['global'], label: 'global only (coder memories stay invisible)' },
  { query: 'what coffee does Maya drink', scopes: agentScopes('coder'), label: 'agent coder' },
];

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('store a dozen memories in a temporary home and show hybrid recall (embedded, offline)')
    .option('--keep', 'keep the temporary home')
    .action(async (opts: { keep?: boolean }) => {
      const home = await mkdtemp(join(tmpdir(), 'strata-demo-'));
      const { Strata } = await import('../../strata.js');
      const strata = await Strata.open({ home });
      try {
        process.stdout.write(`Strata demo: home ${home}\nstore ${strata.config.store.provider}, embedder ${strata.embedderId}\n\n`);
        const started = Date.now();
        const results = await strata.rememberMany({ items: DEMO_MEMORIES });
        const created = results.filter((r) => r.action === 'created').length;
        process.stdout.write(`stored ${created} memories in 2 scopes (global, agent:coder) in ${Date.now() - started} ms\n`);
        const dup = await strata.remember({ text: 'never push directly to the main branch, always open a pull request', scope: 'global' });
        process.stdout.write(`adding a restated rule again -> ${dup.action} of ${dup.id}\n`);
        for (const q of DEMO_QUERIES) {
          const t = Date.now();
          const out = await strata.recall({ query: q.query, scopes: q.scopes, limit: 3 });
          process.stdout.write(`\n> ${q.query}   [${q.label}; ${Date.now() - t} ms]\n`);
          if (out.results.length === 0) process.stdout.write('  (no results)\n');
          else
            printTable(
              ['score', 'scope', 'category', 'text'],
              out.results.map((r) => [r.score.toFixed(3), r.record.scope, r.record.category, r.record.text]),
            );
        }
      } finally {
        await strata.close();
        if (!opts.keep) await rm(home, { recursive: true, force: true });
      }
    });
}
