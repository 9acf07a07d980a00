import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationMessage, TranscriptFile, TranscriptReader } from '../../spec/conversation.js';
import { CLAUDE_PROJECT, CLAUDE_SESSION, OPENCLAW_SESSION, copyFixture, tempDir } from '../../../test/capture/helpers.js';
import { claudeCodeReader, classifyOpenClawFile, codexReader, jsonlReader, openClawReader, openClawStateDirs } from './index.js';

function parseAll(reader: TranscriptReader, file: TranscriptFile): { messages: ConversationMessage[]; skipped: number } {
  const parser = reader.createParser(file);
  const messages: ConversationMessage[] = [];
  let skipped = 0;
  for (const line of readFileSync(file.path, 'utf8').split('\n')) {
    if (!line) continue;
    const r = parser.line(line);
    if (r.skipped) skipped += 1;
    messages.push(...r.messages);
  }
  messages.push(...parser.end());
  return { messages, skipped };
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('OpenClaw reader', () => {
  it('reads the real v3 session with the index session key, tool results and camelCase tool calls', async () => {
    const root = copyFixture('openclaw', tmp.dir);
    const files = await openClawReader.discover({ root });
    expect(files).toHaveLength(1);
    const file = files[0]!;
    expect(file).toMatchObject({ agentId: 'main', sessionId: OPENCLAW_SESSION, sessionKey: `agent:main:session:${OPENCLAW_SESSION}` });
    const { messages, skipped } = parseAll(openClawReader, file);
    expect(skipped).toBe(4); // header, model_change, thinking_level_change, custom
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[0]).toMatchObject({ entryId: '813a837d', parentId: '431dc59d', timestamp: 1771996735857 });
    expect(messages[1]!.toolCalls[0]).toMatchObject({ id: 'call_function_h2qhff6fkoax_1', name: 'exec' });
    expect(messages[2]!.toolResults[0]).toMatchObject({ callId: 'call_function_h2qhff6fkoax_1', isError: false });
    expect(messages[3]!.text).toContain('DE-16');
  });

  it('maps the session key from sessions.json, skips archives unless asked, and never reads checkpoints or trajectories', async () => {
    const dir = join(tmp.dir, 'agents', 'ops', 'sessions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'sessions.json'), JSON.stringify({ 'agent:ops:main': { sessionId: 'abc' } }));
    for (const name of [
      'abc.jsonl',
      'abc.jsonl.reset.2026-02-26T00-44-15.879Z',
      'old.jsonl.deleted.2026-03-14T23-42-00.310Z',
      'x.jsonl.bak.1',
      'abc.checkpoint.1234.jsonl',
      'abc.trajectory.jsonl',
      'abc.jsonl.zst',
      'notes.txt',
    ])
      writeFileSync(join(dir, name), '');
    const primary = await openClawReader.discover({ root: tmp.dir });
    expect(primary.map((f) => [f.sessionId, f.sessionKey])).toEqual([['abc', 'agent:ops:main']]);
    const all = await openClawReader.discover({ root: tmp.dir, includeArchives: true });
    expect(all.map((f) => f.path.split('/').pop()).sort()).toEqual([
      'abc.jsonl',
      'abc.jsonl.reset.2026-02-26T00-44-15.879Z',
      'old.jsonl.deleted.2026-03-14T23-42-00.310Z',
      'x.jsonl.bak.1',
    ]);
    expect(all.filter((f) => f.archived)).toHaveLength(3);
    expect(await openClawReader.discover({ root: tmp.dir, agentId: 'other' })).toEqual([]);
    expect(classifyOpenClawFile('s-topic-12.jsonl')).toBe('primary');
  });

  it('finds the state dir from OPENCLAW_STATE_DIR, else ~/.openclaw with the legacy names', () => {
    expect(openClawStateDirs({ OPENCLAW_STATE_DIR: '/x/state', HOME: '/h' })).toEqual(['/x/state']);
    expect(openClawStateDirs({ HOME: '/h' })).toEqual(['/h/.openclaw', '/h/.clawdbot', '/h/.moltbot']);
  });

  it('flags delivery mirrors, compactions and injected custom messages; reads v1 lines without ids', () => {
    const file: TranscriptFile = { host: 'openclaw', path: '', agentId: 'a', sessionKey: 'k', sessionId: 's' };
    const parser = openClawReader.createParser(file);
    const mirror = parser.line(
      JSON.stringify({
        type: 'message',
        id: 'x9',
        parentId: 'e1',
        timestamp: '2025-08-30T10:00:02.000Z',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'hi' }],
          api: 'openclaw-transcript',
          provider: 'openclaw',
          model: 'delivery-mirror',
        },
      }),
    );
    expect(mirror.messages[0]!.flags.deliveryMirror).toBe(true);
    const compaction = parser.line(
      '{"type":"compaction","timestamp":"2025-12-08T23:22:54.411Z","summary":"# Context","firstKeptEntryIndex":293,"tokensBefore":175004}',
    );
    expect(compaction.messages[0]).toMatchObject({ role: 'summary', flags: { compactionSummary: true } });
    expect(compaction.messages[0]!.entryId).toMatch(/^v1-/);
    const custom = parser.line(
      JSON.stringify({
        type: 'custom_message',
        id: 'c1',
        parentId: null,
        timestamp: '2026-01-01T00:00:00Z',
        customType: 'openclaw.runtime-context',
        content: 'ctx',
        display: false,
      }),
    );
    expect(custom.messages[0]).toMatchObject({ role: 'system', flags: { injected: true } });
    const v1 = parser.line(
      '{"type":"message","timestamp":"2025-12-08T23:58:22.057Z","message":{"role":"user","content":"plain string","timestamp":1765238302057}}',
    );
    expect(v1.messages[0]).toMatchObject({ text: 'plain string', parentId: null, timestamp: 1765238302057 });
    expect(parser.line('{"type":"message","message":{"role":"assistant","content":[],"stopReason":"aborted"}}').messages[0]!.text).toBe('');
    expect(parser.line('not json').skipped).toBe('malformed');
  });
});

describe('Claude Code reader', () => {
  it('groups assistant lines by message id and excludes noise line types', async () => {
    const root = copyFixture('claude-code', tmp.dir);
    const files = await claudeCodeReader.discover({ root });
    expect(files.map((f) => f.sessionId)).toEqual([CLAUDE_SESSION]);
    expect(files[0]!.sessionKey).toBe(`claude-code:${CLAUDE_PROJECT}/${files[0]!.sessionId}`);
    const { messages, skipped } = parseAll(claudeCodeReader, files[0]!);
    const lines = readFileSync(files[0]!.path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const assistantIds = new Set(lines.filter((l) => l.type === 'assistant').map((l) => (l.message as { id: string }).id));
    const assistants = messages.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(assistantIds.size); // 254 lines -> 139 messages
    expect(assistantIds.size).toBe(139);
    // progress 1083 + file-history-snapshot 14 + queue-operation 1 + system 6
    expect(skipped).toBe(1104);
    expect(messages.filter((m) => m.role === 'summary')).toHaveLength(1);
    const first = assistants[0]!;
    expect(first.toolCalls.map((c) => c.name)).toEqual(['Bash', 'Bash']);
    expect(messages.filter((m) => m.role === 'user' && !m.flags.meta).map((m) => m.text.slice(0, 20))).toContain('Work on bead spotter');
  });

  it('emits tool results after the assistant turn they interleave with, and flags meta, hook context and sidechains', () => {
    const file: TranscriptFile = { host: 'claude-code', path: '', agentId: 'cc', sessionKey: 'k', sessionId: 's' };
    const p = claudeCodeReader.createParser(file);
    const a = (uuid: string, id: string, block: object): string =>
      JSON.stringify({
        type: 'assistant',
        uuid,
        timestamp: '2026-02-12T16:02:29.111Z',
        message: { id, role: 'assistant', content: [block] },
      });
    const out: ConversationMessage[] = [];
    out.push(...p.line(a('u1', 'm1', { type: 'text', text: 'first' })).messages);
    out.push(...p.line(a('u2', 'm1', { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } })).messages);
    out.push(
      ...p.line(
        JSON.stringify({
          type: 'user',
          uuid: 'r1',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
        }),
      ).messages,
    );
    out.push(...p.line(a('u3', 'm1', { type: 'text', text: 'second' })).messages);
    expect(out).toHaveLength(0);
    out.push(
      ...p.line(
        JSON.stringify({
          type: 'user',
          uuid: 'q',
          isMeta: true,
          isSidechain: true,
          message: { role: 'user', content: '<system-reminder>x</system-reminder>' },
        }),
      ).messages,
    );
    out.push(
      ...p.line(JSON.stringify({ type: 'attachment', uuid: 'att1', attachment: { type: 'hook_additional_context', content: ['a', 'b'] } }))
        .messages,
    );
    out.push(...p.line(JSON.stringify({ type: 'summary', summary: 'S', leafUuid: 'l' })).messages);
    // `type: summary` is the session title of the resume list, not a compaction summary.
    expect(out.map((m) => m.role)).toEqual(['assistant', 'tool', 'user', 'system', 'system']);
    expect(out[4]!.flags.meta).toBe(true);
    expect(out[0]).toMatchObject({ entryId: 'u1', text: 'first\n\nsecond' });
    expect(out[2]!.flags).toEqual({ meta: true, sidechain: true });
    expect(out[3]!.flags.injected).toBe(true);
    expect(p.line(JSON.stringify({ type: 'progress', data: {} })).skipped).toBe('ignored-type');
  });

  it('lists subagent files only when asked and reads CLAUDE_CONFIG_DIR', async () => {
    const root = copyFixture('claude-code', tmp.dir);
    const files = await claudeCodeReader.discover({ env: { CLAUDE_CONFIG_DIR: root }, includeSubagents: true });
    expect(files).toHaveLength(2);
    const sub = files.find((f) => f.archived)!;
    const { messages } = parseAll(claudeCodeReader, sub);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => m.flags.sidechain)).toBe(true);
  });
});

describe('Codex reader', () => {
  it('reads response items only: no event_msg duplicates, environment boilerplate flagged', async () => {
    const root = copyFixture('codex', tmp.dir);
    const files = await codexReader.discover({ env: { CODEX_HOME: root } });
    expect(files).toHaveLength(1);
    expect(files[0]!.sessionId).toBe('019a2d7a-41c4-78b1-b7cc-a45d62a89cd5');
    const { messages } = parseAll(codexReader, files[0]!);
    const visible = messages.filter((m) => !m.flags.meta && m.text);
    expect(visible.map((m) => [m.role, m.text])).toEqual([
      ['user', 'what is 2+2? just give me the answer'],
      ['assistant', '4'],
    ]);
    expect(messages.find((m) => m.toolCalls.length)?.toolCalls[0]).toMatchObject({ id: 'call_AnMStssFtufeBXJJ9HuJQeb0', name: 'shell' });
    expect(messages.find((m) => m.role === 'tool')?.toolResults[0]?.text).toContain('file1.txt');
    expect(new Set(messages.map((m) => m.entryId)).size).toBe(messages.length);
  });
});

describe('generic JSONL reader', () => {
  it('reads {role, content, timestamp?, id?} lines and names id-less lines by content', async () => {
    writeFileSync(
      join(tmp.dir, 'chat.jsonl'),
      [
        JSON.stringify({ role: 'user', content: 'hello there', timestamp: '2026-01-01T00:00:00Z', id: 'a' }),
        JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'hi!' }], timestamp: 1767225601 }),
        JSON.stringify({ role: 'banana', content: 'x' }),
        '{broken',
      ].join('\n') + '\n',
    );
    const files = await jsonlReader.discover({ root: tmp.dir, agentId: 'bot' });
    expect(files[0]).toMatchObject({ agentId: 'bot', sessionId: 'chat', sessionKey: 'jsonl:bot:chat' });
    const { messages, skipped } = parseAll(jsonlReader, files[0]!);
    expect(skipped).toBe(2);
    expect(messages[0]).toMatchObject({
      entryId: expect.stringMatching(/^a#[\w-]{8}$/),
      role: 'user',
      timestamp: Date.parse('2026-01-01T00:00:00Z'),
    });
    expect(messages[1]).toMatchObject({ role: 'assistant', text: 'hi!', timestamp: 1767225601000 });
    expect(messages[1]!.entryId).toHaveLength(16);
    await expect(jsonlReader.discover({})).rejects.toThrow(/needs a path/);
  });
});
