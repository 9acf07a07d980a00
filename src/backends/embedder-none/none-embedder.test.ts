import { describe, expect, it } from 'vitest';
import { runEmbedderContract } from '../../../test/contracts/embedder-contract.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { createNoneEmbedder } from './index.js';

const LEXICAL = 'lexical-only: the none embedder produces no vectors and the core never calls doEmbed';

runEmbedderContract({
  name: 'none',
  create: createNoneEmbedder,
  skip: [
    {
      tests: [
        'returns one vector per text with the declared dimensions',
        'preserves input order',
        'accepts query and document kinds',
        'returns no vectors for empty input',
        'splits large inputs into batches through the embedding service',
        'rejects an aborted signal',
      ],
      reason: LEXICAL,
    },
    { tests: ['rejects more texts than maxBatchSize in one call'], reason: 'no batch limit (maxBatchSize is MAX_SAFE_INTEGER)' },
  ],
});

describe('none embedder', () => {
  it('declares zero dimensions and explains lexical-only mode when called', async () => {
    const embedder = createNoneEmbedder();
    expect(embedder).toMatchObject({ id: 'none', dimensions: 0, isRemote: false });
    const error = await embedder.doEmbed({ texts: ['x'], kind: 'query' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toMatch(/lexical-only/);
  });
});
