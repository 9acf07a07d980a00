/**
 * `npm run bench -- resident-ops`: what `strata recall` and `strata mcp` cost through the home's
 * resident Strata process versus opening the engine in their own process, on the built package
 * (dist/, rebuilt first) with the default offline embedder and ~400 real-sentence memories.
 *   - CLI: `node bin/strata.js --agent claude-code recall <q> --json`, wall time per process;
 *     in-process is the same with STRATA_RESIDENT=0.
 *   - MCP: `strata mcp` over stdio with the MCP SDK client: connect + first memory_recall, then
 *     warm memory_recall calls on the open connection; in-process is `strata mcp --no-resident`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ensureNode } from '../test/e2e/support/toolchain.js';
import { NODE_24 } from '../test/e2e/versions.js';
import { seed } from './hooks.js';
import { buildDist } from './lib/build.js';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'strata.js');
const QUERIES = [
  'what did we decide about the frontend framework?',
  'how do I like answers to be formatted?',
  'which database do we use for the new service?',
  'what is the deploy process we agreed on?',
];

let node = process.execPath;
const baseEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  STRATA_HOME: '',
  STRATA_AGENT_ID: '',
  STRATA_HOOK_GUARD: '',
  LANCEDB_LOG: 'error',
});

function cliRecall(home: string, query: string, env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; ok: boolean }> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(node, [BIN, '--home', home, '--agent', 'claude-code', 'recall', query, '--json'], {
      env: { ...baseEnv(), ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ ms: performance.now() - started, ok: code === 0 && out.includes('"results"') }));
  });
}

async function mcpSession(home: string, mcpArgs: string[], calls: number): Promise<{ first: number; warm: number[] }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: node,
    args: [BIN, '--home', home, '--agent', 'claude-code', 'mcp', ...mcpArgs],
    env: baseEnv() as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'strata-bench', version: '0' });
  await client.connect(transport);
  try {
    await client.callTool({ name: 'memory_recall', arguments: { query: QUERIES[0] } });
    const first = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await client.callTool({ name: 'memory_recall', arguments: { query: QUERIES[i % QUERIES.length] } });
      warm.push(performance.now() - t);
    }
    return { first, warm };
  } finally {
    await client.close();
  }
}

export async function runResidentOpsBench(options: { runs?: number } = {}): Promise<void> {
  const runs = options.runs ?? Number(process.env.STRATA_BENCH_RUNS ?? 10);
  buildDist('the CLI runs the built package');
  node = process.env.STRATA_BENCH_NODE || (await ensureNode(NODE_24)).node;
  const { callResident } = await import('../src/resident/client.js');
  const { residentStamp } = await import('../src/resident/stamp.js');
  const entry = join(ROOT, 'dist', 'resident', 'main.js');
  const home = await mkdtemp(join(tmpdir(), 'strata-bench-resident-ops-'));
  const stamp = residentStamp(entry);
  const stop = () => callResident({ home, stamp, op: 'shutdown', deadline: Date.now() + 10_000 }).catch(() => undefined);
  try {
    const memories = await seed(home);
    const rows: Array<Array<string | number>> = [];
    const row = (name: string, ms: number[], ok: number) => {
      const s = summarize(ms);
      rows.push([name, ms.length, s.p50, s.p95, Math.max(...ms), `${ok}/${ms.length}`]);
    };

    const inProcess: Array<{ ms: number; ok: boolean }> = [];
    for (let i = 0; i < runs; i++) inProcess.push(await cliRecall(home, QUERIES[i % QUERIES.length]!, { STRATA_RESIDENT: '0' }));
    row(
      'strata recall, in-process (STRATA_RESIDENT=0)',
      inProcess.map((s) => s.ms),
      inProcess.filter((s) => s.ok).length,
    );
    const mcpLocal = await mcpSession(home, ['--no-resident'], runs);
    row('strata mcp --no-resident: connect + first memory_recall', [mcpLocal.first], 1);
    row('strata mcp --no-resident: memory_recall, warm', mcpLocal.warm, mcpLocal.warm.length);

    // A running, warm resident (as the hooks leave it), started with this build's command line.
    await callResident({
      home,
      stamp,
      op: 'ping',
      deadline: Date.now() + 120_000,
      start: { command: node, args: [entry, '--home', home, '--stamp', stamp], env: baseEnv() },
    });
    await cliRecall(home, QUERIES[0]!); // the engine warms up after the socket is up
    const viaResident: Array<{ ms: number; ok: boolean }> = [];
    for (let i = 0; i < runs; i++) viaResident.push(await cliRecall(home, QUERIES[i % QUERIES.length]!));
    row(
      'strata recall, through the resident',
      viaResident.map((s) => s.ms),
      viaResident.filter((s) => s.ok).length,
    );
    const mcpResident = await mcpSession(home, [], runs);
    row('strata mcp: connect + first memory_recall, through the resident', [mcpResident.first], 1);
    row('strata mcp: memory_recall, warm, through the resident', mcpResident.warm, mcpResident.warm.length);
    const { result } = await callResident({ home, stamp, op: 'status', deadline: Date.now() + 10_000 });
    const served = (result as { served: Record<string, number> }).served['ops.run'] ?? 0;

    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    printTable(
      `strata CLI and MCP through the resident vs in-process (${memories} memories, local embedder, Node ${version})`,
      ['case', 'runs', 'p50 ms', 'p95 ms', 'max ms', 'ok'],
      rows,
    );
    process.stdout.write(`\nthe resident served ${served} operation(s) (ops.run) of the runs above\n`);
  } finally {
    await stop();
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
