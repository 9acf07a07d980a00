/**
 * `npm run bench -- hooks`: wall time and memory of Claude Code hook calls exactly as installed
 * (`node bin/strata.js --home <h> --agent claude-code hook <Event>`, hook JSON on stdin), on the
 * built package (dist/, rebuilt first) with the default offline embedder and ~400 real-sentence
 * memories. Cold: no resident process (each call starts one: store open, model load, answer).
 * Warm: the resident is running. In-process: STRATA_RESIDENT=0 (every call loads the engine).
 * Budget (issue 12): UserPromptSubmit warm p95 <= 150 ms, cold <= 1.5 s.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

const ROOT = resolve(import.meta.dirname, '..');
const FIXTURE = resolve(ROOT, '../shared/fixtures/transcripts/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
const PROMPTS = [
  'what did we decide about the frontend framework?',
  'how do I like answers to be formatted?',
  'remind me what my son does on Wednesdays',
  'which database do we use for the new service?',
  'what should I keep in mind when I quote numbers?',
  'can you summarise my preferences for code reviews?',
  'what is the deploy process we agreed on?',
  'which editor settings do I prefer?',
];

interface Sample {
  ms: number;
  rssMb: number;
  stdout: string;
}

function callHook(options: { home: string; event: string; payload: unknown; env?: NodeJS.ProcessEnv }): Promise<Sample> {
  const time = existsSync('/usr/bin/time');
  const argv = [process.execPath, join(ROOT, 'bin', 'strata.js'), '--home', options.home, '--agent', 'claude-code', 'hook', options.event];
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(time ? '/usr/bin/time' : argv[0]!, time ? ['-f', 'maxrss_kb=%M', ...argv] : argv.slice(1), {
      env: { ...process.env, STRATA_HOME: '', STRATA_AGENT_ID: '', STRATA_HOOK_GUARD: '', LANCEDB_LOG: 'error', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const ms = performance.now() - started;
      const kb = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? NaN);
      resolvePromise({ ms, rssMb: kb / 1024, stdout });
    });
    child.stdin.end(JSON.stringify(options.payload));
  });
}

async function residentPid(home: string): Promise<number | undefined> {
  return readFile(join(home, 'run', 'resident.json'), 'utf8').then((t) => (JSON.parse(t) as { pid: number }).pid, () => undefined);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the resident this benchmark started, and waits until it is gone. */
async function stopResident(home: string): Promise<void> {
  const pid = await residentPid(home);
  if (!pid || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  while (alive(pid)) await new Promise((r) => setTimeout(r, 20));
}

async function residentRssMb(home: string): Promise<{ rss: number; peak: number }> {
  const pid = await residentPid(home);
  const status = pid ? await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '') : '';
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function seed(home: string): Promise<number> {
  const texts: string[] = [];
  for (const file of ['admission-set.jsonl', 'admission-holdout-r1.jsonl', 'admission-holdout-r2.jsonl', 'admission-holdout-r3.jsonl', 'admission-holdout-r4.jsonl']) {
    for (const line of (await readFile(join(ROOT, 'bench', 'data', file), 'utf8')).split('\n')) {
      if (!line.trim()) continue;
      const item = JSON.parse(line) as { text: string; label: string };
      if (item.label === 'keep') texts.push(item.text);
    }
  }
  const { Strata } = await import('../src/strata.js');
  const strata = await Strata.open({ home });
  try {
    const results = await strata.rememberMany({ items: texts.map((text) => ({ text, scope: 'agent:claude-code' })) });
    return results.filter((r) => r.action === 'added').length;
  } finally {
    await strata.close();
  }
}

export async function runHooksBench(options: { cold?: number; warm?: number } = {}): Promise<void> {
  const coldRuns = options.cold ?? Number(process.env.STRATA_BENCH_COLD ?? 8);
  const warmRuns = options.warm ?? Number(process.env.STRATA_BENCH_WARM ?? 40);
  process.stdout.write('building dist/ (the hooks run the built package)...\n');
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('tsc failed');

  const home = await mkdtemp(join(tmpdir(), 'strata-bench-hooks-'));
  try {
    const memories = await seed(home);
    const projectDir = join(home, 'claude', 'projects', 'bench-project');
    await mkdir(projectDir, { recursive: true });
    const transcript = join(projectDir, 'bench-session.jsonl');
    await copyFile(FIXTURE, transcript);
    const payload = (event: string, i: number, extra: Record<string, unknown> = {}) => ({
      session_id: `bench-${event}-${i}`, transcript_path: transcript, cwd: '/bench', hook_event_name: event, ...extra,
    });
    const prompt = (i: number) => payload('UserPromptSubmit', i, { prompt: PROMPTS[i % PROMPTS.length] });
    const rows: Array<Array<string | number>> = [];
    const row = (name: string, samples: Sample[], answered: number) => {
      const wall = summarize(samples.map((s) => s.ms));
      const rss = summarize(samples.map((s) => s.rssMb));
      rows.push([name, samples.length, wall.p50, wall.p95, Math.max(...samples.map((s) => s.ms)), rss.p50, `${answered}/${samples.length}`]);
    };

    const cold: Sample[] = [];
    for (let i = 0; i < coldRuns; i++) {
      await stopResident(home);
      cold.push(await callHook({ home, event: 'UserPromptSubmit', payload: prompt(i) }));
    }
    row('UserPromptSubmit, cold (starts the resident)', cold, cold.filter((s) => s.stdout.includes('relevant-memories')).length);

    await callHook({ home, event: 'UserPromptSubmit', payload: prompt(999) }); // let the resident finish warming
    const warm: Sample[] = [];
    for (let i = 0; i < warmRuns; i++) warm.push(await callHook({ home, event: 'UserPromptSubmit', payload: prompt(1000 + i) }));
    row('UserPromptSubmit, warm', warm, warm.filter((s) => s.stdout.includes('relevant-memories')).length);

    const starts: Sample[] = [];
    for (let i = 0; i < Math.ceil(warmRuns / 2); i++) starts.push(await callHook({ home, event: 'SessionStart', payload: payload('SessionStart', i, { source: 'startup' }) }));
    row('SessionStart, warm', starts, starts.filter((s) => s.stdout.includes('additionalContext')).length);

    const stops: Sample[] = [];
    for (let i = 0; i < Math.ceil(warmRuns / 2); i++) stops.push(await callHook({ home, event: 'Stop', payload: payload('Stop', i, { stop_hook_active: false }) }));
    row('Stop (capture), warm', stops, stops.length);
    const resident = await residentRssMb(home);

    await stopResident(home);
    const inProcess: Sample[] = [];
    for (let i = 0; i < Math.max(3, Math.ceil(coldRuns / 2)); i++) {
      inProcess.push(await callHook({ home, event: 'UserPromptSubmit', payload: prompt(2000 + i), env: { STRATA_RESIDENT: '0' } }));
    }
    row('UserPromptSubmit, in-process fallback', inProcess, inProcess.filter((s) => s.stdout.includes('relevant-memories')).length);

    printTable(
      `Claude Code hook wall time (${memories} memories, local embedder, Node ${process.versions.node})`,
      ['case', 'runs', 'p50 ms', 'p95 ms', 'max ms', 'hook RSS MB', 'answered'],
      rows,
    );
    process.stdout.write(`\nresident process: ${resident.rss.toFixed(0)} MB RSS, ${resident.peak.toFixed(0)} MB peak\n`);
    process.stdout.write('budget: UserPromptSubmit warm p95 <= 150 ms, cold <= 1.5 s\n');
  } finally {
    await stopResident(home);
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
