import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError, InvalidArgumentError, StorageError } from '../../errors/index.js';
import type { EmbedderV1, EmbedKind } from '../../spec/index.js';
import { defaultsForModel, type Pooling } from './known-models.js';

/**
 * Sentence embeddings from an ONNX model through `@huggingface/transformers` (onnxruntime-node):
 * bge-small-en-v1.5, multilingual-e5-small, all-MiniLM-L6-v2 and other Hugging Face models with
 * an `onnx/` folder. The model comes from a local folder (`modelPath`), else from the Strata home's
 * model cache, downloaded there on first use when `allowDownload` is on. `@huggingface/transformers`
 * is an optional dependency, imported on first use: install it to use this embedder.
 * Inference runs on onnxruntime's own threads, so the event loop is not blocked while it runs.
 */
export interface TransformersEmbedderSettings {
  /** Hugging Face model id (e.g. `Xenova/bge-small-en-v1.5`); also names the embedder in the store. */
  model: string;
  /** A folder holding the model (config.json, tokenizer.json, onnx/model*.onnx); no download then. */
  modelPath?: string;
  /** Where downloaded models are kept (e.g. `<home>/models`). */
  cacheDir?: string;
  /** Fetch the model from the Hugging Face hub when it is not on disk. Default false. */
  allowDownload?: boolean;
  /** ONNX weights variant: `fp32` (onnx/model.onnx, default), `q8` (model_quantized.onnx), ... */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4';
  pooling?: Pooling;
  /** Prepended to queries / documents (e5: `query: ` / `passage: `; bge: an instruction for queries). */
  queryPrefix?: string;
  documentPrefix?: string;
  /** Texts per model call. Default 32. */
  batchSize?: number;
}

export interface TransformersEmbedder extends EmbedderV1 {
  /** Loads the model (once) and returns its vector length. */
  resolveDimensions(): Promise<number>;
}

type Extractor = ((
  texts: string[],
  options: { pooling: Pooling; normalize: boolean },
) => Promise<{ dims: number[]; tolist(): number[][] }>) & { dispose(): Promise<void> };

async function importTransformers() {
  try {
    return await import('@huggingface/transformers');
  } catch (error) {
    throw new ConfigError({
      field: 'embedder.provider',
      message:
        'The transformers embedder needs the optional package @huggingface/transformers: run `npm install @huggingface/transformers` next to strata-memory.',
      cause: error,
    });
  }
}

export function createTransformersEmbedder(settings: TransformersEmbedderSettings): TransformersEmbedder {
  if (!settings.model?.trim())
    throw new InvalidArgumentError({
      argument: 'model',
      message: 'The transformers embedder needs a model id (e.g. Xenova/bge-small-en-v1.5).',
    });
  const defaults = defaultsForModel(settings.model);
  const pooling = settings.pooling ?? defaults.pooling;
  const queryPrefix = settings.queryPrefix ?? defaults.queryPrefix ?? '';
  const documentPrefix = settings.documentPrefix ?? defaults.documentPrefix ?? '';
  const dtype = settings.dtype ?? 'fp32';
  const maxBatchSize = settings.batchSize ?? 32;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new InvalidArgumentError({ argument: 'batchSize', message: `batchSize must be a positive whole number, got ${maxBatchSize}.` });
  }
  let loading: Promise<Extractor> | undefined;
  let dimensions: number | undefined;

  async function load(): Promise<Extractor> {
    const { env, pipeline } = await importTransformers();
    // transformers.js keeps its settings in one module-level object: set them right before loading.
    if (settings.modelPath) {
      env.allowLocalModels = true;
      env.localModelPath = dirname(settings.modelPath);
      env.allowRemoteModels = false;
    } else {
      env.allowRemoteModels = settings.allowDownload === true;
      if (settings.cacheDir) env.cacheDir = settings.cacheDir;
    }
    const id = settings.modelPath ? basename(settings.modelPath) : settings.model;
    try {
      return (await pipeline('feature-extraction', id, { dtype })) as unknown as Extractor;
    } catch (error) {
      const where = settings.modelPath
        ? `from ${settings.modelPath} (expected config.json, tokenizer.json and onnx/${dtype === 'fp32' ? 'model.onnx' : `model_${dtype}.onnx`})`
        : settings.allowDownload
          ? `from the Hugging Face hub into ${settings.cacheDir ?? 'the transformers cache'}`
          : `from ${settings.cacheDir ?? 'the transformers cache'} (downloads are off: set embedder.allowDownload, or embedder.modelPath to a local folder)`;
      throw new StorageError({
        message: `Cannot load the embedding model ${settings.model} ${where}: ${(error as Error).message}`,
        cause: error,
      });
    }
  }

  function extractor(): Promise<Extractor> {
    loading ??= load();
    loading.catch(() => (loading = undefined));
    return loading;
  }

  async function embed(texts: string[]): Promise<number[][]> {
    const output = await (await extractor())(texts, { pooling, normalize: true });
    const vectors = output.tolist();
    dimensions ??= vectors[0]?.length;
    return vectors.map((v) => (v.every(Number.isFinite) ? v : new Array<number>(v.length).fill(0)));
  }

  return {
    specificationVersion: 'v1',
    id: `transformers:${settings.model}${dtype === 'fp32' ? '' : `:${dtype}`}`,
    get dimensions(): number {
      if (dimensions === undefined)
        throw new StorageError({
          message: `The vector length of ${settings.model} is known once the model is loaded: call resolveDimensions() first.`,
        });
      return dimensions;
    },
    maxBatchSize,
    supportsParallelCalls: false,
    distinguishesQueries: queryPrefix !== documentPrefix,
    isRemote: false,
    async resolveDimensions() {
      if (dimensions !== undefined) return dimensions;
      if (settings.modelPath) {
        const config = await readFile(join(settings.modelPath, 'config.json'), 'utf8').then(
          (t) => JSON.parse(t) as { hidden_size?: number },
          () => undefined,
        );
        if (config?.hidden_size) return (dimensions = config.hidden_size);
      }
      await embed(['dimension probe']);
      return dimensions!;
    },
    async doEmbed(options: { texts: string[]; kind: EmbedKind; abortSignal?: AbortSignal }) {
      const { texts, kind, abortSignal } = options;
      if (texts.length > maxBatchSize) {
        throw new InvalidArgumentError({
          argument: 'texts',
          message: `${texts.length} texts exceed the transformers embedder's batch size of ${maxBatchSize}; split them (the embedding service does).`,
        });
      }
      abortSignal?.throwIfAborted();
      if (texts.length === 0) return { embeddings: [] };
      const prefix = kind === 'query' ? queryPrefix : documentPrefix;
      const embeddings = await embed(texts.map((t) => prefix + t));
      abortSignal?.throwIfAborted();
      return { embeddings };
    },
    async close() {
      const pending = loading;
      loading = undefined;
      if (pending)
        await pending.then(
          (e) => e.dispose(),
          () => undefined,
        );
    },
  };
}
