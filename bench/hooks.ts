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
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureNode } from '../test/e2e/support/toolchain.js';
import { NODE_24 } from '../test/e2e/versions.js';
import { buildDist } from './lib/build.js';
import { summarize } from './lib/stats.js';
import { printTable } from './lib/table.js';

const ROOT = resolve(import.meta.dirname, '..');
const FIXTURE = resolve(
  ROOT,
  '../shared/fixtures/transcripts/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
);
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
  /** User + system CPU of the hook process (what the call costs, whatever else the machine does). */
  cpuMs: number;
  rssMb: number;
  stdout: string;
}

/** The Node the hooks run on: Claude Code's own (22/24, pinned for the e2e suites), or `$STRATA_BENCH_NODE`. */
let hookNode = process.execPath;

function callHook(options: { home: string; event: string; payload: unknown; env?: NodeJS.ProcessEnv }): Promise<Sample> {
  const time = existsSync('/usr/bin/time');
  const argv = [hookNode, join(ROOT, 'bin', 'strata.js'), '--home', options.home, '--agent', 'claude-code', 'hook', options.event];
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(time ? '/usr/bin/time' : argv[0]!, time ? ['-f', 'maxrss_kb=%M cpu_s=%U+%S', ...argv] : argv.slice(1), {
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
      const cpu = /cpu_s=([\d.]+)\+([\d.]+)/.exec(stderr);
      resolvePromise({ ms, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, rssMb: kb / 1024, stdout });
    });
    child.stdin.end(JSON.stringify(options.payload));
  });
}

async function residentPid(home: string): Promise<number | undefined> {
  return readFile(join(home, 'run', 'resident.json'), 'utf8').then(
    (t) => (JSON.parse(t) as { pid: number }).pid,
    () => undefined,
  );
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

/** User + system CPU the resident has used so far (/proc, clock ticks of 10 ms). */
async function residentCpuMs(home: string): Promise<number> {
  const pid = await residentPid(home);
  const stat = pid ? await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '') : '';
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function residentRssMb(home: string): Promise<{ rss: number; peak: number }> {
  const pid = await residentPid(home);
  const status = pid ? await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '') : '';
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Waits until the resident has no background work (capture follow-ups, embedding, distillation). */
async function waitIdle(home: string): Promise<void> {
  const { callResident, readResidentInfo } = await import('../src/resident/client.js');
  for (let i = 0; i < 600; i++) {
    const info = await readResidentInfo(home);
    if (!info) return;
    const { result } = await callResident({ home, stamp: info.stamp, op: 'status', deadline: Date.now() + 30_000 });
    if (!(result as { background: boolean }).background) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** ~400 real-sentence memories (the admission sets' keepers) in `agent:claude-code`. */
export async function seed(home: string): Promise<number> {
  const texts: string[] = [];
  for (const file of [
    'admission-set.jsonl',
    'admission-holdout-r1.jsonl',
    'admission-holdout-r2.jsonl',
    'admission-holdout-r3.jsonl',
    'admission-holdout-r4.jsonl',
  ]) {
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
    return results.filter((r) => r.action === 'created').length;
  } finally {
    await strata.close();
  }
}

export async function runHooksBench(options: { cold?: number; warm?: number } = {}): Promise<void> {
  const coldRuns = options.cold ?? Number(process.env.STRATA_BENCH_COLD ?? 8);
  const warmRuns = options.warm ?? Number(process.env.STRATA_BENCH_WARM ?? 40);
  buildDist('the hooks run the built package');

  hookNode = process.env.STRATA_BENCH_NODE || (await ensureNode(NODE_24)).node;
  const nodeVersion = spawnSync(hookNode, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const home = await mkdtemp(join(tmpdir(), 'strata-bench-hooks-'));
  try {
    const memories = await seed(home);
    const projectDir = join(home, 'claude', 'projects', 'bench-project');
    await mkdir(projectDir, { recursive: true });
    // Stop captures a real session (1,500 lines); prompts belong to sessions just begun (a few lines).
    const transcript = join(projectDir, 'bench-session.jsonl');
    await writeFile(transcript, await readFile(FIXTURE)); // not copyFile: the fixture is read-only
    const fresh = join(projectDir, 'fresh-session.jsonl');
    await writeFile(fresh, (await readFile(FIXTURE, 'utf8')).split('\n').slice(0, 12).join('\n') + '\n');
    const payload = (event: string, session: string, extra: Record<string, unknown> = {}) => ({
      session_id: session,
      transcript_path: fresh,
      cwd: '/bench',
      hook_event_name: event,
      ...extra,
    });
    // Every prompt differs (a repeat of the same prompt in the same session within seconds is answered from memory).
    const prompt = (session: string, i: number) =>
      payload('UserPromptSubmit', session, { prompt: `${PROMPTS[i % PROMPTS.length]} (turn ${i})` });
    const rows: Array<Array<string | number>> = [];
    const row = (name: string, samples: Sample[], answered: number) => {
      const wall = summarize(samples.map((s) => s.ms));
      const rss = summarize(samples.map((s) => s.rssMb));
      const cpu = summarize(samples.map((s) => s.cpuMs));
      rows.push([
        name,
        samples.length,
        wall.p50,
        wall.p95,
        Math.max(...samples.map((s) => s.ms)),
        cpu.p50,
        rss.p50,
        `${answered}/${samples.length}`,
      ]);
    };

    const cold: Sample[] = [];
    const residentCpu: number[] = [];
    for (let i = 0; i < coldRuns; i++) {
      await stopResident(home);
      cold.push(await callHook({ home, event: 'UserPromptSubmit', payload: prompt(`cold-${i}`, i) }));
      residentCpu.push(await residentCpuMs(home));
    }
    row('UserPromptSubmit, cold (starts the resident)', cold, cold.filter((s) => s.stdout.includes('relevant-memories')).length);

    // A session as Claude Code runs it: SessionStart, then prompt after prompt. Memories already in
    // the session are not sent again, so later prompts often add nothing ("with context" column).
    for (let k = 0; k < 4; k++)
      await callHook({ home, event: 'SessionStart', payload: payload('SessionStart', `warm-${k}`, { source: 'startup' }) });
    await waitIdle(home);
    const warm: Sample[] = [];
    for (let i = 0; i < warmRuns; i++) warm.push(await callHook({ home, event: 'UserPromptSubmit', payload: prompt(`warm-${i % 4}`, i) }));
    row('UserPromptSubmit, warm', warm, warm.filter((s) => s.stdout.includes('relevant-memories')).length);

    // The resident's share: the same operation over the socket from this process (no hook process).
    const { callResident } = await import('../src/resident/client.js');
    const { residentStamp } = await import('../src/resident/stamp.js');
    const stamp = residentStamp(join(ROOT, 'dist', 'resident', 'main.js')); // the hooks run the build
    const trips: Sample[] = [];
    for (let i = 0; i < warmRuns; i++) {
      const t = performance.now();
      const { result } = await callResident({
        home,
        stamp,
        op: 'claude-code.prompt',
        caller: { agentId: 'claude-code' },
        deadline: Date.now() + 30_000,
        input: {
          event: 'UserPromptSubmit',
          sessionId: `trip-${i % 4}`,
          transcriptPath: fresh,
          prompt: `${PROMPTS[i % PROMPTS.length]} (trip ${i})`,
          distill: true,
        },
      });
      trips.push({ ms: performance.now() - t, cpuMs: NaN, rssMb: NaN, stdout: (result as { stdout?: string }).stdout ?? '' });
    }
    row('UserPromptSubmit, resident round trip only', trips, trips.filter((s) => s.stdout.includes('relevant-memories')).length);

    const starts: Sample[] = [];
    for (let i = 0; i < Math.ceil(warmRuns / 2); i++)
      starts.push(await callHook({ home, event: 'SessionStart', payload: payload('SessionStart', `start-${i}`, { source: 'startup' }) }));
    row('SessionStart, warm', starts, starts.filter((s) => s.stdout.includes('additionalContext')).length);

    // Steady state: the session's history is captured (and embedded) once, then each Stop reads what is new.
    const stop = { ...payload('Stop', 'stop', { stop_hook_active: false }), transcript_path: transcript };
    await callHook({ home, event: 'Stop', payload: stop });
    await waitIdle(home);
    const stops: Sample[] = [];
    for (let i = 0; i < Math.ceil(warmRuns / 2); i++) {
      await appendFile(
        transcript,
        JSON.stringify({
          type: 'user',
          uuid: `bench-${i}`,
          sessionId: 'stop',
          timestamp: new Date().toISOString(),
          message: { role: 'user', content: `${PROMPTS[i % PROMPTS.length]} (turn ${i})` },
        }) + '\n',
      );
      stops.push(await callHook({ home, event: 'Stop', payload: stop }));
    }
    row('Stop (capture of new lines), warm', stops, stops.length);
    const resident = await residentRssMb(home);

    await stopResident(home);
    const inProcess: Sample[] = [];
    for (let i = 0; i < Math.max(3, Math.ceil(coldRuns / 2)); i++) {
      inProcess.push(
        await callHook({ home, event: 'UserPromptSubmit', payload: prompt(`in-process-${i}`, i), env: { STRATA_RESIDENT: '0' } }),
      );
    }
    row('UserPromptSubmit, in-process fallback', inProcess, inProcess.filter((s) => s.stdout.includes('relevant-memories')).length);

    printTable(
      `Claude Code hook wall time (${memories} memories, local embedder, hooks on Node ${nodeVersion})`,
      ['case', 'runs', 'p50 ms', 'p95 ms', 'max ms', 'hook CPU ms p50', 'hook RSS MB', 'with context'],
      rows,
    );
    const startCpu = summarize(residentCpu);
    process.stdout.write(
      `\nresident process: ${resident.rss.toFixed(0)} MB RSS, ${resident.peak.toFixed(0)} MB peak; CPU from start to the cold answer p50 ${startCpu.p50.toFixed(0)} ms, p95 ${startCpu.p95.toFixed(0)} ms\n`,
    );
    process.stdout.write('budget: UserPromptSubmit warm p95 <= 150 ms, cold <= 1.5 s\n');
  } finally {
    await stopResident(home);
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
