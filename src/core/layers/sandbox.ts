/**
 * The organiser's tools. The model may only touch regular `*.md` files directly inside one scenes
 * folder: every name is checked as a plain file name (no separators, no `..`, not absolute, not
 * hidden, `.md` only), symlinks are refused and never followed, and writes are size-capped. The
 * index, checkpoint, backups and persona are hidden files or live elsewhere, so no tool can name
 * them. A refused call comes back to the model as a tool error, never as an exception.
 *
 * Bounds (one model run can ask for anything): scene count, files written per run, bytes per file
 * and per run. Every read and write checks the file itself (no symlink, no hard link, no FIFO or
 * device) and the folder (a real directory). Names are limited in bytes, not characters. Any
 * failing call — refused or an I/O error — fails that call only; the run goes on.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { LlmToolCall, LlmToolDefinition } from '../../spec/llm.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { DELETED_MARKER, parseScene, serializeScene, type SceneDoc } from './scene-file.js';
import { listSceneFiles, scanScenes } from './scene-index.js';
import { assertRealDirectories, assertWritableTarget, nameBytes, readRegularFile, UnsafePathError } from './safe-fs.js';
import { redactText } from '../write/redact-record.js';

export const DEFAULT_MAX_SCENE_BYTES = 64 * 1024;
/** Scene file names, in UTF-8 bytes: leaves room for the atomic writer's temp suffix within 255. */
export const MAX_NAME_BYTES = 128;

const fileParam = { type: 'string', description: 'Scene file name, e.g. "work-projects.md" (a plain name, no folders).' };

export const SCENE_TOOLS: LlmToolDefinition[] = [
  {
    name: 'list_scenes',
    description: 'List the scene files with summary, heat and last update.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'read_scene',
    description: 'Read one scene file (header and body).',
    parameters: { type: 'object', properties: { file: fileParam }, required: ['file'], additionalProperties: false },
  },
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
  if (nameBytes(name) > MAX_NAME_BYTES)
    throw new Refused(`file name too long (${nameBytes(name)} bytes in UTF-8; at most ${MAX_NAME_BYTES}).`);
  if (isAbsolute(name) || /^[A-Za-z]:/.test(name))
    throw new Refused(`absolute paths are not allowed: use a plain file name such as "topic.md".`);
  if (name.includes('/') || name.includes('\\') || name.includes('..'))
    throw new Refused('only files directly inside the scenes folder are allowed: no folders, no "..".');
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

export interface SceneSandboxOptions {
  scenesDir: string;
  /** Largest scene file. Default 64 KB. */
  maxFileBytes?: number;
  /** Scene files the folder may hold. Default 15. */
  maxScenes?: number;
  /** Files written (created, replaced, deleted) per run. Default 3 x maxScenes. */
  maxWritesPerRun?: number;
  /** Bytes written per run. Default maxScenes x maxFileBytes. */
  maxBytesPerRun?: number;
  now?: () => Date;
}

export function createSceneSandbox(options: SceneSandboxOptions): SceneSandbox {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_SCENE_BYTES;
  const maxScenes = options.maxScenes ?? 15;
  const maxWrites = options.maxWritesPerRun ?? 3 * maxScenes;
  const maxRunBytes = options.maxBytesPerRun ?? maxScenes * maxBytes;
  const now = options.now ?? (() => new Date());
  const touched = new Set<string>();
  let refused = 0;
  let writes = 0;
  let bytesWritten = 0;
  // The scenes folder and its parent must be real directories: a symlinked agent folder is never written through.
  const folders = [dirname(options.scenesDir), options.scenesDir];

  /** Resolves a checked name; refuses anything that exists but is not a regular, singly linked file. */
  async function resolve(name: unknown): Promise<{ path: string; exists: boolean }> {
    const path = join(options.scenesDir, checkName(name));
    await assertRealDirectories(folders);
    return { path, ...(await assertWritableTarget(path)) };
  }

  async function readScene(path: string): Promise<string> {
    const text = await readRegularFile(path, { maxBytes });
    if (text === undefined) throw new Refused('no such scene.');
    return text;
  }

  /** Every write passes here: run budgets first, then the scene count for a new file. */
  async function write(path: string, name: string, data: string, exists: boolean): Promise<number> {
    const size = Buffer.byteLength(data);
    if (writes >= maxWrites) throw new Refused(`write limit reached (${maxWrites} files per run): finish with what is written.`);
    if (bytesWritten + size > maxRunBytes)
      throw new Refused(`byte limit reached (${maxRunBytes} bytes per run): finish with what is written.`);
    if (!exists && (await listSceneFiles(options.scenesDir)).length >= maxScenes) {
      throw new Refused(`scene limit reached (${maxScenes} scenes): merge into an existing scene or delete one first.`);
    }
    await assertRealDirectories(folders);
    await writeFileAtomic({ path, data });
    writes++;
    bytesWritten += size;
    return size;
  }

  async function store(path: string, name: string, doc: SceneDoc, exists: boolean): Promise<string> {
    // What the model writes is stored text like any other: secrets it echoes are redacted.
    const data = redactText(serializeScene(doc));
    if (Buffer.byteLength(data) > maxBytes)
      throw new Refused(`scene too large (${Buffer.byteLength(data)} bytes; limit ${maxBytes}): split it or summarise.`);
    const size = await write(path, name, data, exists);
    touched.add(name);
    return `ok: ${name} (${size} bytes)`;
  }

  /** Heat rises once per run for every scene the run touches. */
  function nextDoc(previous: SceneDoc | undefined, name: string, summary: string | undefined, body: string): SceneDoc {
    const at = now().toISOString();
    const heat = (previous?.heat ?? 0) + (touched.has(name) ? 0 : 1);
    return {
      summary: (summary ?? previous?.summary ?? '').replace(/\s+/g, ' ').trim(),
      heat,
      created: previous?.created || at,
      updated: at,
      body,
    };
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
        return readScene(path);
      }
      case 'write_scene': {
        const content = str(args.content, 'content', true)!;
        const summary = str(args.summary, 'summary', false);
        // Checked before anything else so a huge payload is never parsed or written.
        if (Buffer.byteLength(content) > maxBytes)
          throw new Refused(`content too large (${Buffer.byteLength(content)} bytes; limit ${maxBytes}).`);
        const { path, exists } = await resolve(args.file);
        const name = args.file as string;
        if (content.trim() === DELETED_MARKER) {
          if (!exists) throw new Refused(`no such scene to delete: ${name}.`);
          await write(path, name, DELETED_MARKER + '\n', true);
          touched.add(name);
          return `ok: ${name} marked deleted`;
        }
        if (content.trim() === '') throw new Refused(`content is empty: to delete a scene write "${DELETED_MARKER}".`);
        const previous = exists ? parseScene(await readScene(path)) : undefined;
        if (!previous && !summary?.trim()) throw new Refused('a new scene needs a one-line summary.');
        return store(path, name, nextDoc(previous, name, summary, content.trim() + '\n'), exists);
      }
      case 'edit_scene': {
        const oldText = str(args.old_text, 'old_text', true)!;
        const newText = str(args.new_text, 'new_text', true)!;
        const summary = str(args.summary, 'summary', false);
        if (Buffer.byteLength(newText) > maxBytes) throw new Refused(`new_text too large (limit ${maxBytes} bytes).`);
        const { path, exists } = await resolve(args.file);
        if (!exists) throw new Refused(`no such scene: ${String(args.file)}; create it with write_scene.`);
        const previous = parseScene(await readScene(path));
        if (oldText === '') throw new Refused('old_text must not be empty.');
        const count = previous.body.split(oldText).length - 1;
        if (count !== 1)
          throw new Refused(`old_text occurs ${count} times in the body; it must occur exactly once (include more context).`);
        const name = args.file as string;
        return store(
          path,
          name,
          nextDoc(
            previous,
            name,
            summary,
            previous.body.replace(oldText, () => newText),
          ),
          true,
        );
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
        refused++;
        if (error instanceof Refused || error instanceof UnsafePathError) return { content: `refused: ${error.message}`, isError: true };
        if ((error as NodeJS.ErrnoException).code === 'ELOOP')
          return { content: 'refused: symbolic links are not accessible.', isError: true };
        // Any other failure (ENAMETOOLONG, ENOSPC, ...) fails this call only; the model can go on.
        return { content: `failed: ${(error as Error).message}`, isError: true };
      }
    },
    get refused() {
      return refused;
    },
  };
}
