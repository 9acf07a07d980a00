import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDistill } from '../../src/core/distill/index.js';
import { ingestHome } from '../capture/helpers.js';
import { ctxOf } from './helpers.js';
import { useOfflineHome } from './offline-home.js';

/**
 * A pi / OpenClaw session that compacted: the checkpoint (the host's "Context Checkpoint" shape,
 * docs/host-formats.md) is read by the real session reader into L0 as role `summary`, and offline
 * distillation learns the lines its standing sections file, not the work in flight.
 */
const CHECKPOINT = [
  '# Context Checkpoint: Greenhouse sensor dashboard',
  '',
  '## Goal',
  'Show the greenhouse humidity sensors on the Grafana board.',
  '',
  '## Constraints & Preferences',
  '- Sensor data lives in InfluxDB 2.7 on the Pi in the potting shed; retention is 90 days.',
  '- MQTT topics: `gh/<bed>/<sensor>`, one topic per sensor.',
  '',
  '## Progress',
  '### Done',
  '- [x] Panel for bed 3: humidity and soil temperature.',
  '',
  '## Key Decisions',
  '- **Telegraf instead of a custom bridge**: it already speaks MQTT and Influx, one less thing to maintain.',
  '',
  '## Next Steps',
  '1. Add alert rules for humidity under 40%.',
  '',
  '## Critical Context',
  '- The shed Pi reboots at 04:00 every night (cron), so gaps around then are expected.',
].join('\n');

function line(entry: Record<string, unknown>): string {
  return JSON.stringify(entry);
}

function session(): string {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 20, 9, 0, s)).toISOString();
  return [
    line({ type: 'session', version: 3, id: '0a7e5c1d-1111-4a4a-8b8b-000000000036', timestamp: at(0), cwd: '/home/me/greenhouse' }),
    line({
      type: 'message',
      id: 'm1',
      parentId: null,
      timestamp: at(1),
      message: { role: 'user', content: 'can you add the bed 3 panel to the board', timestamp: Date.parse(at(1)) },
    }),
    line({
      type: 'compaction',
      id: 'c1',
      parentId: 'm1',
      timestamp: at(2),
      summary: CHECKPOINT,
      firstKeptEntryId: 'm1',
      tokensBefore: 90_000,
    }),
  ].join('\n');
}

describe('offline distillation of a compaction checkpoint', () => {
  const env = useOfflineHome();

  it('learns what its standing sections file, from the real session reader to the store', async () => {
    const root = join(env.home(), 'openclaw-state');
    const dir = join(root, 'agents', 'main', 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '0a7e5c1d-1111-4a4a-8b8b-000000000036.jsonl'), `${session()}\n`);
    const ingested = await ingestHome({ home: env.home(), sources: [{ kind: 'openclaw', root }] });
    expect(ingested.errors).toEqual([]);

    const run = await runDistill({ ctx: ctxOf(env.strata()), home: env.home() });
    // The decision's reason names MQTT; it replaces no memory (change-target.ts).
    expect(run.decisions).toMatchObject({ create: 4, supersede: 0 });
    const texts = (await env.strata().list({ scopes: ['agent:main'], order: 'oldest' })).map((r) => r.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        'Sensor data lives in InfluxDB 2.7 on the Pi in the potting shed; retention is 90 days.',
        'MQTT topics: `gh/<bed>/<sensor>`, one topic per sensor.',
        'Telegraf instead of a custom bridge: it already speaks MQTT and Influx, one less thing to maintain.',
        'The shed Pi reboots at 04:00 every night (cron), so gaps around then are expected.',
      ]),
    );
    expect(texts.some((t) => /bed 3|alert rules/i.test(t))).toBe(false);
  });
});
