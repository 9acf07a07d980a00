#!/usr/bin/env node
/**
 * Runs every CLI command of the README, the way a newcomer would, against a temp home with the
 * built CLI (`npm run build` first; `npm run test:readme` does both). Fails on any non-zero exit
 * or any stack trace.
 *
 * Convention: in ```sh blocks, each line starting with `npx strata ` or `strata ` (not
 * `strata-memory`, not `npx strata-memory`) is a command; `a && b` are two commands; a trailing
 * `# comment` is dropped. `<id>` becomes the id of the last memory added, `<token-id>` the last
 * token created, `<key>` a recorded session. Commands that cannot run here are listed with the reason (SKIP below) and not run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin/strata.js');

/** [pattern, reason]: commands a walkthrough on a fresh machine cannot run. */
const SKIP = [
  [/^strata (watch|mcp|serve)\b/, 'a long-running server or watcher (runs until Ctrl-C); covered by the host and capture tests'],
  [/^strata install\b|^strata uninstall\b/, "edits a host's configuration (Claude Code, OpenClaw); covered by the e2e suites"],
  [
    /^strata (organize|summarize)\b|^strata journal (flush|compile)\b/,
    'needs an LLM (none on this machine); covered by the scripted-LLM tests',
  ],
  [/\[.*\]/, 'shows optional arguments in brackets (usage syntax, not a command)'],
];

function extractCommands(markdown) {
  const commands = [];
  const blocks = markdown.matchAll(/```sh\n([\s\S]*?)```/g);
  for (const [, body] of blocks) {
    for (const raw of body.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      if (!/^(npx )?strata /.test(line)) continue;
      for (const part of line.split(/\s+&&\s+/)) commands.push(part.trim().replace(/^npx /, ''));
    }
  }
  return commands;
}

/** Splits a command line into argv, honouring single and double quotes. */
function argv(command) {
  const out = [];
  for (const m of command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

const markdown = readFileSync(join(ROOT, 'README.md'), 'utf8');
const commands = extractCommands(markdown);
const work = mkdtempSync(join(tmpdir(), 'strata-readme-'));
const home = join(work, 'home');
// A user's HOME too, so `ingest` reads this walkthrough's (empty) host folders, never the machine's.
const env = { ...process.env, HOME: work, STRATA_HOME: home, LANCEDB_LOG: 'error', STRATA_RESIDENT: '0' };
for (const k of ['STRATA_AGENT_ID', 'STRATA_DEFAULT_AGENT', 'STRATA_LLM_PROVIDER']) delete env[k];
mkdirSync(join(work, 'my-agent-logs'), { recursive: true });
writeFileSync(
  join(work, 'my-agent-logs', 'session.jsonl'),
  [
    {
      role: 'user',
      content: 'Remember that the staging database runs on port 5433.',
      timestamp: '2026-01-05T10:00:00Z',
      sessionId: 'readme-1',
    },
    { role: 'assistant', content: 'Noted: staging database on port 5433.', timestamp: '2026-01-05T10:00:05Z', sessionId: 'readme-1' },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n') + '\n',
);

// The README imports a mem0 export: a hand-written one in mem0's get_all format.
const mem0 = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/migrate/mem0-get-all.json'), 'utf8'));
writeFileSync(join(work, 'mem0-export.json'), JSON.stringify({ results: mem0.results.filter((r) => r.memory) }));

let lastId;
let sessionKey;
const failures = [];
const skipped = [];
let ran = 0;
let tokenId;
for (const command of commands) {
  const skip = SKIP.find(([re]) => re.test(command));
  if (skip) {
    skipped.push([command, skip[1]]);
    continue;
  }
  if (command.includes('<id>') && !lastId) {
    skipped.push([command, 'no memory id yet']);
    continue;
  }
  if (command.includes('<token-id>') && !tokenId) {
    skipped.push([command, 'no token created yet']);
    continue;
  }
  const concrete = command
    .replaceAll('<id>', lastId ?? '')
    .replaceAll('<token-id>', tokenId ?? '')
    .replaceAll('<key>', sessionKey ?? 'none');
  const args = argv(concrete).slice(1);
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: work, env, encoding: 'utf8', timeout: 180_000, input: '' });
  ran++;
  const output = `${r.stdout}\n${r.stderr}`;
  const stack = /\n\s+at .+\(.+:\d+:\d+\)|node:internal|Unhandled|TypeError:|ReferenceError:/.test(output);
  const ok = r.status === 0 && !stack;
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'}  strata ${args.join(' ')}\n`);
  if (!ok)
    failures.push({ command: concrete, status: r.status, signal: r.signal, output: output.trim().split('\n').slice(0, 15).join('\n') });
  // `<id>` is a memory the default caller sees (one added without --agent or --scope).
  const added = /\badded (\w{26}) to global\b/.exec(r.stdout);
  if (added) lastId = added[1];
  // `<token-id>` is the last token `strata tokens create` made.
  const token = /^token (\w+) for /m.exec(output);
  if (token) tokenId = token[1];
  if (/^strata sessions\b/.test(concrete)) sessionKey = /(\S+)\s*$/m.exec(r.stdout.trim().split('\n').at(-1) ?? '')?.[1];
}

process.stdout.write(`\n${ran} README commands run, ${failures.length} failed, ${skipped.length} skipped:\n`);
for (const [command, reason] of skipped) process.stdout.write(`  skipped  ${command}\n           (${reason})\n`);
for (const f of failures)
  process.stdout.write(`\nFAILED: ${f.command} (exit ${f.status}${f.signal ? `, ${f.signal}` : ''})\n${f.output}\n`);
rmSync(work, { recursive: true, force: true });
process.exit(failures.length > 0 || ran === 0 ? 1 : 0);
