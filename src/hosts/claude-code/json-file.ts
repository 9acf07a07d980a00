/**
 * Reading and rewriting Claude Code's JSON files without disturbing them: the new content differs
 * from the old only where a value changed (jsonc-parser edits, the file's own indentation kept),
 * and the file keeps its mode (`~/.claude.json` holds account state and other servers' secrets:
 * 0600 stays 0600).
 */
import { readFile, stat } from 'node:fs/promises';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { ConfigError } from '../../errors/index.js';
import { writeFileAtomic } from '../../util/atomic-write.js';

export type Json = Record<string, unknown>;

export interface JsonFile {
  path: string;
  /** undefined: the file does not exist. */
  text?: string;
  json?: Json;
  /** Permission bits of the existing file. */
  mode?: number;
}

export async function readJsonFile(path: string): Promise<JsonFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path };
    throw error;
  }
  const mode = (await stat(path)).mode & 0o777;
  if (text.trim() === '') return { path, text, json: {}, mode };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError({
      file: path,
      message: `${path} is not valid JSON (${(cause as Error).message}); fix it by hand, then run the command again.`,
      cause,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError({ file: path, message: `${path} does not hold a JSON object; fix it by hand, then run the command again.` });
  }
  return { path, text, json: parsed as Json, mode };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface Style {
  unit: string;
  eol: string;
}

function styleOf(text: string): Style {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  return { unit: indent?.startsWith('\t') ? '\t' : ' '.repeat(indent?.length ?? 2), eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** `value` as JSON whose continuation lines sit at `depth` levels of the file's indentation. */
function jsonAt(value: unknown, depth: number, style: Style): string {
  return JSON.stringify(value, null, style.unit)
    .split('\n')
    .join(style.eol + style.unit.repeat(depth));
}

/**
 * Sets (or with `undefined` removes) the value at `path`, touching no other byte: an added
 * property goes after the last one, a removed one takes exactly its own text and comma with it,
 * so adding then removing a property gives the original text back. (jsonc-parser's `modify`
 * reformats the neighbouring property as well.)
 */
function setPath(text: string, path: string[], value: unknown, style: Style): string {
  const tree = parseTree(text);
  if (!tree) throw new Error('not JSON');
  const node = findNodeAtLocation(tree, path);
  if (node) {
    const property = node.parent as Node;
    if (value !== undefined) return text.slice(0, node.offset) + jsonAt(value, path.length, style) + text.slice(node.offset + node.length);
    const object = property.parent as Node;
    const siblings = object.children ?? [];
    const i = siblings.indexOf(property);
    if (siblings.length === 1) return text.slice(0, object.offset + 1) + text.slice(object.offset + object.length - 1);
    if (i > 0) {
      const before = siblings[i - 1]!;
      return text.slice(0, before.offset + before.length) + text.slice(property.offset + property.length);
    }
    return text.slice(0, property.offset) + text.slice(siblings[1]!.offset);
  }
  if (value === undefined) return text;
  const key = path.at(-1)!;
  const parent = findNodeAtLocation(tree, path.slice(0, -1));
  if (!parent) return setPath(text, path.slice(0, -1), { [key]: value }, style);
  if (parent.type !== 'object') throw new Error(`${path.slice(0, -1).join('.')} is not an object`);
  const pad = style.unit.repeat(path.length);
  const entry = `${JSON.stringify(key)}: ${jsonAt(value, path.length, style)}`;
  const last = parent.children?.at(-1);
  if (last) return text.slice(0, last.offset + last.length) + `,${style.eol}${pad}${entry}` + text.slice(last.offset + last.length);
  const inner = `${style.eol}${pad}${entry}${style.eol}${style.unit.repeat(path.length - 1)}`;
  return text.slice(0, parent.offset + 1) + inner + text.slice(parent.offset + parent.length - 1);
}

/**
 * `after` written over `before`'s text with the fewest edits: changed second-level values (e.g.
 * `hooks.Stop`, `mcpServers.strata`) are replaced one by one, everything else keeps its bytes.
 */
export function editedText(options: { text: string | undefined; before: Json; after: Json }): string {
  const { before, after } = options;
  if (options.text === undefined || options.text.trim() === '') return JSON.stringify(after, null, 2) + '\n';
  let text = options.text;
  const style = styleOf(text);
  const set = (path: string[], value: unknown) => {
    text = setPath(text, path, value, style);
  };
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [b, a] = [before[key], after[key]];
    if (same(b, a)) continue;
    if (isObject(b) && isObject(a) && Object.keys(a).length > 0) {
      for (const sub of new Set([...Object.keys(b), ...Object.keys(a)])) if (!same(b[sub], a[sub])) set([key, sub], a[sub]);
    } else {
      set([key], a);
    }
  }
  return text;
}

/** Writes atomically with `mode` (the old file's, or the caller's default for a new file). */
export async function writeJsonText(options: { path: string; text: string; mode: number }): Promise<void> {
  await writeFileAtomic({ path: options.path, data: options.text, mode: options.mode });
}
