/**
 * One way to call an operation per host, each through the host's real protocol: MCP (the SDK
 * client over an in-process transport), HTTP (real requests on loopback), OpenClaw (the tool
 * factories the plugin registers) and the CLI (a real child process with --json). Every driver
 * answers `{ ok, value }` or `{ ok: false, code }`, so the tests can compare hosts.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OPERATIONS, type OpName } from '../../src/core/ops/index.js';
import { resolveCaller } from '../../src/core/caller.js';
import { createMcpServer } from '../../src/hosts/mcp/server.js';
import { startHttpServer } from '../../src/hosts/http/server.js';
import type { ListeningServer } from '../../src/hosts/shared/listen.js';
import { createToolFactories } from '../../src/hosts/openclaw/tools.js';
import { strataOps } from '../../src/hosts/openclaw/backend.js';
import type { Strata } from '../../src/strata.js';
import { runCli } from '../support/run-cli.js';

export type Outcome = { ok: true; value: unknown } | { ok: false; code: string };
export type Input = Record<string, unknown>;

/** A caller as an operator starts a host: `--agent`, `--scope` (no agent when both are absent). */
export interface CallerSpec {
  label: string;
  agent?: string;
  scopes?: string[];
}

export interface Driver {
  host: 'mcp' | 'http' | 'openclaw' | 'cli';
  supports(op: OpName, input: Input): boolean;
  call(op: OpName, input: Input): Promise<Outcome>;
  /** The input schema a model-facing host shows for an operation (JSON schema), if it has one. */
  advertised?(op: OpName): Promise<Json>;
  close(): Promise<void>;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const codeIn = (text: string) => /error \[([A-Z_]+)\]/.exec(text)?.[1] ?? `UNPARSED: ${text.slice(0, 200)}`;

export async function mcpDriver(strata: Strata, spec: CallerSpec): Promise<Driver> {
  const ops = strata.as(resolveCaller({ config: strata.config, agentId: spec.agent, scopes: spec.scopes }), { actor: 'mcp' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer({ ops });
  await server.connect(serverSide);
  const client = new Client({ name: 'cross-host', version: '0' });
  await client.connect(clientSide);
  return {
    host: 'mcp',
    supports: (op) => OPERATIONS[op].tool !== undefined,
    async call(op, input) {
      const result = (await client.callTool({ name: OPERATIONS[op].tool!.name, arguments: input })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      if (result.isError) return { ok: false, code: codeIn(text) };
      return { ok: true, value: text.startsWith('{') ? (JSON.parse(text) as unknown) : text };
    },
    async advertised(op) {
      const { tools } = await client.listTools();
      return tools.find((t) => t.name === OPERATIONS[op].tool!.name)!.inputSchema as Json;
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The REST route of each operation (the API's paths and shapes, unchanged since v1). */
function route(op: OpName, input: Input): { method: string; path: string; body?: unknown } | undefined {
  const { id, ...rest } = input as { id?: string } & Input;
  const query = (o: Input) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) for (const x of [v].flat()) q.append(k, String(x));
    return q.size ? `?${q}` : '';
  };
  switch (op) {
    case 'recall':
    case 'explain': {
      const { scope, ...body } = rest;
      return {
        method: 'POST',
        path: '/recall',
        body: { ...body, ...(scope ? { scopes: [scope].flat() } : {}), ...(op === 'explain' ? { explain: true } : {}) },
      };
    }
    case 'remember':
      return { method: 'POST', path: '/memories', body: rest };
    case 'update':
      return { method: 'PATCH', path: `/memories/${id}`, body: rest };
    case 'forget':
      return input.ids && (input.ids as string[]).length === 1
        ? { method: 'DELETE', path: `/memories/${(input.ids as string[])[0]}` }
        : undefined;
    case 'list':
      return { method: 'GET', path: `/memories${query(rest)}` };
    case 'get':
      return { method: 'GET', path: `/memories/${id}` };
    case 'history':
      return { method: 'GET', path: `/memories/${id}/history` };
    case 'revert':
      return { method: 'POST', path: `/memories/${id}/revert`, body: {} };
    case 'provenance':
      return { method: 'GET', path: `/memories/${id}/provenance` };
    case 'stats':
      return { method: 'GET', path: '/stats' };
    case 'conversations':
      return { method: 'POST', path: '/conversations/search', body: rest };
    case 'context':
      return { method: 'GET', path: `/context${query(rest)}` };
    case 'export':
      return { method: 'GET', path: '/export' };
    default:
      return undefined;
  }
}

export async function httpDriver(strata: Strata, spec: CallerSpec): Promise<Driver> {
  const caller = resolveCaller({ config: strata.config, agentId: spec.agent, scopes: spec.scopes });
  const server: ListeningServer = await startHttpServer({ strata, caller, host: '127.0.0.1', port: 0 });
  return {
    host: 'http',
    supports: (op, input) => route(op, input) !== undefined,
    async call(op, input) {
      const r = route(op, input)!;
      const headers: Record<string, string> = r.body === undefined ? { 'x-strata-request': '1' } : { 'content-type': 'application/json' };
      const res = await fetch(`${server.url}/api/v1${r.path}`, {
        method: r.method,
        headers,
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
      });
      const text = await res.text();
      if (!res.ok) return { ok: false, code: (JSON.parse(text) as { error: { code: string } }).error.code };
      if (op === 'export')
        return {
          ok: true,
          value: text.trim()
            ? text
                .trim()
                .split('\n')
                .map((l) => JSON.parse(l) as unknown)
            : [],
        };
      return { ok: true, value: JSON.parse(text) as unknown };
    },
    close: () => server.close(),
  };
}

export async function openClawDriver(strata: Strata, spec: CallerSpec): Promise<Driver> {
  const factories = new Map(
    createToolFactories({ ops: async (agentId) => strataOps(strata, agentId), defaultAgent: 'main' }).map((f) => [f.name, f.factory]),
  );
  return {
    host: 'openclaw',
    supports: (op) => OPERATIONS[op].tool !== undefined && factories.has(OPERATIONS[op].tool!.name),
    async call(op, input) {
      const tool = factories.get(OPERATIONS[op].tool!.name)!({ agentId: spec.agent })!;
      const out = await tool.execute('call-1', input);
      const details = out.details as { error?: { code: string } };
      return details?.error ? { ok: false, code: details.error.code } : { ok: true, value: details };
    },
    advertised: async (op) => factories.get(OPERATIONS[op].tool!.name)!({ agentId: spec.agent })!.parameters as Json,
    async close() {},
  };
}

/** The command line of each operation (`strata <command> ... --json`). */
function argv(op: OpName, input: Input): string[] | undefined {
  const i = input as Json;
  const flag = (name: string, value: unknown) => (value === undefined ? [] : [name, String(value)]);
  switch (op) {
    case 'recall':
      return i.scope ? undefined : ['recall', i.query, ...flag('--limit', i.limit)];
    case 'explain':
      return i.scope ? undefined : ['recall', i.query, '--explain', ...flag('--limit', i.limit)];
    case 'remember':
      return ['add', i.text, ...flag('--category', i.category)];
    case 'update':
      return ['update', i.id, ...flag('--importance', i.importance), ...flag('--text', i.text), ...flag('--move-to', i.scope)];
    case 'forget':
      return i.ids ? ['forget', ...i.ids] : i.confirm ? ['forget', '--query', i.query, '--yes'] : undefined;
    case 'list':
      return Object.keys(input).length === 0 ? ['list'] : undefined;
    case 'get':
    case 'history':
    case 'revert':
    case 'provenance':
      return [op, i.id];
    case 'stats':
      return ['stats'];
    case 'conversations':
      return ['conversations', 'search', i.query, ...flag('--limit', i.limit)];
    case 'context':
      return ['context', ...flag('--query', i.query)];
    case 'export':
      return ['export'];
    default:
      return undefined;
  }
}

export function cliDriver(home: string, spec: CallerSpec): Driver {
  const who = [...(spec.agent ? ['--agent', spec.agent] : []), ...(spec.scopes ?? []).flatMap((s) => ['--scope', s])];
  return {
    host: 'cli',
    supports: (op, input) => argv(op, input) !== undefined,
    async call(op, input) {
      const out = await runCli(['--home', home, ...who, '--json', ...argv(op, input)!], {
        env: { STRATA_AGENT_ID: '', STRATA_DEFAULT_AGENT: '' },
      });
      if (out.code !== 0) return { ok: false, code: codeIn(out.stderr) };
      if (op === 'export')
        return {
          ok: true,
          value: out.stdout.trim()
            ? out.stdout
                .trim()
                .split('\n')
                .map((l) => JSON.parse(l) as unknown)
            : [],
        };
      return { ok: true, value: JSON.parse(out.stdout) as unknown };
    },
    async close() {},
  };
}
