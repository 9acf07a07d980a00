/**
 * A Strata home as a daily user's looks after some weeks: memories of three agents in five scopes
 * created on different days (imported with their dates), two captured sessions, a memory distilled
 * from two turns of one of them, and HTML in both a memory and a turn. Written through the
 * library, then closed: the test serves it with the real `strata serve`.
 */
import { Readable } from 'node:stream';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import { tempHome } from '../support/run-cli.js';

export const XSS_TURN = '<img src=x onerror="window.__xss=3">turn with markup';
export const XSS_MEMORY = '<img src=x onerror="window.__xss=1"> Payload memory <script>window.__xss=2</script>';

export interface OwnerSeed {
  home: string;
  /** Current memories per scope and per source agent, as the overview must count them. */
  byScope: Record<string, number>;
  byAgent: Record<string, number>;
  byDay: Record<string, number>;
  total: number;
  distilled: string;
  xss: string;
}

const LINES: Array<{ text: string; scope: string; category: string; day: string; agent?: string }> = [
  { text: 'The team ships on Tuesdays', scope: 'global', category: 'rule', day: '2026-11-01' },
  { text: 'Alice owns the billing service', scope: 'global', category: 'entity', day: '2026-11-01' },
  { text: 'Coder prefers small pull requests', scope: 'agent:coder', category: 'preference', day: '2026-11-03', agent: 'coder' },
  { text: 'Coder runs the linter before each commit', scope: 'agent:coder', category: 'lesson', day: '2026-11-03', agent: 'coder' },
  { text: 'Coder uses pnpm in the web repo', scope: 'agent:coder', category: 'fact', day: '2026-11-05', agent: 'coder' },
  { text: 'Reviewer reads every diff twice', scope: 'agent:reviewer', category: 'preference', day: '2026-11-05', agent: 'reviewer' },
  { text: 'Reviewer blocks merges without tests', scope: 'agent:reviewer', category: 'rule', day: '2026-11-08', agent: 'reviewer' },
  { text: 'The strata project targets Node 22 and 24', scope: 'project:strata', category: 'decision', day: '2026-11-08', agent: 'ops' },
  { text: 'The strata project uses LanceDB by default', scope: 'project:strata', category: 'fact', day: '2026-11-10', agent: 'ops' },
  { text: 'Ops pages the on-call engineer after two failures', scope: 'agent:ops', category: 'rule', day: '2026-11-10', agent: 'ops' },
];

export async function seedOwnerHome(): Promise<OwnerSeed> {
  const home = await tempHome({ embedder: { provider: 'none' } });
  const strata = await Strata.open({ home });
  try {
    const jsonl = LINES.map((l) =>
      JSON.stringify({
        text: l.text,
        scope: l.scope,
        category: l.category,
        createdAt: `${l.day}T12:00:00.000Z`,
        updatedAt: `${l.day}T12:00:00.000Z`,
        validFrom: `${l.day}T12:00:00.000Z`,
        source: l.agent ? { kind: 'manual', agentId: l.agent } : { kind: 'import' },
      }),
    );
    const report = await strata.import({ input: Readable.from(jsonl.map((l) => `${l}\n`)) });
    if (report.imported !== LINES.length) throw new Error(`seed import: ${JSON.stringify(report)}`);

    const base = { host: 'jsonl' as const, recordedAt: '2026-11-12T10:00:00.000Z' };
    const at = (m: number) => Date.parse('2026-11-12T09:00:00Z') + m * 60_000;
    const records: L0Record[] = [
      {
        ...base,
        agentId: 'coder',
        sessionId: 's-1',
        sessionKey: 'agent:coder:main',
        id: 'c1',
        role: 'user',
        content: 'Please always squash merge into main.',
        timestamp: at(0),
      },
      {
        ...base,
        agentId: 'coder',
        sessionId: 's-1',
        sessionKey: 'agent:coder:main',
        id: 'c2',
        role: 'assistant',
        content: 'Understood: squash merges only, into main.',
        timestamp: at(1),
      },
      {
        ...base,
        agentId: 'coder',
        sessionId: 's-1',
        sessionKey: 'agent:coder:main',
        id: 'c3',
        role: 'user',
        content: XSS_TURN,
        timestamp: at(2),
      },
      {
        ...base,
        agentId: 'reviewer',
        sessionId: 's-2',
        sessionKey: 'agent:reviewer:main',
        id: 'r1',
        role: 'user',
        content: 'Review the flaky websocket test first.',
        timestamp: at(5),
      },
    ];
    await strata.appendConversation({ records });
    const distilled = (
      await strata.remember({
        text: 'Merges into main are squash merges',
        scope: 'agent:coder',
        category: 'rule',
        source: { kind: 'distill', agentId: 'coder', sessionKey: 'agent:coder:main', messageIds: ['c1', 'c2'] },
        actor: 'distill',
      })
    ).id;
    const xss = (await strata.remember({ text: XSS_MEMORY, scope: 'global', category: 'other' })).id;
    const today = new Date().toISOString().slice(0, 10);
    const byScope: Record<string, number> = {};
    const byAgent: Record<string, number> = {};
    const byDay: Record<string, number> = {};
    for (const l of LINES) {
      byScope[l.scope] = (byScope[l.scope] ?? 0) + 1;
      byAgent[l.agent ?? '(none)'] = (byAgent[l.agent ?? '(none)'] ?? 0) + 1;
      byDay[l.day] = (byDay[l.day] ?? 0) + 1;
    }
    byScope['agent:coder']! += 1;
    byScope.global! += 1;
    byAgent.coder! += 1;
    byAgent['(none)']! += 1;
    byDay[today] = (byDay[today] ?? 0) + 2;
    return { home, byScope, byAgent, byDay, total: LINES.length + 2, distilled, xss };
  } finally {
    await strata.close();
  }
}
