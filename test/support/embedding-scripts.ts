import { fakeEmbedding, fakeRelevance } from './fake-embeddings.js';
import type { ScriptFunction } from './scripted-http-server.js';

/**
 * Route scripts that behave like real providers, for scripted servers: an OpenAI-compatible
 * `/embeddings` endpoint and each rerank API shape.
 */
export function openAIEmbeddingsScript(options: { dimensions: number; reverse?: boolean }): ScriptFunction {
  return (request) => {
    const body = request.body as { input: string[] | string; dimensions?: number };
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    const dims = body.dimensions ?? options.dimensions;
    const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, dims) }));
    // Real servers may answer out of order; clients must sort by index.
    if (options.reverse) data.reverse();
    return { json: { object: 'list', data, model: 'scripted', usage: { prompt_tokens: 1, total_tokens: 1 } } };
  };
}

export type RerankShape = 'results' | 'voyage' | 'tei';

/** Scores by word overlap; answers sorted by score like the real APIs. */
export function rerankScript(shape: RerankShape): ScriptFunction {
  return (request) => {
    const body = request.body as { query: string; documents?: string[]; texts?: string[]; top_n?: number; top_k?: number };
    const documents = (shape === 'tei' ? body.texts : body.documents) ?? [];
    const scored = documents
      .map((doc, index) => ({ index, score: fakeRelevance(body.query, doc) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, body.top_n ?? body.top_k ?? documents.length);
    if (shape === 'tei') return { json: scored };
    const items = scored.map((r) => ({ index: r.index, relevance_score: r.score }));
    return { json: shape === 'voyage' ? { object: 'list', data: items, model: 'scripted' } : { id: 'r', results: items } };
  };
}
