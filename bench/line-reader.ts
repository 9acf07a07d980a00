/**
 * Transcript line reader: MB/s of `readCompleteLines` on JSONL with LF, CRLF and lone-CR line ends
 * (best of 5 reads of the same file), and what an ingest run costs when the transcript ends in an
 * unfinished 10 MB line (the host still writing it): the first run reads it, later runs over the
 * unchanged file should not. Run: `npm run bench -- lines`.
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonlL0Log } from '../src/backends/l0-jsonl/index.js';
import { ingest } from '../src/capture/ingest.js';
import { readCompleteLines } from '../src/capture/line-reader.js';
import { printTable } from './lib/table.js';

const LINES = Number(process.env.STRATA_BENCH_LINES ?? 200_000);

function jsonl(i: number): string {
  const words = 'deploy staging port cache build review agent memory token release branch test'.split(' ');
  const text = Array.from({ length: 10 + (i % 25) }, (_, k) => words[(i + k * 7) % words.length]).join(' ');
  return JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `${text} #${i}`, timestamp: 1_771_996_735_000 + i * 1000 });
}

async function readMbPerSecond(path: string, bytes: number): Promise<{ lines: number; mbs: number }> {
  let best = Infinity;
  let lines = 0;
  for (let round = 0; round < 5; round += 1) {
    const started = process.hrtime.bigint();
    let n = 0;
    for await (const chunk of readCompleteLines({ path, start: 0 })) n += chunk.lines.length;
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e9);
    lines = n;
  }
  return { lines, mbs: bytes / 1024 / 1024 / best };
}

export async function runLineReaderBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-lines-'));
  try {
    const body = Array.from({ length: LINES }, (_, i) => jsonl(i));
    const rows: Array<Array<string | number>> = [];
    for (const [name, end] of [
      ['LF', '\n'],
      ['CRLF', '\r\n'],
      ['lone CR', '\r'],
    ] as const) {
      const path = join(dir, `${name.replace(' ', '-')}.jsonl`);
      const text = body.join(end) + end;
      writeFileSync(path, text);
      const bytes = Buffer.byteLength(text);
      const { lines, mbs } = await readMbPerSecond(path, bytes);
      rows.push([name, (bytes / 1024 / 1024).toFixed(1), lines, Math.round(mbs)]);
    }
    printTable(`readCompleteLines (${LINES} JSONL lines; best of 5)`, ['line ends', 'MB', 'lines read', 'MB/s'], rows);

    const root = join(dir, 'logs');
    mkdirSync(root);
    const path = join(root, 'chat.jsonl');
    writeFileSync(path, `${jsonl(0)}\n{"role":"tool","content":"${'a'.repeat(10 * 1024 * 1024)}`);
    const home = join(dir, 'home');
    const runs: Array<Array<string | number>> = [];
    const timed = async (label: string): Promise<void> => {
      const started = process.hrtime.bigint();
      const s = await ingest({ home, log: createJsonlL0Log({ home }), sources: [{ kind: 'jsonl', root }], sqlite: false });
      runs.push([label, s.files.read, s.files.unchanged, (Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)]);
    };
    await timed('first run');
    for (let k = 1; k <= 3; k += 1) await timed(`unchanged run ${k}`);
    appendFileSync(path, 'a'.repeat(1000));
    await timed('after 1 KB more of the line');
    printTable('ingest runs over a transcript ending in an unfinished 10 MB line', ['run', 'files read', 'files unchanged', 'ms'], runs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLineReaderBench();
