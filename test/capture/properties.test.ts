import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeReader, openClawReader } from '../../src/capture/readers/index.js';
import type { ConversationMessage, TranscriptFile } from '../../src/spec/conversation.js';
import { ingestHome, piHeader, piMessage, readL0, tempDir } from './helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const garbage = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => s.replace(/\n/g, ' ')),
  fc.constant('{"type":"message","message":'),
  fc.constant('{"type":"progress"}'),
  fc.constant('[1,2,3]'),
  fc.constant('null'),
);
const text = fc
  .string({ minLength: 1, maxLength: 60 })
  .map((s) => s.replace(/[\r\n]/g, ' '))
  .filter((s) => s.trim().length > 0);

describe('reader properties', () => {
  it('OpenClaw: valid messages interleaved with any junk lines come out exactly, in order', () => {
    const file: TranscriptFile = { host: 'openclaw', path: '', agentId: 'a', sessionKey: 'k', sessionId: 's' };
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.array(garbage, { maxLength: 2 })), { maxLength: 25 }), (items) => {
        const parser = openClawReader.createParser(file);
        const out: ConversationMessage[] = [];
        items.forEach(([t, junk], i) => {
          out.push(...parser.line(piMessage(i, i % 2 ? 'assistant' : 'user', t)).messages);
          for (const j of junk) out.push(...parser.line(j).messages);
        });
        out.push(...parser.end());
        expect(out.map((m) => m.text)).toEqual(items.map(([t]) => t));
      }),
    );
  });

  it('Claude Code: an assistant turn is one message however its blocks are split, with tool results after it', () => {
    const file: TranscriptFile = { host: 'claude-code', path: '', agentId: 'cc', sessionKey: 'k', sessionId: 's' };
    const turn = fc.record({ texts: fc.array(text, { minLength: 1, maxLength: 4 }), tools: fc.nat({ max: 3 }) });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 10 }), (turns) => {
        const p = claudeCodeReader.createParser(file);
        const out: ConversationMessage[] = [];
        let uuid = 0;
        turns.forEach((t, i) => {
          out.push(
            ...p.line(JSON.stringify({ type: 'user', uuid: `q${i}`, message: { role: 'user', content: `question ${i}` } })).messages,
          );
          for (const x of t.texts) {
            out.push(
              ...p.line(
                JSON.stringify({
                  type: 'assistant',
                  uuid: `u${uuid++}`,
                  message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: x }] },
                }),
              ).messages,
            );
          }
          for (let k = 0; k < t.tools; k += 1) {
            out.push(
              ...p.line(
                JSON.stringify({
                  type: 'assistant',
                  uuid: `u${uuid++}`,
                  message: { id: `m${i}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${i}.${k}`, name: 'Bash', input: {} }] },
                }),
              ).messages,
            );
            out.push(
              ...p.line(
                JSON.stringify({
                  type: 'user',
                  uuid: `r${uuid++}`,
                  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}.${k}`, content: 'ok' }] },
                }),
              ).messages,
            );
          }
        });
        out.push(...p.end());
        const expected = turns.flatMap((t, i) => [
          `user:question ${i}`,
          `assistant:${t.texts.join('\n\n')}`,
          ...Array<string>(t.tools).fill('tool:'),
        ]);
        expect(out.map((m) => `${m.role}:${m.text}`)).toEqual(expected);
      }),
    );
  });

  it('ingest: a session appended in arbitrary pieces (cut mid-line too) and ingested after each lands in L0 exactly once', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 200, max: 5000 }),
        async (n, cuts, cap) => {
          run += 1;
          const root = join(tmp.dir, `oc${run}`);
          const home = join(tmp.dir, `home${run}`);
          const dir = join(root, 'agents', 'main', 'sessions');
          mkdirSync(dir, { recursive: true });
          const path = join(dir, 's.jsonl');
          const content = `${piHeader('s')}\n${Array.from({ length: n }, (_, i) => piMessage(i, i % 2 ? 'assistant' : 'user', `m ${i}`)).join('\n')}\n`;
          const points = [...new Set(cuts.map((c) => c % content.length))].sort((a, b) => a - b);
          writeFileSync(path, '');
          let at = 0;
          for (const point of [...points, content.length]) {
            appendFileSync(path, content.slice(at, point));
            at = point;
            await ingestHome({ home, sources: [{ kind: 'openclaw', root }], maxBytesPerRun: cap });
          }
          for (let i = 0; i < 100; i += 1) {
            const s = await ingestHome({ home, sources: [{ kind: 'openclaw', root }], maxBytesPerRun: cap });
            if (s.bytesRead === 0) break;
          }
          const ids = (await readL0(home)).map((r) => r.content);
          expect(ids).toEqual(Array.from({ length: n }, (_, i) => `m ${i}`));
        },
      ),
      { numRuns: 15 },
    );
  });
});
