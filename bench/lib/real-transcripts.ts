/**
 * The real transcripts in `../shared/fixtures` (beside the repo), read the way capture reads them:
 * the host's reader, then the L0 cleaner. Used by the admission and distill benchmarks and by
 * tests that must run on real data. Each file is assigned to the tuning part or the held-out part
 * of the labelled admission set (by transcript, so held-out figures come from conversations the
 * rules were never adjusted on).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCleaner } from '../../src/capture/clean/index.js';
import { READERS, type SourceKind } from '../../src/capture/readers/index.js';
import type { ConversationRole, L0Record, TranscriptFile } from '../../src/spec/conversation.js';

export const SHARED_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'fixtures');

export type Split = 'tune' | 'heldout';

export interface RealTranscript {
  /** Short name used in the labelled set and in tables. */
  id: string;
  host: SourceKind;
  /** Relative to `../shared/fixtures`. */
  path: string;
  split: Split;
  agentId: string;
  sessionKey: string;
  sessionId: string;
  /** Where it comes from (repository @ commit, licence), for attribution. */
  source: string;
}

const CC = 'transcripts-dev/claude-code/projects';
const M_CLAUDE = 'M-Thisness/M-Claude, CC0-1.0';
const AGENTCMD = 'jnarowski/agentcmd @ 958c4940, MIT';

export const REAL_TRANSCRIPTS: RealTranscript[] = [
  // Tuning part.
  {
    id: 'cc-windows',
    host: 'claude-code',
    path: `${CC}/C--Users-USER/c76e5be5-ffd2-4901-a935-885527c83a61.jsonl`,
    split: 'tune',
    agentId: 'claude-code',
    sessionKey: 'claude-code:C--Users-USER',
    sessionId: 'c76e5be5-ffd2-4901-a935-885527c83a61',
    source: `${M_CLAUDE} @ 5a8d89ee`,
  },
  {
    id: 'cc-navuser',
    host: 'claude-code',
    path: `${CC}/-Users-USER-Dev-sourceborn-src-agent-workflows-monorepo-v2/2d984148-cddb-4605-aac1-13e720fe613c.jsonl`,
    split: 'tune',
    agentId: 'claude-code',
    sessionKey: 'claude-code:agentcmd',
    sessionId: '2d984148-cddb-4605-aac1-13e720fe613c',
    source: AGENTCMD,
  },
  {
    id: 'codex-teams',
    host: 'codex',
    path: 'transcripts-dev/codex/sessions/2025/09/24/rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl',
    split: 'tune',
    agentId: 'codex',
    sessionKey: 'codex:01997e76',
    sessionId: '01997e76-d124-7592-9cac-2ec05abbca08',
    source: AGENTCMD,
  },
  {
    id: 'pi-theme',
    host: 'openclaw',
    path: 'transcripts-dev/openclaw/agents/main/sessions/d703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl',
    split: 'tune',
    agentId: 'main',
    sessionKey: 'agent:main:pi',
    sessionId: 'd703a1a9-1b7b-4fb1-b512-c9738b1fe617',
    source: 'badlogic/pi-mono @ 83378aad, MIT',
  },
  {
    id: 'cc-spotter',
    host: 'claude-code',
    path: 'transcripts/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
    split: 'tune',
    agentId: 'claude-code',
    sessionKey: 'claude-code:spotter',
    sessionId: '4d5611e5-241a-462a-8d15-5122611a9569',
    source: 'marot/spotter test/fixtures/transcripts (see ../shared/fixtures/transcripts/README.md)',
  },
  // Held-out part.
  {
    id: 'cc-mac',
    host: 'claude-code',
    path: `${CC}/-Users-USER/3af9b1a7-6512-4883-ad18-320658ced099.jsonl`,
    split: 'heldout',
    agentId: 'claude-code',
    sessionKey: 'claude-code:-Users-USER',
    sessionId: '3af9b1a7-6512-4883-ad18-320658ced099',
    source: `${M_CLAUDE} @ 28284307`,
  },
  {
    id: 'cc-web',
    host: 'claude-code',
    path: `${CC}/-home-USER-M-Claude/21e3c711-a412-4fe7-96ba-6f14004e1006.jsonl`,
    split: 'heldout',
    agentId: 'claude-code',
    sessionKey: 'claude-code:-home-USER-M-Claude',
    sessionId: '21e3c711-a412-4fe7-96ba-6f14004e1006',
    source: `${M_CLAUDE} @ e906f81b`,
  },
  {
    id: 'cc-web-explore',
    host: 'claude-code',
    path: `${CC}/-home-USER-M-Claude/21e3c711-a412-4fe7-96ba-6f14004e1006/subagents/agent-abadced.jsonl`,
    split: 'heldout',
    agentId: 'claude-code',
    sessionKey: 'claude-code:-home-USER-M-Claude',
    sessionId: '21e3c711-a412-4fe7-96ba-6f14004e1006/agent-abadced',
    source: `${M_CLAUDE} @ e906f81b`,
  },
  {
    id: 'codex-prisma',
    host: 'codex',
    path: 'transcripts-dev/codex/sessions/2025/09/25/rollout-2025-09-25T09-49-46-01998190-fba6-7f40-9309-dc4e48c5844a.jsonl',
    split: 'heldout',
    agentId: 'codex',
    sessionKey: 'codex:01998190',
    sessionId: '01998190-fba6-7f40-9309-dc4e48c5844a',
    source: AGENTCMD,
  },
  {
    id: 'openclaw-charbi',
    host: 'openclaw',
    path: 'transcripts-dev/openclaw/agents/main/sessions/ae2d7334-3c04-48c5-9793-c5fbe00482a2.jsonl',
    split: 'heldout',
    agentId: 'main',
    sessionKey: 'agent:main:charbi',
    sessionId: 'ae2d7334-3c04-48c5-9793-c5fbe00482a2',
    source: 'YhonDev/charbi-agent @ 57ce56aa, MIT',
  },
];

export function transcriptPath(t: RealTranscript): string {
  return join(SHARED_FIXTURES, t.path);
}

/** The transcripts present beside this checkout (CI has `../shared`; a bare clone may not). */
export function availableTranscripts(): RealTranscript[] {
  return REAL_TRANSCRIPTS.filter((t) => existsSync(transcriptPath(t)));
}

export interface RealMessage extends L0Record {
  /** 1-based line of the transcript where the message starts. */
  line: number;
  transcript: string;
}

const KEPT_ROLES: ConversationRole[] = ['user', 'assistant', 'summary'];

/** The L0 records capture writes for one transcript (reader + cleaner), with their source lines. */
export function readRealTranscript(t: RealTranscript): RealMessage[] {
  const file: TranscriptFile = {
    host: t.host,
    path: transcriptPath(t),
    agentId: t.agentId,
    sessionKey: t.sessionKey,
    sessionId: t.sessionId,
  };
  const parser = READERS[t.host].createParser(file);
  const cleaner = createCleaner({ roles: KEPT_ROLES });
  const lines = readFileSync(file.path, 'utf8').split('\n');
  const lineOf = new Map<string, number>();
  const out: RealMessage[] = [];
  const take = (messages: ReturnType<typeof parser.end>, at: number) => {
    for (const m of messages) {
      const cleaned = cleaner.clean(m);
      if (!cleaned.keep) continue;
      out.push({
        sessionKey: m.sessionKey,
        sessionId: m.sessionId,
        agentId: m.agentId,
        host: m.host,
        id: m.entryId,
        role: m.role,
        content: cleaned.text,
        timestamp: m.timestamp,
        recordedAt: new Date(m.timestamp).toISOString(),
        line: lineOf.get(m.entryId) ?? at,
        transcript: t.id,
      });
    }
  };
  lines.forEach((text, i) => {
    if (!text.trim()) return;
    const uuid = /"(?:uuid|id)":"([^"]+)"/.exec(text)?.[1];
    if (uuid && !lineOf.has(uuid)) lineOf.set(uuid, i + 1);
    take(parser.line(text).messages, i + 1);
  });
  take(parser.end(), lines.length);
  return out;
}
