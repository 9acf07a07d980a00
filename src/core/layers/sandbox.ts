/**
 * The organiser's tools. The model may only touch regular `*.md` files directly inside one scenes
 * folder: every name is checked as a plain file name (no separators, no `..`, not absolute, not
 * hidden, `.md` only), symlinks are refused and never followed, and writes are size-capped. The
 * index, checkpoint, backups and persona are hidden files or live elsewhere, so no tool can name
 * them. A refused call comes back to the model as a tool error, never as an exception.
 */
import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { LlmToolCall, LlmToolDefinition } from '../../spec/llm.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { DELETED_MARKER, parseScene, serializeScene, type SceneDoc } from './scene-file.js';
import { scanScenes } from './scene-index.js';

export const DEFAULT_MAX_SCENE_BYTES = 64 * 1024;

const fileParam = { type: 'string', description: 'Scene file name, e.g. "work-projects.md" (a plain name, no folders).' };

export const SCENE_TOOLS: LlmToolDefinition[] = [
  { name: 'list_scenes', description: 'List the scene files with summary, heat and last update.', parameters: { type: 'object', properties: {}, additionalProperties: false } },
  { name: 'read_scene', description: 'Read one scene file (header and body).', parameters: { type: 'object', properties: { file: fileParam }, required: ['file'], additionalProperties: false } },
  {
    name: 'write_scene',
    description: `Create or replace a scene. content is the Markdown body (no header); summary is one line. To delete a scene, write content "${DELETED_MARKER}".`,
    parameters: {
      type: 'object',
      properties: { file: fileParam, summary: { type: 'string' }, content: { type: 'string' } },
      required: ['file', 'content'],
      additionalProperties: false,
    },
  },
  {
    name: 'edit_scene',
    description: 'Replace exactly one occurrence of old_text in a scene body with new_text; optionally set a new summary.',
    parameters: {
      type: 'object',
      properties: { file: fileParam, old_text: { type: 'string' }, new_text: { type: 'string' }, summary: { type: 'string' } },
      required: ['file', 'old_text', 'new_text'],
      additionalProperties: false,
    },
  },
];

export interface ToolOutcome {
  content: string;
  isError: boolean;
}

export interface SceneSandbox {
  execute(call: LlmToolCall): Promise<ToolOutcome>;
  /** Calls refused by the sandbox (bad names, symlinks, oversized writes), for the run report. */
  readonly refused: number;
}

class Refused extends Error {}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.length === 0) throw new Refused('file must be a non-empty file name such as "topic.md".');
  if (name.length > 128) throw new Refused('file name too long (at most 128 characters).');
  if (isAbsolute(name) || /^[A-Za-z]:/.test(name)) throw new Refused(`absolute paths are not allowed: use a plain file name such as "topic.md".`);
  if (name.includes('/') || name.includes('\\') || name.includes('..')) throw new Refused('only files directly inside the scenes folder are allowed: no folders, no "..".');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name)) throw new Refused('control characters are not allowed in file names.');
  if (name.startsWith('.')) throw new Refused('hidden files are not accessible.');
  if (!name.endsWith('.md')) throw new Refused('only .md scene files are accessible.');
  return name;
}

function str(value: unknown, field: string, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') throw new Refused(`${field} must be a string.`);
  return value;
}

export function createSceneSandbox(options: { scenesDir: string; maxFileBytes?: number; now?: () => Date }): SceneSandbox {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_SCENE_BYTES;
  const now = options.now ?? (() => new Date());
  const touched = new Set<string>();
  let refused = 0;

  /** Resolves a checked name; refuses anything that exists but is not a regular file. */
  async function resolve(name: unknown): Promise<{ path: string; exists: boolean }> {
    const path = join(options.scenesDir, checkName(name));
    const stat = await lstat(path).catch(() => undefined);
    if (stat && !stat.isFile()) throw new Refused(stat.isSymbolicLink() ? 'symbolic links are not accessible.' : 'not a regular file.');
    return { path, exists: stat !== undefined };
  }

  async function readNoFollow(path: string): Promise<string> {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  async function store(path: string, name: string, doc: SceneDoc): Promise<string> {
    const data = serializeScene(doc);
    if (Buffer.byteLength(data) > maxBytes) throw new Refused(`scene too large (${Buffer.byteLength(data)} bytes; limit ${maxBytes}): split it or summarise.`);
    await writeFileAtomic({ path, data });
    touched.add(name);
    return `ok: ${name} (${Buffer.byteLength(data)} bytes)`;
  }

  /** Heat rises once per run for every scene the run touches. */
  function nextDoc(previous: SceneDoc | undefined, name: string, summary: string | undefined, body: string): SceneDoc {
    const at = now().toISOString();
    const heat = (previous?.heat ?? 0) + (touched.has(name) ? 0 : 1);
    return { summary: (summary ?? previous?.summary ?? '').replace(/\s+/g, ' ').trim(), heat, created: previous?.created || at, updated: at, body };
  }

  async function run(call: LlmToolCall): Promise<string> {
    const args = call.arguments;
    switch (call.name) {
      case 'list_scenes': {
        const scenes = await scanScenes(options.scenesDir);
        if (scenes.length === 0) return '(no scenes yet)';
        return scenes.map((s) => `${s.filename} | heat ${s.heat} | updated ${s.updated} | ${s.summary}`).join('\n');
      }
      case 'read_scene': {
        const { path, exists } = await resolve(args.file);
        if (!exists) throw new Refused(`no such scene: ${String(args.file)}.`);
        return readNoFollow(path);
      }
      case 'write_scene': {
        const content = str(args.content, 'content', true)!;
        const summary = str(args.summary, 'summary', false);
        // Checked before anything else so a huge payload is never parsed or written.
        if (Buffer.byteLength(content) > maxBytes) throw new Refused(`content too large (${Buffer.byteLength(content)} bytes; limit ${maxBytes}).`);
        const { path, exists } = await resolve(args.file);
        const name = args.file as string;
        if (content.trim() === DELETED_MARKER) {
          if (!exists) throw new Refused(`no such scene to delete: ${name}.`);
          await writeFileAtomic({ path, data: DELETED_MARKER + '\n' });
          touched.add(name);
          return `ok: ${name} marked deleted`;
        }
        if (content.trim() === '') throw new Refused(`content is empty: to delete a scene write "${DELETED_MARKER}".`);
        const previous = exists ? parseScene(await readNoFollow(path)) : undefined;
        if (!previous && !summary?.trim()) throw new Refused('a new scene needs a one-line summary.');
        return store(path, name, nextDoc(previous, name, summary, content.trim() + '\n'));
      }
      case 'edit_scene': {
        const oldText = str(args.old_text, 'old_text', true)!;
        const newText = str(args.new_text, 'new_text', true)!;
        const summary = str(args.summary, 'summary', false);
        if (Buffer.byteLength(newText) > maxBytes) throw new Refused(`new_text too large (limit ${maxBytes} bytes).`);
        const { path, exists } = await resolve(args.file);
        if (!exists) throw new Refused(`no such scene: ${String(args.file)}; create it with write_scene.`);
        const previous = parseScene(await readNoFollow(path));
        if (oldText === '') throw new Refused('old_text must not be empty.');
        const count = previous.body.split(oldText).length - 1;
        if (count !== 1) throw new Refused(`old_text occurs ${count} times in the body; it must occur exactly once (include more context).`);
        const name = args.file as string;
        return store(path, name, nextDoc(previous, name, summary, previous.body.replace(oldText, () => newText)));
      }
      default:
        throw new Refused(`unknown tool ${JSON.stringify(call.name)}; use list_scenes, read_scene, write_scene or edit_scene.`);
    }
  }

  return {
    async execute(call) {
      try {
        return { content: await run(call), isError: false };
      } catch (error) {
        if (error instanceof Refused) {
          refused++;
          return { content: `refused: ${error.message}`, isError: true };
        }
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
          refused++;
          return { content: 'refused: symbolic links are not accessible.', isError: true };
        }
        throw error;
      }
    },
    get refused() {
      return refused;
    },
  };
}
