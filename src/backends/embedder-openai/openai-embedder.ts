import { z } from 'zod';
import { ConfigError, InvalidArgumentError, ProviderCallError } from '../../errors/index.js';
import { loadApiKey, loadOptionalSetting, postJson, validateBaseURL } from '../../provider-utils/index.js';
import { isLoopbackURL } from '../../provider-utils/local-url.js';
import type { EmbedderV1, EmbedKind } from '../../spec/index.js';
import { parseDimensions } from './dimensions.js';
import { resolveTaskHints, type TaskHintSettings } from './task-hints.js';

/**
 * Embedder for any OpenAI-compatible `POST {baseURL}/embeddings`: OpenAI, Jina, Gemini's OpenAI
 * endpoint, Ollama, vLLM, TEI, LM Studio.
 *
 * Dimensions: configure `dimensions` so a store can be initialised without a network call. When it
 * is not configured, the length is learned from the first response; until then reading
 * `dimensions` throws a ConfigError, and `resolveDimensions()` makes one probe call to learn it.
 */
export interface OpenAIEmbedderSettings extends TaskHintSettings {
  /** API root including the version, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseURL: string;
  model: string;
  /** Explicit key; wins over `apiKeyEnv`. */
  apiKey?: string;
  /**
   * Environment variable holding the key (required to be set when named). Defaults by host:
   * OPENAI_API_KEY for api.openai.com, JINA_API_KEY, GEMINI_API_KEY, VOYAGE_API_KEY,
   * MISTRAL_API_KEY. Any other base URL (local servers) gets no Authorization header unless a key
   * is configured: a key is never sent to a host it does not belong to.
   */
  apiKeyEnv?: string;
  /** Number, numeric string, or env reference (`$EMBED_DIM`, `${EMBED_DIM}`, `${EMBED_DIM:-1024}`). */
  dimensions?: number | string;
  /** Send `dimensions` in the request (models that can shorten vectors: OpenAI v3, Jina v3+, Gemini). Default false. */
  sendDimensions?: boolean;
  /** Texts per request. Default 64. */
  batchSize?: number;
  /** Time limit of a call (one attempt: the engine's embedding service retries). Default 30 s. */
  timeoutMs?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Id prefix: `<providerName>:<model>`. Default by host (openai, jina, gemini, voyage, mistral), else 'openai'. */
  providerName?: string;
  fetch?: typeof globalThis.fetch;
  /** Where `apiKeyEnv` and `dimensions` references are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface OpenAIEmbedder extends EmbedderV1 {
  /** The configured or learned vector length; makes one probe call when neither is known yet. */
  resolveDimensions(options?: { abortSignal?: AbortSignal }): Promise<number>;
}

/**
 * Hosted APIs whose key variable is implied by the host. The key only ever goes to its own host,
 * so the default is safe; other base URLs (local servers) get no key unless one is configured.
 */
const KNOWN_HOSTS: Record<string, { name: string; apiKeyEnv: string }> = {
  'api.openai.com': { name: 'openai', apiKeyEnv: 'OPENAI_API_KEY' },
  'api.jina.ai': { name: 'jina', apiKeyEnv: 'JINA_API_KEY' },
  'generativelanguage.googleapis.com': { name: 'gemini', apiKeyEnv: 'GEMINI_API_KEY' },
  'api.voyageai.com': { name: 'voyage', apiKeyEnv: 'VOYAGE_API_KEY' },
  'api.mistral.ai': { name: 'mistral', apiKeyEnv: 'MISTRAL_API_KEY' },
};

const responseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().optional() })),
});

function positiveInt(value: number | undefined, fallback: number, argument: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError({ argument, message: `${argument} must be a positive whole number, got ${value}.` });
  }
  return value;
}

export function createOpenAIEmbedder(settings: OpenAIEmbedderSettings): OpenAIEmbedder {
  const description = `Embedding API (${settings.model})`;
  const baseURL = validateBaseURL({ url: settings.baseURL, description });
  if (!settings.model?.trim()) {
    throw new InvalidArgumentError({ argument: 'model', message: 'model is required, e.g. text-embedding-3-small or nomic-embed-text.' });
  }
  const url = `${baseURL}/embeddings`;
  const known = KNOWN_HOSTS[new URL(baseURL).hostname];
  const apiKeyEnv = settings.apiKeyEnv ?? known?.apiKeyEnv;
  const configured = parseDimensions(settings.dimensions, settings.env);
  const maxBatchSize = positiveInt(settings.batchSize, 64, 'batchSize');
  const hints = resolveTaskHints(settings);
  const id = `${settings.providerName ?? known?.name ?? 'openai'}:${settings.model}`;
  const authHint = apiKeyEnv
    ? `Check the ${apiKeyEnv} environment variable (or the apiKey setting).`
    : 'This server wants an API key: set apiKeyEnv (e.g. OPENAI_API_KEY) in the embedding settings.';
  let learned: number | undefined;

  function headers(): Record<string, string> {
    // A local server (Ollama...) runs without a key: an unset key variable just sends none.
    const optional = isLoopbackURL(baseURL) && settings.apiKey === undefined;
    const key = optional
      ? loadOptionalSetting({ envVar: apiKeyEnv, env: settings.env })
      : settings.apiKey !== undefined || apiKeyEnv !== undefined
        ? loadApiKey({ apiKey: settings.apiKey, envVar: apiKeyEnv ?? 'OPENAI_API_KEY', description, env: settings.env })
        : undefined;
    return { ...settings.headers, ...(key ? { authorization: `Bearer ${key}` } : {}) };
  }

  function mismatch(got: number, expected: number, what: string): ProviderCallError {
    return new ProviderCallError({
      url,
      code: 'PROVIDER_DIMENSION_MISMATCH',
      isRetryable: false,
      message:
        `${settings.model} returned ${got}-dimensional vectors but ${what} ${expected}. ` +
        (settings.sendDimensions
          ? `The server ignored the requested dimensions: set dimensions to ${got}, or use a model that can shorten vectors.`
          : `Set dimensions to ${got}, or, if the model can shorten vectors (OpenAI text-embedding-3, Jina v3+, Gemini), set sendDimensions: true.`) +
        ' A store created with another length needs `strata reembed`.',
    });
  }

  function validate(data: z.infer<typeof responseSchema>['data'], count: number): number[][] {
    if (data.length !== count) {
      throw new ProviderCallError({
        url,
        isRetryable: false,
        message: `${description} returned ${data.length} embeddings for ${count} texts.`,
      });
    }
    const ordered = new Array<number[] | undefined>(count);
    data.forEach((item, position) => {
      const index = item.index ?? position;
      if (index < 0 || index >= count || ordered[index] !== undefined) {
        throw new ProviderCallError({ url, isRetryable: false, message: `${description} returned an invalid or repeated index ${index}.` });
      }
      ordered[index] = item.embedding;
    });
    const vectors = ordered as number[][];
    const expected = configured ?? learned ?? vectors[0]?.length ?? 0;
    if (expected === 0) {
      throw new ProviderCallError({
        url,
        isRetryable: false,
        message: `${description} returned empty vectors; check the model name (it may not be an embedding model).`,
      });
    }
    for (const vector of vectors) {
      if (vector.length !== expected) {
        throw mismatch(vector.length, expected, configured !== undefined ? 'dimensions is configured as' : 'earlier responses had');
      }
    }
    learned ??= expected;
    return vectors;
  }

  async function embed(options: { texts: string[]; kind: EmbedKind; abortSignal?: AbortSignal }): Promise<{ embeddings: number[][] }> {
    const { texts, kind, abortSignal } = options;
    if (texts.length > maxBatchSize) {
      throw new InvalidArgumentError({
        argument: 'texts',
        message: `${texts.length} texts exceed this embedder's batch size of ${maxBatchSize}; split them (the embedding service does).`,
      });
    }
    abortSignal?.throwIfAborted();
    if (texts.length === 0) return { embeddings: [] };
    const { input, task } = hints.apply({ texts, kind });
    const body: Record<string, unknown> = { model: settings.model, input };
    if (task !== undefined) body.task = task;
    if (settings.sendDimensions && configured !== undefined) body.dimensions = configured;
    // One attempt: failures are typed (retryable or not, with the server's retry-after) and the
    // engine's embedding service retries them.
    const { value } = await postJson({
      url,
      headers: headers(),
      body,
      schema: responseSchema,
      timeoutMs: settings.timeoutMs,
      abortSignal,
      fetch: settings.fetch,
      description,
      authHint,
    });
    return { embeddings: validate(value.data, texts.length) };
  }

  return {
    specificationVersion: 'v1',
    id,
    get dimensions(): number {
      const value = configured ?? learned;
      if (value === undefined) {
        throw new ConfigError({
          field: 'dimensions',
          message: `The vector length of ${id} is not known yet: set dimensions in the embedding settings (e.g. 1536 for text-embedding-3-small, 768 for nomic-embed-text), or call resolveDimensions() first.`,
        });
      }
      return value;
    },
    maxBatchSize,
    supportsParallelCalls: true,
    distinguishesQueries: hints.mode !== 'none',
    isRemote: true,
    doEmbed: embed,
    async resolveDimensions(options = {}) {
      const known = configured ?? learned;
      if (known !== undefined) return known;
      const { embeddings } = await embed({ texts: ['dimension probe'], kind: 'document', abortSignal: options.abortSignal });
      return embeddings[0]?.length ?? 0;
    },
    async close() {
      // Stateless over fetch: nothing to release.
    },
  };
}
