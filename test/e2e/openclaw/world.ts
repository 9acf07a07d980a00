/**
 * One user's machine for the OpenClaw suite: a temp HOME (so `~/.openclaw` and `~/.strata` are
 * private to the test), PATH with the pinned Node, OpenClaw and the globally installed Strata, an
 * `openclaw.json` pointing the default agent at the scripted model server, and helpers to run the
 * real `openclaw` and `strata` programs and a real gateway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { lstat, mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstalledPackage } from '../support/toolchain.js';
import { pathWith } from '../support/toolchain.js';
import type { InstalledStrata } from '../support/strata-package.js';
import type { ModelServer } from '../support/model-server.js';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the command. */
  ms: number;
  /** Peak resident set of the process in KiB (from /usr/bin/time), when measured. */
  maxRssKb?: number;
}

export interface World {
  home: string;
  configPath: string;
  env: NodeJS.ProcessEnv;
  openclaw(args: string[], options?: { timeoutMs?: number; measure?: boolean }): Promise<RunResult>;
  strata(args: string[], options?: { timeoutMs?: number }): Promise<RunResult>;
  readConfig(): Promise<Record<string, unknown>>;
  startGateway(): Promise<Gateway>;
  close(): Promise<void>;
}

export interface Gateway {
  port: number;
  /** Everything the gateway printed so far. */
  output(): string;
  /** Peak resident set of the gateway process so far, in KiB (VmHWM). */
  peakRssKb(): Promise<number | undefined>;
  stop(): Promise<void>;
}

const TIME = '/usr/bin/time';

async function sizeOf(path: string): Promise<number> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  const names = await readdir(path).catch(() => [] as string[]);
  let total = 0;
  for (const name of names) total += await sizeOf(join(path, name));
  return total;
}

/**
 * Samples the size of `dir` until stopped and returns the largest seen, in MB. OpenClaw 2026.9.6
 * copies plugins under `<state>/tmp/plugin-captures` and deletes the copies at exit, so only
 * sampling during the command shows how much it copied.
 */
export function watchDirSize(dir: string): { stop(): Promise<number> } {
  let max = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      max = Math.max(max, await sizeOf(dir));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return max / 1e6;
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function runProgram(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs?: number; measure?: boolean },
): Promise<RunResult> {
  const started = Date.now();
  const argv = options.measure ? ['-f', '__MAXRSS_KB=%M', command, ...args] : args;
  const child = spawn(options.measure ? TIME : command, argv, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 5 * 60_000);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      const rss = /__MAXRSS_KB=(\d+)/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/__MAXRSS_KB=\d+\n?/, ''),
        ms: Date.now() - started,
        ...(rss ? { maxRssKb: Number(rss[1]) } : {}),
      });
    });
  });
}

export async function createWorld(options: {
  openclaw: InstalledPackage;
  strata: InstalledStrata;
  model: ModelServer;
  modelId?: string;
}): Promise<World> {
  const home = await mkdtemp(join(tmpdir(), `strata-e2e-openclaw-${options.openclaw.version}-`));
  const stateDir = join(home, '.openclaw');
  const configPath = join(stateDir, 'openclaw.json');
  await mkdir(stateDir, { recursive: true });
  const modelId = options.modelId ?? 'scripted-model';
  // Moved (and rewritten in the config) when a gateway start finds it taken: a port picked here can be
  // bound by another process (a `serve --port 0`, say) before the gateway listens on it.
  let gatewayPort = await freePort();
  const config = {
    models: {
      mode: 'merge',
      providers: {
        scripted: {
          baseUrl: options.model.baseURL,
          apiKey: 'sk-e2e-not-a-secret',
          api: 'openai-completions',
          models: [{ id: modelId, name: 'Scripted', reasoning: false, input: ['text'], contextWindow: 128_000, maxTokens: 4096 }],
        },
      },
    },
    agents: { defaults: { model: { primary: `scripted/${modelId}` } } },
    gateway: { mode: 'local', port: gatewayPort, bind: 'loopback', auth: { mode: 'token', token: 'e2e-gateway-token' } },
  };
  await writeFile(configPath, JSON.stringify(config, null, 2) + '\n');
  // A user's environment, not the test runner's: vitest's VITEST/NODE_ENV=test make OpenClaw act as under test.
  const kept = ['LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'USER', 'LOGNAME', 'SHELL', 'TZ', 'LANCEDB_LOG'];
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(kept.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
    HOME: home,
    PATH: [options.strata.binDir, options.openclaw.binDir, pathWith(options.openclaw.node)].join(':'),
    LANCEDB_LOG: 'error',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    OPENCLAW_GATEWAY_TOKEN: 'e2e-gateway-token',
  };
  const openclawBin = join(options.openclaw.binDir, 'openclaw');
  const strataBin = join(options.strata.binDir, 'strata');
  const gateways = new Set<Gateway>();
  async function movePort(): Promise<void> {
    gatewayPort = await freePort();
    const current = JSON.parse(await readFile(configPath, 'utf8')) as { gateway?: Record<string, unknown> };
    current.gateway = { ...current.gateway, port: gatewayPort };
    await writeFile(configPath, JSON.stringify(current, null, 2) + '\n');
  }
  async function startGatewayOnce(fresh: boolean): Promise<Gateway> {
    if (fresh) await movePort();
    const child: ChildProcess = spawn(openclawBin, ['gateway', 'run', '--port', String(gatewayPort), '--bind', 'loopback', '--verbose'], {
      env,
      cwd: home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Ready when it says so (or, for builds that print no such line, when the health RPC answers).
    // Generous: on a loaded 2-core CI machine a gateway start takes minutes.
    const deadline = Date.now() + 360_000;
    let nextHealth = Date.now() + 30_000;
    while (!/\[gateway\] ready/.test(output)) {
      if (child.exitCode !== null) throw new Error(`openclaw gateway exited with ${child.exitCode}:\n${output.slice(-4000)}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`openclaw gateway did not become ready:\n${output.slice(-4000)}`);
      }
      if (Date.now() > nextHealth) {
        const health = await runProgram(openclawBin, ['gateway', 'health', '--json'], { env, cwd: home, timeoutMs: 120_000 });
        if (health.code === 0) break;
        nextHealth = Date.now() + 30_000;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    const gateway: Gateway = {
      port: gatewayPort,
      output: () => output,
      async peakRssKb() {
        const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
        const m = /VmHWM:\s+(\d+) kB/.exec(status);
        return m ? Number(m[1]) : undefined;
      },
      async stop() {
        gateways.delete(gateway);
        if (child.exitCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      },
    };
    gateways.add(gateway);
    return gateway;
  }

  return {
    home,
    configPath,
    env,
    openclaw: (args, o = {}) => runProgram(openclawBin, args, { env, cwd: home, ...o }),
    strata: (args, o = {}) => runProgram(strataBin, args, { env, cwd: home, ...o }),
    readConfig: async () => JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>,
    async startGateway() {
      // OpenClaw >= 2026.9.6 gives its state-lease heartbeat worker a fixed 5 s to come up and exits
      // when a starved CPU misses that; it is the host's own startup under load, not Strata: start again.
      let portTaken = false;
      for (let attempt = 1; ; attempt++) {
        try {
          return await startGatewayOnce(portTaken);
        } catch (error) {
          // Or another process bound the free port between its choice and the gateway's listen.
          portTaken = /EADDRINUSE/.test(String(error));
          const retriable = portTaken || /state lease heartbeat did not become ready/.test(String(error));
          if (attempt >= 3 || !retriable) throw error;
          const why = portTaken ? 'its port was taken' : "it missed OpenClaw's lease-heartbeat startup timeout";
          process.stderr.write(`openclaw gateway start ${attempt}: ${why}; starting again\n`);
        }
      }
    },
    async close() {
      await Promise.all([...gateways].map((g) => g.stop()));
      await rm(home, { recursive: true, force: true });
    },
  };
}
