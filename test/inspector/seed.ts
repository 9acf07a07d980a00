/**
 * A Strata home for the inspector tests: memories in two scopes (and another agent's), a distilled
 * memory whose source messages are in the L0 log, an edited memory with history, a memory whose
 * text is HTML, scenes and a persona, and an LLM usage log over two months and two models.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appendUsage } from '../../src/core/llm/usage-log.js';
import type { EmbedderV1 } from '../../src/spec/embedder.js';
import type { RerankerV1 } from '../../src/spec/reranker.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import { fakeEmbedding, fakeRelevance } from '../support/fake-embeddings.js';
import { tempHome } from '../support/run-cli.js';

export const XSS_TEXT = '<img src=x onerror="window.__xss=1"> Payload memory <script>window.__xss=2</script>';
const DIMS = 64;

const embedder: EmbedderV1 = {
  specificationVersion: 'v1',
  id: 'test:hash-64',
  dimensions: DIMS,
  maxBatchSize: 64,
  supportsParallelCalls: true,
  distinguishesQueries: false,
  isRemote: false,
  async doEmbed({ texts }) {
    return { embeddings: texts.map((t) => fakeEmbedding(t, DIMS)) };
  },
};

const reranker: RerankerV1 = {
  specificationVersion: 'v1',
  id: 'test:overlap',
  maxDocuments: 100,
  async doRerank({ query, documents }) {
    return { results: documents.map((d, index) => ({ index, score: fakeRelevance(query, d) })) };
  },
};

export interface Seeded {
  home: string;
  strata: Strata;
  ids: { distilled: string; edited: string; xss: string; project: string[]; other: string };
  /** Current memories the `coder` caller sees. */
  visible: number;
}

const TOPICS = [
  'the billing service',
  'the search cluster',
  'the mobile app',
  'the data warehouse',
  'the auth gateway',
  'the email worker',
  'the CDN edge',
  'the payment ledger',
  'the audit trail',
  'the feature flags',
  'the image resizer',
  'the cron scheduler',
];

export async function seedHome(): Promise<Seeded> {
  const home = await tempHome({ embedder: { provider: 'none' }, scopes: { agentGrants: { coder: ['project:strata', 'agent:reviewer'] } } });
  const strata = await Strata.open({ home, embedder, reranker });
  const project: string[] = [];
  for (const [i, topic] of TOPICS.entries()) {
    const r = await strata.remember({
      text: `Project note ${i + 1}: ${topic} is owned by team ${String.fromCharCode(65 + i)}`,
      scope: 'project:strata',
      category: i % 3 === 0 ? 'rule' : 'fact',
      tags: i % 2 === 0 ? ['ownership'] : [],
    });
    project.push(r.id);
  }
  for (const [i, topic] of TOPICS.entries()) {
    await strata.remember({
      text: `Coder habit ${i + 1}: review ${topic} changes with a checklist`,
      scope: 'agent:coder',
      category: 'preference',
    });
  }
  const other = (await strata.remember({ text: 'Other agent secret: the staging password rotates monthly', scope: 'agent:other' })).id;

  // Distilled memory: cites two messages of one session; a third message with the same id lives in
  // another session and must not be shown as its provenance.
  const base = {
    host: 'jsonl' as const,
    agentId: 'coder',
    sessionId: 's-42',
    sessionKey: 'agent:coder:main',
    recordedAt: '2026-11-20T10:00:00.000Z',
  };
  const records: L0Record[] = [
    {
      ...base,
      id: 'm1',
      role: 'user',
      content: 'We always deploy the API on Tuesdays, never on Fridays.',
      timestamp: Date.parse('2026-11-20T09:58:00Z'),
    },
    {
      ...base,
      id: 'm2',
      role: 'assistant',
      content: 'Noted: API deploys happen on Tuesdays only.',
      timestamp: Date.parse('2026-11-20T09:58:30Z'),
    },
    { ...base, id: 'm3', role: 'user', content: 'Unrelated chatter about lunch.', timestamp: Date.parse('2026-11-20T09:59:00Z') },
    {
      ...base,
      sessionId: 's-99',
      sessionKey: 'agent:coder:other',
      id: 'm1',
      role: 'user',
      content: 'DECOY message from another session',
      timestamp: Date.parse('2026-11-20T09:59:30Z'),
    },
  ];
  await strata.appendConversation({ records });
  const distilled = (
    await strata.remember({
      text: 'API deploys happen on Tuesdays, never on Fridays',
      scope: 'agent:coder',
      category: 'rule',
      importance: 0.9,
      tags: ['deploy'],
      source: { kind: 'distill', agentId: 'coder', sessionKey: 'agent:coder:main', messageIds: ['m1', 'm2'] },
      actor: 'distill',
    })
  ).id;

  const edited = (
    await strata.remember({ text: 'The staging cluster runs Postgres 15', scope: 'project:strata', category: 'fact', actor: 'cli' })
  ).id;
  await strata.update({ id: edited, text: 'The staging cluster runs Postgres 16', importance: 0.7, actor: 'cli' });

  const xss = (await strata.remember({ text: XSS_TEXT, scope: 'agent:coder', category: 'other' })).id;

  await mkdir(join(home, 'persona'), { recursive: true });
  await writeFile(join(home, 'persona', 'coder.md'), '# Coder persona\n\nPrefers small pull requests. <b>not bold</b>\n');
  await writeFile(join(home, 'persona', 'reviewer.md'), '# Reviewer persona\n\nReads every diff twice.\n');
  await mkdir(join(home, 'scenes', 'coder'), { recursive: true });
  const header = (summary: string, heat: number) =>
    `---\nsummary: ${JSON.stringify(summary)}\nheat: ${heat}\ncreated: 2026-11-01T00:00:00.000Z\nupdated: 2026-11-20T00:00:00.000Z\n---\n`;
  await writeFile(
    join(home, 'scenes', 'coder', 'deploys.md'),
    `${header('How releases go out', 3)}## Deploys\n\nTuesdays only; the checklist is in docs/RELEASING.md.\n`,
  );
  await writeFile(
    join(home, 'scenes', 'coder', 'code-review.md'),
    `${header('Review habits', 1)}## Code review\n\nChecklists for every service.\n`,
  );

  const usage = [
    { at: '2026-10-03T10:00:00.000Z', model: 'gpt-4o-mini', provider: 'openai', cost: 0.0125, input: 5000, output: 800, ok: true },
    { at: '2026-11-02T10:00:00.000Z', model: 'gpt-4o-mini', provider: 'openai', cost: 0.02, input: 8000, output: 1200, ok: true },
    { at: '2026-11-15T10:00:00.000Z', model: 'claude-haiku', provider: 'anthropic', cost: null, input: 3000, output: 500, ok: false },
  ];
  for (const u of usage) {
    await appendUsage({
      home,
      entry: {
        at: u.at,
        provider: u.provider,
        model: u.model,
        purpose: 'distill.extract',
        ok: u.ok,
        inputTokens: u.input,
        outputTokens: u.output,
        costUsd: u.cost,
        latencyMs: 900,
        attempts: 1,
      },
    });
  }
  return { home, strata, ids: { distilled, edited, xss, project, other }, visible: TOPICS.length * 2 + 3 };
}
