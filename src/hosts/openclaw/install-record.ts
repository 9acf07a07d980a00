/**
 * What `strata install openclaw` changed in an OpenClaw config, kept next to it
 * (`<config>.strata-install.json`) so `strata uninstall openclaw` can put back exactly what was
 * there before (e.g. the memory plugin that held the slot) and nothing else. Every reversal is
 * conditional on the value still being the one install wrote, so later edits by the user stay.
 */
import { readFile, rm } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { PLUGIN_ID } from './config.js';

export type Json = Record<string, unknown>;
type Path = string[];

export interface InstallRecord {
  version: 1;
  /** Values install set: `before` absent means the key did not exist. */
  set: Array<{ path: Path; before?: unknown; after: unknown }>;
  /** Items install appended to arrays. */
  added: Array<{ path: Path; item: unknown }>;
  /** Objects/arrays install created (removed again when empty). */
  created: Path[];
}

export function recordPathFor(configPath: string): string {
  return `${configPath}.strata-install.json`;
}

export function obj(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

export function getAt(root: unknown, path: Path): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function hasAt(root: unknown, path: Path): boolean {
  const parent = getAt(root, path.slice(0, -1));
  return !!parent && typeof parent === 'object' && !Array.isArray(parent) && Object.hasOwn(parent, path[path.length - 1]!);
}

function setAt(root: Json, path: Path, value: unknown): void {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Json;
  }
  node[path[path.length - 1]!] = value;
}

function deleteAt(root: Json, path: Path): void {
  const parent = getAt(root, path.slice(0, -1));
  if (parent && typeof parent === 'object' && !Array.isArray(parent)) delete (parent as Json)[path[path.length - 1]!];
}

const ENTRY: Path = ['plugins', 'entries', PLUGIN_ID];
const MEMORY_CORE: Path = ['plugins', 'entries', 'memory-core'];

/** The keys install sets (to these values), the arrays it appends to and the containers it may create. */
function installTargets(options: { pluginPath: string; home?: string }) {
  return {
    scalars: [
      { path: ['plugins', 'slots', 'memory'], value: PLUGIN_ID as unknown },
      { path: [...ENTRY, 'enabled'], value: true },
      { path: [...ENTRY, 'hooks', 'allowConversationAccess'], value: true },
      { path: [...ENTRY, 'hooks', 'allowPromptInjection'], value: true },
      ...(options.home ? [{ path: [...ENTRY, 'config', 'home'], value: options.home as unknown }] : []),
      // Set only when the user had not chosen (see MEMORY_CORE_ENABLED in install.ts).
      { path: [...MEMORY_CORE, 'enabled'], value: false as unknown },
    ],
    arrays: [
      { path: ['plugins', 'allow'], item: PLUGIN_ID as unknown },
      { path: ['plugins', 'load', 'paths'], item: options.pluginPath as unknown },
    ],
    containers: [
      ['plugins'],
      ['plugins', 'slots'],
      ['plugins', 'load'],
      ['plugins', 'load', 'paths'],
      ['plugins', 'entries'],
      ENTRY,
      [...ENTRY, 'config'],
      [...ENTRY, 'hooks'],
      MEMORY_CORE,
    ],
  };
}

/** The record of going from `before` to `after`, merged into an earlier record (whose `before` values win). */
export function diffInstall(options: {
  before: Json;
  after: Json;
  pluginPath: string;
  home?: string;
  previous?: InstallRecord;
}): InstallRecord {
  const t = installTargets(options);
  const record: InstallRecord = options.previous ? structuredClone(options.previous) : { version: 1, set: [], added: [], created: [] };
  const same = (a: Path, b: Path) => isDeepStrictEqual(a, b);
  for (const { path, value } of t.scalars) {
    if (isDeepStrictEqual(getAt(options.before, path), value) && hasAt(options.before, path)) continue;
    if (!isDeepStrictEqual(getAt(options.after, path), value)) continue; // left as the user had it
    const earlier = record.set.find((s) => same(s.path, path));
    if (earlier) earlier.after = value;
    else record.set.push({ path, ...(hasAt(options.before, path) ? { before: getAt(options.before, path) } : {}), after: value });
  }
  for (const { path, item } of t.arrays) {
    const was = getAt(options.before, path);
    const now = getAt(options.after, path);
    const added = Array.isArray(now) && now.includes(item) && !(Array.isArray(was) && was.includes(item));
    if (added && !record.added.some((a) => same(a.path, path) && isDeepStrictEqual(a.item, item))) record.added.push({ path, item });
  }
  for (const path of t.containers) {
    if (!hasAt(options.before, path) && hasAt(options.after, path) && !record.created.some((c) => same(c, path))) record.created.push(path);
  }
  return record;
}

/**
 * Without a record (installed by hand or by an older version): our slot, allowlist item and load
 * path go, and our entry goes when it carries the hook permissions install grants.
 */
export function fallbackRecord(options: { config: Json; pluginPath: string }): InstallRecord {
  const record: InstallRecord = { version: 1, set: [], added: [], created: [] };
  const holdsSlot = getAt(options.config, ['plugins', 'slots', 'memory']) === PLUGIN_ID;
  const hooks = obj(getAt(options.config, [...ENTRY, 'hooks']));
  const permitted = hooks.allowConversationAccess === true || hooks.allowPromptInjection === true;
  // No sign of an install: touch nothing (an allowlisted id or a bare entry may be the user's own).
  if (!holdsSlot && !permitted) return record;
  if (holdsSlot) record.set.push({ path: ['plugins', 'slots', 'memory'], after: PLUGIN_ID });
  if (permitted) record.created.push(ENTRY);
  record.added.push({ path: ['plugins', 'allow'], item: PLUGIN_ID }, { path: ['plugins', 'load', 'paths'], item: options.pluginPath });
  return record;
}

/** The config with the record reversed. A fallback record's entry is removed whole, not only when empty. */
export function reverseInstall(options: { config: Json; record: InstallRecord; removeEntry?: boolean }): Json {
  const out = structuredClone(options.config);
  for (const s of options.record.set) {
    if (!hasAt(out, s.path) || !isDeepStrictEqual(getAt(out, s.path), s.after)) continue; // changed since: the user's now
    if (Object.hasOwn(s, 'before')) setAt(out, s.path, s.before);
    else deleteAt(out, s.path);
  }
  for (const a of options.record.added) {
    const list = getAt(out, a.path);
    if (Array.isArray(list) && list.some((x) => isDeepStrictEqual(x, a.item)))
      setAt(
        out,
        a.path,
        list.filter((x) => !isDeepStrictEqual(x, a.item)),
      );
  }
  // Deepest first, so a container emptied by removing its child goes too.
  for (const path of [...options.record.created].sort((a, b) => b.length - a.length)) {
    const value = getAt(out, path);
    const empty = Array.isArray(value) ? value.length === 0 : !!value && typeof value === 'object' && Object.keys(value).length === 0;
    if (empty || (options.removeEntry && isDeepStrictEqual(path, ENTRY))) deleteAt(out, path);
  }
  return out;
}

export async function readInstallRecord(configPath: string): Promise<InstallRecord | undefined> {
  try {
    const parsed = JSON.parse(await readFile(recordPathFor(configPath), 'utf8')) as Partial<InstallRecord>;
    if (parsed.version !== 1 || !Array.isArray(parsed.set) || !Array.isArray(parsed.added) || !Array.isArray(parsed.created))
      return undefined;
    return parsed as InstallRecord;
  } catch {
    // Missing or unreadable: uninstall falls back to removing what is recognisably ours.
    return undefined;
  }
}

export async function writeInstallRecord(configPath: string, record: InstallRecord): Promise<void> {
  await writeFileAtomic({ path: recordPathFor(configPath), data: JSON.stringify(record, null, 2) + '\n', mode: 0o600 });
}

export async function removeInstallRecord(configPath: string): Promise<void> {
  await rm(recordPathFor(configPath), { force: true });
}
