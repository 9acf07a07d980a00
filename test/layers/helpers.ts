import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { createLlmClient, type LlmClient } from '../../src/core/llm/index.js';
import { Strata } from '../../src/strata.js';
import { startScriptedLlmServer, type ScriptedLlmServer, type ScriptedReply, type ScriptFunction } from '../support/scripted-llm-server.js';

export interface LayerEnv {
  home: string;
  strata: Strata;
  server: ScriptedLlmServer;
  llm: LlmClient;
  close(): Promise<void>;
}

export async function layerEnv(options: { script?: ScriptedReply[] | ScriptFunction } = {}): Promise<LayerEnv> {
  const home = await mkdtemp(join(tmpdir(), 'strata-layers-'));
  const strata = await Strata.open({ home, overrides: { embedder: { provider: 'none' } } });
  const server = await startScriptedLlmServer({ script: options.script });
  const llm = createLlmClient({ llm: createOpenAIChat({ baseURL: server.baseURL, model: 'scripted' }), maxRetries: 0 });
  return {
    home,
    strata,
    server,
    llm,
    async close() {
      await strata.close();
      await server.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Every entry of a folder, recursively: file bytes, symlink targets, folders. */
export async function treeSnapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(join(dir, rel)).catch(() => [] as string[]);
    for (const name of entries.sort()) {
      const path = join(dir, rel, name);
      const key = join(rel, name);
      const stat = await lstat(path);
      if (stat.isSymbolicLink()) out[key] = `symlink -> ${await readlink(path)}`;
      else if (stat.isDirectory()) {
        out[key + '/'] = 'dir';
        await walk(key);
      } else out[key] = (await readFile(path)).toString('base64');
    }
  }
  await walk('');
  return out;
}

export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}

/** The messages the organiser sent in one recorded request (OpenAI wire format). */
export function messagesOf(server: ScriptedLlmServer, index: number): Array<{ role: string; content: string | null }> {
  return (server.requests[index]?.body?.messages ?? []) as Array<{ role: string; content: string | null }>;
}
