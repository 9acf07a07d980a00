import { describe, expect, it } from 'vitest';
import { Strata } from '../../src/strata.js';
import { tempHome } from '../support/run-cli.js';

describe('Strata engine with the local embedder', () => {
  it('stores, reports near-duplicates by vector, recalls within scopes and redacts secrets', async () => {
    const home = await tempHome({ embedder: { provider: 'local' } });
    const strata = await Strata.open({ home });
    try {
      const a = await strata.remember({ text: 'The user prefers dark mode in every code editor.', category: 'preference' });
      expect(a.action).toBe('created');
      const near = await strata.remember({ text: 'The user prefers dark mode in every code editor!!' });
      expect(near).toMatchObject({ action: 'duplicate', id: a.id });
      const other = await strata.remember({ text: 'Deploys happen on Fridays after the standup.', scope: 'agent:ops' });
      expect(other.action).toBe('created');
      const secret = await strata.remember({
        text: 'The staging API key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD',
        scope: 'agent:ops',
      });
      expect(secret.redactions).toBeGreaterThan(0);
      expect(secret.record?.text).not.toContain('sk-proj-abcdefghijklmnop');

      const globalOnly = await strata.recall({ query: 'when do deploys happen', scopes: ['global'] });
      expect(globalOnly.results.map((r) => r.record.scope)).not.toContain('agent:ops');
      const ops = await strata.recall({ query: 'when do deploys happen', scopes: ['global', 'agent:ops'] });
      expect(ops.results[0]?.record.id).toBe(other.id);

      const explained = await strata.recall({ query: 'editor theme preference', scopes: ['global'], explain: true });
      expect(explained.results[0]?.record.id).toBe(a.id);
      expect(explained.explain).toBeDefined();
    } finally {
      await strata.close();
    }
  });

  it('counts accesses after recall (flushed on close)', async () => {
    const home = await tempHome();
    const strata = await Strata.open({ home });
    const { id } = await strata.remember({ text: 'Coffee order: oat flat white' });
    await strata.recall({ query: 'coffee order', scopes: ['global'] });
    await strata.recall({ query: 'oat flat white', scopes: ['global'] });
    await strata.close();
    const again = await Strata.open({ home });
    const record = await again.getOne({ id });
    expect(record.accessCount).toBe(2);
    expect(record.lastAccessedAt).not.toBeNull();
    await again.close();
  });
});
