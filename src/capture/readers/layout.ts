/**
 * Where a given `--path` sits in a host's folder layout. People point at the folder they see the
 * transcripts in (`~/.claude/projects`, `~/.codex/sessions`, `~/.openclaw/agents/main/sessions`) as
 * often as at the host's root; each level is accepted, so a path inside the layout never reads as
 * "no transcripts".
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { listDir } from './common.js';

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

const hasJsonl = async (dir: string): Promise<boolean> => (await listDir(dir)).some((e) => e.isFile && e.name.endsWith('.jsonl'));

/** Claude Code project folders under a config dir, its `projects` folder, or one project folder. */
export async function claudeProjectDirs(root: string): Promise<string[]> {
  const subdirs = async (dir: string) => (await listDir(dir)).filter((e) => e.isDir).map((e) => join(dir, e.name));
  if (await isDir(join(root, 'projects'))) return subdirs(join(root, 'projects'));
  // A project folder holds its sessions directly; a projects folder holds project folders.
  return (await hasJsonl(root)) ? [root] : subdirs(root);
}

/** Codex folders to walk for rollouts: `<home>/sessions` (+ archived), or the given folder inside it. */
export async function codexSessionDirs(root: string, includeArchives: boolean): Promise<Array<[string, boolean]>> {
  if (!(await isDir(join(root, 'sessions')))) return [[root, basename(root) === 'archived_sessions']];
  const dirs: Array<[string, boolean]> = [[join(root, 'sessions'), false]];
  if (includeArchives) dirs.push([join(root, 'archived_sessions'), true]);
  return dirs;
}

/** OpenClaw `agents` folder and agent filter for a state dir, `agents`, `agents/<id>` or `agents/<id>/sessions`. */
export async function openClawAgentsDir(root: string): Promise<{ agentsDir: string; only?: string }> {
  if (await isDir(join(root, 'agents'))) return { agentsDir: join(root, 'agents') };
  if (basename(root) === 'sessions' && basename(dirname(dirname(root))) === 'agents')
    return { agentsDir: dirname(dirname(root)), only: basename(dirname(root)) };
  if (basename(dirname(root)) === 'agents' && (await isDir(join(root, 'sessions'))))
    return { agentsDir: dirname(root), only: basename(root) };
  return { agentsDir: basename(root) === 'agents' ? root : join(root, 'agents') };
}
