import { InvalidArgumentError } from '../../errors/index.js';
import type { EmbedderV1 } from '../../spec/index.js';

/** Lexical-only mode: no vectors. The core checks `dimensions === 0` and never calls `doEmbed`. */
export function createNoneEmbedder(): EmbedderV1 {
  return {
    specificationVersion: 'v1',
    id: 'none',
    dimensions: 0,
    maxBatchSize: Number.MAX_SAFE_INTEGER,
    supportsParallelCalls: true,
    distinguishesQueries: false,
    isRemote: false,
    async doEmbed() {
      throw new InvalidArgumentError({
        argument: 'embedder',
        message:
          'The "none" embedder produces no vectors: Strata runs in lexical-only mode (full-text search only). ' +
          'Configure an embedder (local or an OpenAI-compatible API) to enable vector search, then run `strata reembed`.',
      });
    },
  };
}
