/**
 * Real Claude Code with Strata installed per project, the way the README says for a team:
 * `npm install --save-dev strata-memory`, then `npx strata-memory install claude-code --project`.
 * Committed files must work on a teammate's checkout (with the dev dependency, or with only a
 * global install) and hold nothing of this machine; hooks live in `.claude/settings.local.json`.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSIONS } from '../versions.js';
import { createSandbox, isStrataCall, occurrences, type ClaudeSandbox } from './support/sandbox.js';
import { installStrataGlobally, installStrataInProject, type StrataInstall } from './support/strata-package.js';

const run = promisify(execFile);
const MEMORY = 'Project Quokka deploys to the aurora-eu-west-3 Kubernetes cluster.';
const PORTABLE_ENTRY = { type: 'stdio', command: 'npx', args: ['-y', 'strata-memory', 'mcp', '--agent', 'claude-code'] };

let global: StrataInstall;
/** A project with strata-memory as a dev dependency, installed once and copied (hard links) per test. */
let template: string;

beforeAll(async () => {
  global = await installStrataGlobally();
  template = await mkdtemp(join(tmpdir(), 'strata-e2e-project-'));
  await writeFile(join(template, 'package.json'), JSON.stringify({ name: 'quokka', version: '1.0.0', private: true }, null, 2) + '\n');
  await installStrataInProject({ project: template, env: { ...process.env, npm_config_update_notifier: 'false' } });
});

afterAll(async () => {
  await rm(template, { recursive: true, force: true });
});

/** A checkout of the project: the files a team commits, plus node_modules when `withDeps`. */
async function checkout(from: string, to: string, options: { withDeps: boolean; files?: string[] }): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const file of options.files ?? ['package.json', 'package-lock.json', '.mcp.json']) {
    await cp(join(from, file), join(to, file)).catch(() => undefined);
  }
  // `cp -al`: hard links stand in for `npm ci` (same files, seconds instead of a minute).
  if (options.withDeps) await run('cp', ['-al', join(template, 'node_modules'), join(to, 'node_modules')]);
}

/** What the user confirms in Claude Code's trust dialog the first time they open a folder. */
async function trustFolder(sb: ClaudeSandbox, dir: string): Promise<void> {
  const path = join(sb.home, '.claude.json');
  const state = JSON.parse(await readFile(path, 'utf8').catch(() => '{}')) as { projects?: Record<string, Record<string, unknown>> };
  state.projects ??= {};
  state.projects[dir] = { ...state.projects[dir], hasTrustDialogAccepted: true };
  await writeFile(path, JSON.stringify(state, null, 2), { mode: 0o600 });
}

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !path.includes('node_modules')) out[path.slice(dir.length + 1)] = await readFile(path, 'utf8');
  }
  return out;
}

describe.each(CLAUDE_CODE_VERSIONS)('Claude Code $version, Strata installed per project', ({ version, node }) => {
  let sb: ClaudeSandbox;
  let project: string;
  let before: Record<string, string>;
  const npx = (args: string[], cwd = project) => sb.run('npx', args, { cwd });

  beforeAll(async () => {
    sb = await createSandbox({ version, nodeVersion: node, strata: global });
    project = sb.project;
    await checkout(template, project, { withDeps: true });
    before = await tree(project);
  });

  afterAll(async () => {
    await sb?.close();
  });

  it('writes hooks to settings.local.json and a portable .mcp.json; no backups or machine paths in the repository', async () => {
    const out = await npx(['strata-memory', 'install', 'claude-code', '--project', '--allow-read-tools']);
    expect(out.code, out.stderr).toBe(0);
    const mcpText = await readFile(join(project, '.mcp.json'), 'utf8');
    expect(JSON.parse(mcpText)).toEqual({ mcpServers: { strata: PORTABLE_ENTRY } });
    expect(mcpText).not.toContain(sb.root);
    const local = JSON.parse(await readFile(join(project, '.claude', 'settings.local.json'), 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
      enabledMcpjsonServers: string[];
    };
    for (const groups of Object.values(local.hooks)) {
      expect(groups.flatMap((g) => g.hooks.map((h) => h.command))).toEqual([
        expect.stringMatching(/^"\$CLAUDE_PROJECT_DIR"\/node_modules\/\.bin\/strata-memory --home \S+ --agent claude-code hook \w+$/),
      ]);
    }
    expect(local.enabledMcpjsonServers).toEqual(['strata']);
    const files = Object.keys(await tree(project));
    expect(files.filter((f) => !(f in before)).sort()).toEqual(['.claude/settings.local.json', '.mcp.json']);
  });

  it('claude mcp list shows the project server connected, once the folder is trusted', async () => {
    await trustFolder(sb, project);
    const list = await sb.claude(['mcp', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/strata:.*Connected/);
  });

  it('hooks and the portable MCP entry share one identity: the hook-seeded memory reaches the request once and memory_recall finds it', async () => {
    expect((await npx(['strata-memory', '--agent', 'claude-code', 'add', MEMORY])).code).toBe(0);
    const mark = sb.server.requests.length;
    const turn = await sb.claude(['-p', 'Where does Quokka deploy? [tool:mcp__strata__memory_recall {"query":"Quokka deploy cluster"}]']);
    expect(turn.code, turn.stderr).toBe(0);
    // The agent's requests only (with `claude` on PATH, Strata's own claude -p calls share the server).
    const requests = sb.server.requests.slice(mark).filter((r) => !isStrataCall(r));
    expect(requests.map((r) => occurrences(r, 'aurora-eu-west-3') >= 1)).toEqual(requests.map(() => true));
    expect(occurrences(requests[0]!, 'aurora-eu-west-3')).toBe(1);
    const answered = requests.filter((r) => r.lastToolUses.includes('mcp__strata__memory_recall'));
    expect(answered.map((r) => r.toolResults.map((t) => t.text).join('\n'))).toEqual([expect.stringContaining('aurora-eu-west-3')]);
  });

  it("a teammate's checkout with the dev dependency: their install leaves .mcp.json as committed, and it connects", async () => {
    const mate = join(sb.home, 'work', 'mate-with-deps');
    await checkout(project, mate, { withDeps: true });
    const committed = await readFile(join(mate, '.mcp.json'), 'utf8');
    expect((await npx(['strata-memory', 'install', 'claude-code', '--project'], mate)).code).toBe(0);
    expect(await readFile(join(mate, '.mcp.json'), 'utf8')).toBe(committed);
    await trustFolder(sb, mate);
    expect((await sb.claude(['mcp', 'list'], { cwd: mate })).stdout).toMatch(/strata:.*Connected/);
  });

  it("a teammate's checkout with only a global install: the committed entry connects too", async () => {
    const mate = join(sb.home, 'work', 'mate-global');
    await checkout(project, mate, { withDeps: false });
    const committed = await readFile(join(mate, '.mcp.json'), 'utf8');
    const installed = await sb.run('strata-memory', ['install', 'claude-code', '--project'], { cwd: mate });
    expect(installed.code, installed.stderr).toBe(0);
    expect(await readFile(join(mate, '.mcp.json'), 'utf8')).toBe(committed);
    await trustFolder(sb, mate);
    expect((await sb.claude(['mcp', 'list'], { cwd: mate })).stdout).toMatch(/strata:.*Connected/);
  });

  it('uninstall leaves the repository exactly as before', async () => {
    const out = await npx(['strata-memory', 'uninstall', 'claude-code', '--project']);
    expect(out.code, out.stderr).toBe(0);
    expect(await tree(project)).toEqual(before);
  });
});
