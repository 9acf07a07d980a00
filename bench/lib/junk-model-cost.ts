import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { keepProbability, readLinearTextModel, USER_JUNK_MODEL_PATH } from '../../src/core/distill/junk-model/model.js';
import { printTable } from './table.js';

/**
 * What the user-message model (src/core/distill/junk-model) costs: reading the shipped file, the
 * heap it holds, and the time to read one sentence (every unit of the real set, and one long line).
 */
export function printJunkModelCost(options: { dataDir: string }): void {
  // A garbage collection before each heap reading, so the difference is what the model holds.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let started = performance.now();
  const model = readLinearTextModel(USER_JUNK_MODEL_PATH);
  const load = performance.now() - started;
  gc();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  const texts = readFileSync(join(options.dataDir, 'admission-real.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { text: string }).text);
  started = performance.now();
  for (const text of texts) keepProbability(model, text);
  const perUnit = (performance.now() - started) / texts.length;
  const long = 'TypeError: cannot read properties of undefined at render (src/app.tsx:42) '.repeat(120);
  started = performance.now();
  keepProbability(model, long);
  const longMs = performance.now() - started;
  printTable(
    'User-message model: cost',
    ['file size', 'read', 'heap', 'per real unit', `one ${long.length}-char line`],
    [
      [
        `${(readFileSync(USER_JUNK_MODEL_PATH).length / 1e6).toFixed(2)} MB`,
        `${load.toFixed(0)} ms`,
        `${(heap / 1e6).toFixed(1)} MB`,
        `${(perUnit * 1000).toFixed(0)} µs (${texts.length} units)`,
        `${longMs.toFixed(1)} ms`,
      ],
    ],
  );
}
