import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureHome, readL0, tempDir } from '../../test/capture/helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const user = (i: number, text = `question ${i}`) => ({ role: 'user', content: text, timestamp: 1_700_000_000_000 + i * 1000 });
const assistant = (i: number) => ({
  role: 'assistant',
  content: [{ type: 'text', text: `answer ${i}` }],
  timestamp: 1_700_000_000_000 + i * 1000 + 500,
});

describe('capture (live hook)', () => {
  it('records only what is new when the host passes the whole session each time', async () => {
    const session: object[] = [];
    const base = { home: tmp.dir, agentId: 'main', sessionKey: 'agent:main:main' };
    for (let turn = 0; turn < 5; turn += 1) {
      session.push(user(turn), assistant(turn));
      const res = await captureHome({ ...base, messages: [...session] });
      expect(res.new).toBe(2);
    }
    const again = await captureHome({ ...base, messages: [...session] });
    expect(again).toMatchObject({ considered: 0, new: 0 });
    const records = await readL0(tmp.dir);
    expect(records.map((r) => r.content)).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`question ${i}`, `answer ${i}`]));
    expect(records[0]).toMatchObject({ host: 'live', agentId: 'main', sessionKey: 'agent:main:main', sessionId: 'agent:main:main' });
  });

  it('falls back to the timestamp cursor and fingerprints after the host compacts the session', async () => {
    const base = { home: tmp.dir, agentId: 'main', sessionKey: 'k' };
    const full = [user(0), assistant(0), user(1), assistant(1), user(2), assistant(2)];
    await captureHome({ ...base, messages: full });
    // Compacted: a summary replaces the head, old messages partly resent, one new turn.
    const compacted = [{ role: 'summary', content: 'summary of 0-1', timestamp: 1 }, user(2), assistant(2), user(3), assistant(3)];
    const res = await captureHome({ ...base, messages: compacted });
    expect(res.new).toBe(2);
    expect((await readL0(tmp.dir)).map((r) => r.content).slice(-2)).toEqual(['question 3', 'answer 3']);
  });

  it('strips recalled memories injected into the prompt and skips the distiller agent', async () => {
    const polluted = {
      role: 'user',
      content: '<relevant-memories>\n- likes tea\n</relevant-memories>\n\nwhat should I drink?',
      timestamp: 5,
    };
    await captureHome({ home: tmp.dir, agentId: 'main', sessionKey: 'k', messages: [polluted] });
    expect((await readL0(tmp.dir)).map((r) => r.content)).toEqual(['what should I drink?']);
    const skipped = await captureHome({ home: tmp.dir, agentId: 'strata-distiller', sessionKey: 'd', messages: [user(1)] });
    expect(skipped.skipped).toBe('agent');
    expect(await readL0(tmp.dir)).toHaveLength(1);
  });

  it('accepts pi/OpenClaw entries and drops delivery mirrors', async () => {
    const entry = {
      type: 'message',
      id: 'ab12cd34',
      parentId: null,
      timestamp: '2026-02-25T05:18:55.858Z',
      message: { role: 'user', content: 'hello pi', timestamp: 1771996735857 },
    };
    const mirror = {
      role: 'assistant',
      content: [{ type: 'text', text: 'hello channel' }],
      provider: 'openclaw',
      model: 'delivery-mirror',
      timestamp: 1771996735900,
    };
    const res = await captureHome({ home: tmp.dir, agentId: 'main', sessionKey: 'k', messages: [entry, mirror] });
    expect(res.noise['delivery-mirror']).toBe(1);
    expect((await readL0(tmp.dir))[0]).toMatchObject({ id: 'ab12cd34', content: 'hello pi' });
  });

  it('rejects calls without agentId, sessionKey or a message array', async () => {
    await expect(captureHome({ home: tmp.dir, agentId: '', sessionKey: 'k', messages: [] })).rejects.toThrow(/agentId/);
    await expect(captureHome({ home: tmp.dir, agentId: 'a', sessionKey: 'k', messages: 'x' as unknown as [] })).rejects.toThrow(/array/);
  });
});
