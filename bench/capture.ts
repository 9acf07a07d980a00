/**
 * L0 capture throughput: parse + clean + append (with dedupe, fsync and cursor commits) on large
 * generated sessions in the OpenClaw (pi v3), Claude Code and generic JSONL formats, plus a
 * re-run over the same files (cursor fast path) and a full re-scan (dedupe path). Each case runs
 * in its own process; its peak RSS (maxRSS, generator included) shows memory stays flat as files grow. Embedding is not part of L0
 * capture and is excluded. `msg/CPU-s` divides by the process's CPU time: on a busy machine it
 * shows what one free core would do. Run: `npx tsx bench/capture.ts [--sizes 20000,100000]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCleaner } from '../src/capture/clean/index.js';
import { CursorStore } from '../src/capture/cursor-store.js';
import { ingest, type IngestSourceSpec } from '../src/capture/ingest.js';
import { createJsonlL0Log } from '../src/backends/l0-jsonl/index.js';
import { readCompleteLines } from '../src/capture/line-reader.js';
import { READERS } from '../src/capture/readers/index.js';
import { printTable } from './lib/table.js';

type Format = 'openclaw' | 'claude-code' | 'jsonl';

const WORDS =
  'the a deploy config memory agent server cache index query token user plan review build test merge branch release fix bug'.split(' ');
function sentence(i: number): string {
  const n = 8 + (i % 30);
  const out: string[] = [];
  for (let k = 0; k < n; k += 1) out.push(WORDS[(i * 7 + k * 13) % WORDS.length]!);
  if (i % 50 === 0) out.push('<relevant-memories>- recalled fact</relevant-memories>');
  if (i % 97 === 0) out.push('api_key=sk-proj-ABCDEF0123456789abcdef0123456789');
  return `${out.join(' ')} #${i}`;
}

/** Writes `n` messages in the given host format, streaming to keep the generator small. */
function generate(format: Format, dir: string, n: number): { root: string; path: string } {
  const ts0 = 1_771_996_735_000;
  let root: string;
  let path: string;
  if (format === 'openclaw') {
    root = join(dir, 'oc');
    mkdirSync(join(root, 'agents', 'main', 'sessions'), { recursive: true });
    path = join(root, 'agents', 'main', 'sessions', 'big.jsonl');
  } else if (format === 'claude-code') {
    root = join(dir, 'cc');
    mkdirSync(join(root, 'projects', '-bench'), { recursive: true });
    path = join(root, 'projects', '-bench', 'big.jsonl');
  } else {
    root = join(dir, 'jl');
    mkdirSync(root, { recursive: true });
    path = join(root, 'big.jsonl');
  }
  const lines: string[] = [];
  if (format === 'openclaw')
    lines.push(JSON.stringify({ type: 'session', version: 3, id: 'big', timestamp: new Date(ts0).toISOString(), cwd: '/' }));
  let written = 0;
  const flushEvery = 10_000;
  writeFileSync(path, '');
  for (let i = 0; i < n; i += 1) {
    const ts = ts0 + i * 1000;
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const text = sentence(i);
    if (format === 'openclaw') {
      lines.push(
        JSON.stringify({
          type: 'message',
          id: i.toString(16).padStart(8, '0'),
          parentId: null,
          timestamp: new Date(ts).toISOString(),
          message: { role, content: [{ type: 'text', text }], timestamp: ts },
        }),
      );
    } else if (format === 'claude-code') {
      const base = { sessionId: 'big', cwd: '/', version: '2.1.39', timestamp: new Date(ts).toISOString() };
      if (role === 'user') lines.push(JSON.stringify({ ...base, type: 'user', uuid: `u${i}`, message: { role: 'user', content: text } }));
      else {
        // Two lines per assistant turn (text + tool_use), plus a progress line: like real sessions.
        lines.push(
          JSON.stringify({
            ...base,
            type: 'assistant',
            uuid: `a${i}`,
            message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'text', text }] },
          }),
        );
        lines.push(
          JSON.stringify({
            ...base,
            type: 'assistant',
            uuid: `b${i}`,
            message: {
              id: `msg_${i}`,
              role: 'assistant',
              content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: 'ls' } }],
            },
          }),
        );
        lines.push(JSON.stringify({ ...base, type: 'progress', uuid: `p${i}`, data: { type: 'bash_progress' } }));
      }
    } else {
      lines.push(JSON.stringify({ role, content: text, timestamp: ts, id: `m${i}` }));
    }
    if (lines.length >= flushEvery) {
      writeFileSync(path, lines.join('\n') + '\n', { flag: 'a' });
      written += lines.length;
      lines.length = 0;
    }
  }
  writeFileSync(path, lines.join('\n') + (lines.length ? '\n' : ''), { flag: 'a' });
  void written;
  return { root, path };
}

async function measure<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number; cpuSeconds: number }> {
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const seconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { value, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/** Parse + clean only (no disk writes): the CPU share of the pipeline. */
async function parseClean(format: Format, root: string, path: string): Promise<number> {
  const reader = READERS[format];
  const [file] = await reader.discover({ root, ...(format === 'openclaw' ? {} : { agentId: 'bench' }) });
  if (!file || file.path !== path) throw new Error(`bench: ${format} file not discovered`);
  const parser = reader.createParser(file);
  const cleaner = createCleaner();
  let n = 0;
  for await (const chunk of readCompleteLines({ path, start: 0 })) {
    for (const line of chunk.lines) {
      if (line.text === undefined) continue;
      for (const m of parser.line(line.text).messages) {
        n += 1;
        cleaner.clean(m);
      }
    }
  }
  return n + parser.end().length;
}

type Row = Array<string | number>;

/** One case, run in its own process so its peak RSS (maxRSS) is not inflated by earlier cases. */
async function runCase(format: Format, n: number): Promise<Row> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-bench-capture-'));
  try {
    const { root, path } = generate(format, dir, n);
    const mb = statSync(path).size / 1024 / 1024;
    const home = join(dir, 'home');
    const sources: IngestSourceSpec[] = [{ kind: format, root }];
    const baseRss = process.memoryUsage().rss / 1024 / 1024;
    const pc = await measure(() => parseClean(format, root, path));
    const log = createJsonlL0Log({ home });
    const first = await measure(() => ingest({ home, log, sources }));
    const again = await measure(() => ingest({ home, log, sources }));
    await new CursorStore({ home }).reset();
    const rescan = await measure(() => ingest({ home, log, sources }));
    const s = first.value;
    const maxRss = process.resourceUsage().maxRSS / 1024;
    return [
      `${format} ${n}`,
      mb,
      Math.round(pc.value / pc.seconds),
      Math.round(s.messages.parsed / first.seconds),
      Math.round(s.messages.parsed / first.cpuSeconds),
      s.messages.new,
      mb / first.seconds,
      Math.round(rescan.value.messages.parsed / rescan.seconds),
      again.seconds * 1000,
      baseRss,
      maxRss,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const caseArg = process.argv.indexOf('--case');
  if (caseArg > 0) {
    const [format, n] = (process.argv[caseArg + 1] ?? '').split(':');
    process.stdout.write(`${JSON.stringify(await runCase(format as Format, Number(n)))}\n`);
    return;
  }
  const arg = process.argv.indexOf('--sizes');
  const sizes = arg > 0 ? (process.argv[arg + 1] ?? '').split(',').map(Number) : [20_000, 200_000];
  const rows: Row[] = [];
  const run = (format: Format, n: number, nodeFlags: string[] = []): Row => {
    const args = [...nodeFlags, '--import', 'tsx', fileURLToPath(import.meta.url), '--case', `${format}:${n}`];
    const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`bench case ${format}:${n} failed: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').pop() ?? '[]') as Row;
  };
  for (const format of ['openclaw', 'claude-code', 'jsonl'] as const) {
    for (const n of sizes) rows.push(run(format, n));
  }
  // The largest session again with the JS heap capped at 48 MB: it must still complete, which
  // shows memory is bounded by batch size, not file size (RSS above only reflects lazy GC).
  const largest = Math.max(...sizes);
  const capped = run('openclaw', largest, ['--max-old-space-size=48']);
  capped[0] = `${String(capped[0])} (heap 48 MB)`;
  rows.push(capped);
  printTable(
    'L0 capture: parse + clean + append (target >= 20,000 msgs/s; embedding excluded)',
    [
      'session',
      'MB',
      'parse+clean msg/s',
      'ingest msg/s',
      'ingest msg/CPU-s',
      'written',
      'ingest MB/s',
      're-scan msg/s',
      'no-op re-run ms',
      'RSS before MB',
      'peak RSS MB',
    ],
    rows,
  );
}

await main();
