import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../spec/conversation.js';
import { createCleaner, type CleanOptions } from './index.js';
import { OPENCLAW_ENVELOPE } from '../../../test/fixtures/openclaw-envelope.js';

function msg(text: string, extra: Partial<ConversationMessage> = {}): ConversationMessage {
  return {
    host: 'openclaw',
    agentId: 'a',
    sessionKey: 'k',
    sessionId: 's',
    entryId: 'e',
    parentId: null,
    timestamp: 1,
    role: 'user',
    text,
    toolCalls: [],
    toolResults: [],
    flags: {},
    ...extra,
  };
}

function cleanOne(text: string, options: CleanOptions = {}, extra: Partial<ConversationMessage> = {}) {
  const cleaner = createCleaner(options);
  return { result: cleaner.clean(msg(text, extra)), stats: cleaner.stats };
}

describe('cleaner', () => {
  it('strips OpenClaw envelope metadata and untrusted wrappers, keeping the human text', () => {
    const { result, stats } = cleanOne(OPENCLAW_ENVELOPE);
    expect(result).toEqual({ keep: true, text: '经过了今天的努力，我把mem9的LoCoMo Benchmark从63%提升到了70%+' });
    expect(stats.stripped).toEqual({ envelope: 2, 'untrusted-content': 1 });
  });

  it("strips the editor state Codex's IDE extension puts before a request (real shape, codex-teams L3)", () => {
    const text =
      '# Context from my IDE setup:\n\n## Active file: apps/web/src/app/api/teams/[id]/route.ts\n\n## Open tabs:\n' +
      '- prime-context.md: .claude/commands/prime-context.md\n- .env: apps/web/.env\n\n## My request for Codex:\n' +
      'Can you run tests, lint and check-types to ensure all is green.';
    const { result, stats } = cleanOne(text, {}, { host: 'codex' });
    expect(result).toEqual({ keep: true, text: 'Can you run tests, lint and check-types to ensure all is green.' });
    expect(stats.stripped).toEqual({ 'ide-context': 1 });
    // Without the request heading nothing is known to be editor state: the text is kept whole.
    expect(cleanOne('# Context from my IDE setup:\n\n## Open tabs:\n- a.ts: a.ts', {}, { host: 'codex' }).result).toMatchObject({
      keep: true,
    });
  });

  it("drops a background task's notification with the host's pointer to its output (real shape, cc-windows L27)", () => {
    const text =
      '<task-notification>\n<task-id>bb91e5d</task-id>\n<output-file>C:\\Temp\\tasks\\bb91e5d.output</output-file>\n' +
      '<status>completed</status>\n<summary>Background command "Trace route" completed (exit code 0)</summary>\n</task-notification>\n' +
      'Read the output file to retrieve the result: C:\\Temp\\tasks\\bb91e5d.output';
    expect(cleanOne(text, {}, { host: 'claude-code' }).result).toEqual({ keep: false, reason: 'injected' });
    // The user's own words after the notification stay.
    expect(cleanOne(`${text}\ncheck again please`, {}, { host: 'claude-code' }).result).toEqual({ keep: true, text: 'check again please' });
  });

  it('removes terminal colour codes from pasted output, keeping its text', () => {
    const pasted =
      'Finding:     \u001b[1;3;mREDACTED\u001b[0m\n\u001b[90m10:58AM\u001b[0m \u001b[33mWRN\u001b[0m \u001b[1mInvalid entry\u001b[0m';
    const { result, stats } = cleanOne(pasted);
    expect(result).toEqual({ keep: true, text: 'Finding:     REDACTED\n10:58AM WRN Invalid entry' });
    expect(stats.stripped).toEqual({ 'terminal-escape': 8 });
  });

  it('strips recalled memories (both spellings), Strata blocks and system reminders', () => {
    const text =
      '<relevant-memories>\n- user likes tea\n</relevant-memories>\n\n<relevant_memories>x</relevant_memories>' +
      '<strata-memory id="r1">old fact</strata-memory>\n<system-reminder>hook said</system-reminder>\nWhat should I drink?';
    const { result, stats } = cleanOne(text);
    expect(result).toEqual({ keep: true, text: 'What should I drink?' });
    expect(stats.stripped).toMatchObject({ 'relevant-memories': 2, 'strata-injected': 1, 'system-reminder': 1 });
  });

  it('drops a message that was only injected context, counted as injected', () => {
    const { result } = cleanOne('<relevant-memories>only recall</relevant-memories>');
    expect(result).toEqual({ keep: false, reason: 'injected' });
  });

  it('removes timestamp prefixes and media notes; replaces base64 data URIs with [image]', () => {
    const uri = `data:image/png;base64,${'iVBORw0KGgo'.repeat(10)}==`;
    const { result, stats } = cleanOne(`[Wed 2026-02-25 13:18 GMT+8] look at this ${uri} [media attached: photo.jpg]`);
    expect(result).toEqual({ keep: true, text: 'look at this [image]' });
    expect(stats.stripped).toEqual({ 'timestamp-prefix': 1, 'data-uri': 1, 'media-note': 1 });
  });

  it.each([
    ['NO_REPLY', 'no-reply'],
    ['HEARTBEAT_OK', 'no-reply'],
    ['Read HEARTBEAT.md if it exists (workspace context). Follow it strictly.', 'heartbeat'],
    ['✅ New session started · model: x', 'session-banner'],
    ['/reset', 'slash-command'],
    ['<command-name>/commit</command-name><command-message>commit</command-message>', 'slash-command'],
    ['   ', 'empty'],
  ])('drops noise %j as %s', (text, reason) => {
    const { result, stats } = cleanOne(text);
    expect(result).toEqual({ keep: false, reason });
    expect(stats.dropped).toEqual({ [reason]: 1 });
  });

  it('drops too short and too long texts by configurable limits', () => {
    expect(cleanOne('ok', { minChars: 3 }).result).toEqual({ keep: false, reason: 'too-short' });
    expect(cleanOne('4').result).toEqual({ keep: true, text: '4' });
    expect(cleanOne('x'.repeat(101), { maxChars: 100 }).result).toEqual({ keep: false, reason: 'too-long' });
  });

  it('drops by flags and roles before looking at text', () => {
    expect(cleanOne('hi', {}, { flags: { deliveryMirror: true } }).result).toMatchObject({ reason: 'delivery-mirror' });
    expect(cleanOne('hi', {}, { flags: { meta: true } }).result).toMatchObject({ reason: 'meta' });
    // A compaction summary is kept as role `summary` (contract 5); one in another role, or with the
    // summary role not asked for, is dropped.
    expect(cleanOne('hi', {}, { flags: { compactionSummary: true }, role: 'summary' }).result).toEqual({ keep: true, text: 'hi' });
    expect(cleanOne('hi', { roles: ['user', 'assistant'] }, { flags: { compactionSummary: true }, role: 'summary' }).result).toMatchObject({
      reason: 'compaction-summary',
    });
    expect(cleanOne('hi', {}, { flags: { compactionSummary: true }, role: 'user' }).result).toMatchObject({ reason: 'compaction-summary' });
    expect(cleanOne('hi', {}, { role: 'tool' }).result).toMatchObject({ reason: 'role' });
    expect(cleanOne('hi', { roles: ['tool'] }, { role: 'tool' }).result).toMatchObject({ keep: true });
    expect(cleanOne('hi', { keepSidechain: false }, { flags: { sidechain: true } }).result).toMatchObject({ reason: 'sidechain' });
  });

  it('optionally replaces code blocks in assistant text only', () => {
    const text = 'Here:\n```ts\nconst a = 1;\n```\nDone.';
    expect(cleanOne(text, { stripAssistantCodeBlocks: true }, { role: 'assistant' }).result).toEqual({
      keep: true,
      text: 'Here:\n[code]\nDone.',
    });
    expect(cleanOne(text, { stripAssistantCodeBlocks: true }, { role: 'user' }).result).toEqual({ keep: true, text });
  });

  it('redacts secrets with the engine redactor and counts them; can be turned off', () => {
    const key = 'sk-ant-api03-' + 'A1b2C3d4E5f6G7h8'.repeat(4);
    const { result, stats } = cleanOne(`my key is ${key} ok`);
    expect(result.keep && result.text).not.toContain(key);
    expect(Object.values(stats.redactions).reduce((a, b) => a + b, 0)).toBe(1);
    expect(cleanOne(`my key is ${key}`, { redactSecrets: false }).result).toEqual({ keep: true, text: `my key is ${key}` });
  });
});

describe('cleaner properties', () => {
  const plain = fc
    .string({ minLength: 1, maxLength: 200 })
    .filter((s) => !/[<[/\\`]|NO_REPLY|HEARTBEAT|data:|untrusted|Read |✅|A new session/i.test(s) && s.trim().length > 0);

  it('never throws and always accounts for each message exactly once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constant(OPENCLAW_ENVELOPE)), { maxLength: 20 }),
        (texts) => {
          const cleaner = createCleaner();
          for (const t of texts) cleaner.clean(msg(t));
          const dropped = Object.values(cleaner.stats.dropped).reduce((a, b) => a + b, 0);
          expect(cleaner.stats.kept + dropped).toBe(texts.length);
        },
      ),
    );
  });

  it('removes any injected block wherever it sits and keeps the surrounding text', () => {
    const tag = fc.constantFrom('relevant-memories', 'relevant_memories', 'system-reminder', 'strata-memory');
    fc.assert(
      fc.property(plain, fc.string(), tag, fc.boolean(), (text, junk, name, before) => {
        const inner = junk.replace(/<\/?[a-z_-]+/gi, '');
        const block = `<${name}>${inner}</${name}>`;
        const cleaner = createCleaner({ redactSecrets: false });
        const r = cleaner.clean(msg(before ? `${block}\n${text}` : `${text}\n${block}`));
        expect(r).toEqual({ keep: true, text: text.trim() });
      }),
    );
  });

  it('is idempotent: cleaning cleaned text changes nothing', () => {
    const piece = fc.oneof(
      plain,
      fc.constant('<relevant-memories>m</relevant-memories>'),
      fc.constant('[Mon 2026-01-05 10:00 UTC] '),
      fc.constant('data:image/png;base64,AAAAAAAAAAAAAAAAAAAAAAAA'),
      fc.constant('\n\n\n'),
      fc.constant(OPENCLAW_ENVELOPE),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const cleaner = createCleaner();
        const once = cleaner.clean(msg(pieces.join('')));
        if (!once.keep) return;
        expect(createCleaner().clean(msg(once.text))).toEqual(once);
      }),
    );
  });
});
