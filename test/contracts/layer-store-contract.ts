import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LayerConflictError, StrataError } from '../../src/errors/index.js';
import type { LayerStoreV1 } from '../../src/spec/layer-store.js';

/**
 * The behaviour every LayerStoreV1 backend must show. `create` makes a fresh, empty store; `open`
 * another handle on the same storage (another process, in effect).
 */
export interface LayerStoreContractOptions {
  name: string;
  create: () => Promise<{ store: LayerStoreV1; open: () => Promise<LayerStoreV1>; cleanup(): Promise<void> }>;
  skip?: Array<{ reason: string; tests: string[] }>;
}

const SCENE =
  '---\nsummary: "Home lab: three servers"\nheat: 2\ncreated: 2026-01-05T10:00:00.000Z\nupdated: 2026-01-06T08:00:00.000Z\n---\n# Lab\n- ünïcode ✓ \u0000 and CRLF\r\n';
const PERSONA = 'Works for Ada.\n\n<!-- strata:scene-navigation -->\n## Scenes\n<!-- /strata:scene-navigation -->\n';

export function runLayerStoreContract(options: LayerStoreContractOptions): void {
  const skipped = new Set((options.skip ?? []).flatMap((s) => s.tests));
  const test = (name: string, fn: () => Promise<void>) => (skipped.has(name) ? it.skip(name, fn) : it(name, fn));

  describe(`LayerStoreV1 contract: ${options.name}`, () => {
    let ctx: Awaited<ReturnType<LayerStoreContractOptions['create']>>;
    let store: LayerStoreV1;
    beforeEach(async () => {
      ctx = await options.create();
      store = ctx.store;
    });
    afterEach(async () => ctx.cleanup());

    const conflictOf = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      );

    test('is versioned and states its capabilities', async () => {
      expect(store.specificationVersion).toBe('v1');
      expect(typeof store.capabilities.shared).toBe('boolean');
      expect(typeof store.capabilities.atomicCommit).toBe('boolean');
    });

    test('an agent never committed is at version 0 with no files', async () => {
      expect(await store.read({ agentId: 'main' })).toMatchObject({ version: 0, files: {} });
    });

    test('a commit stores every file byte for byte, bumps the version, and another handle sees it', async () => {
      const files = {
        'scenes/lab.md': SCENE,
        'scenes/.index.json': '{"version":1,"scenes":[]}\n',
        'persona.md': PERSONA,
        'checkpoint.json': '{}',
      };
      const changes = Object.entries(files).map(([name, text]) => ({ name, text }));
      expect(await store.commit({ agentId: 'main', changes, expectedVersion: 0 })).toEqual({ version: 1 });
      const other = await ctx.open();
      try {
        expect(await other.read({ agentId: 'main' })).toMatchObject({ version: 1, files });
        expect(await other.read({ agentId: 'main', names: ['persona.md', 'scenes/none.md'] })).toMatchObject({
          version: 1,
          files: { 'persona.md': PERSONA },
        });
        expect(Object.keys((await other.read({ agentId: 'main', names: ['checkpoint.json'] })).files)).toEqual(['checkpoint.json']);
      } finally {
        await other.close();
      }
    });

    test('a commit on a version that moved fails with a retryable conflict and changes nothing', async () => {
      await store.commit({ agentId: 'main', changes: [{ name: 'scenes/a.md', text: 'A1' }], expectedVersion: 0 });
      const error = await conflictOf(
        store.commit({
          agentId: 'main',
          changes: [
            { name: 'scenes/a.md', text: 'lost' },
            { name: 'scenes/b.md', text: 'B' },
          ],
          expectedVersion: 0,
        }),
      );
      expect(LayerConflictError.is(error)).toBe(true);
      expect(error).toMatchObject({ code: 'VERSION_CONFLICT', isRetryable: true, details: { expectedVersion: 0, actualVersion: 1 } });
      expect(await store.read({ agentId: 'main' })).toMatchObject({ version: 1, files: { 'scenes/a.md': 'A1' } });
      expect((await store.read({ agentId: 'main' })).files['scenes/b.md']).toBeUndefined();
      // A version from the future is a conflict too.
      expect(LayerConflictError.is(await conflictOf(store.commit({ agentId: 'main', changes: [], expectedVersion: 5 })))).toBe(true);
    });

    test('null deletes a file; deleting a missing file is fine; an empty commit keeps the version', async () => {
      await store.commit({
        agentId: 'main',
        changes: [
          { name: 'scenes/a.md', text: 'A' },
          { name: 'scenes/b.md', text: 'B' },
        ],
        expectedVersion: 0,
      });
      await store.commit({
        agentId: 'main',
        changes: [
          { name: 'scenes/a.md', text: null },
          { name: 'scenes/zz.md', text: null },
        ],
        expectedVersion: 1,
      });
      expect(await store.read({ agentId: 'main' })).toMatchObject({ version: 2, files: { 'scenes/b.md': 'B' } });
      expect((await store.read({ agentId: 'main' })).files['scenes/a.md']).toBeUndefined();
      expect(await store.commit({ agentId: 'main', changes: [], expectedVersion: 2 })).toEqual({ version: 2 });
    });

    test('agents are separate: files and versions', async () => {
      await store.commit({ agentId: 'main', changes: [{ name: 'persona.md', text: 'main' }], expectedVersion: 0 });
      expect(await store.read({ agentId: 'ops.bot-2' })).toMatchObject({ version: 0, files: {} });
      await store.commit({ agentId: 'ops.bot-2', changes: [{ name: 'persona.md', text: 'ops' }], expectedVersion: 0 });
      expect((await store.read({ agentId: 'main' })).files).toEqual({ 'persona.md': 'main' });
      expect((await store.read({ agentId: 'ops.bot-2' })).files).toEqual({ 'persona.md': 'ops' });
    });

    test('names outside the layer files are refused before anything is written', async () => {
      for (const name of [
        '../x.md',
        'scenes/../../x.md',
        'scenes/sub/x.md',
        'scenes/.hidden.md',
        'scenes/x.txt',
        'notes.md',
        '/etc/passwd',
      ]) {
        const error = await conflictOf(
          store.commit({
            agentId: 'main',
            changes: [
              { name: 'scenes/ok.md', text: 'ok' },
              { name, text: 'pwned' },
            ],
            expectedVersion: 0,
          }),
        );
        expect(StrataError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
      }
      expect(await store.read({ agentId: 'main' })).toMatchObject({ version: 0, files: {} });
    });

    test('two handles committing on the same version: exactly one wins, the other conflicts', async () => {
      const other = await ctx.open();
      try {
        const results = await Promise.allSettled(
          [store, other, store, other].map((s, n) =>
            s.commit({ agentId: 'main', changes: [{ name: 'scenes/race.md', text: `writer ${n}` }], expectedVersion: 0 }),
          ),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        expect(won).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(LayerConflictError.is(r.reason)).toBe(true);
        const read = await other.read({ agentId: 'main' });
        expect(read.version).toBe(1);
        expect(read.files['scenes/race.md']).toBe(`writer ${results.indexOf(won[0]!)}`);
      } finally {
        await other.close();
      }
    });
  });
}
