/**
 * What `strata install claude-code` changed, kept in the Strata home (never in the project, where
 * backups would be committed): a timestamped copy of every file before it is changed, and a
 * manifest per file of the copy without Strata's entries and a hash of what install wrote. When
 * uninstall finds a file exactly as install left it, it puts the original back byte for byte;
 * otherwise (Claude Code or the user changed it since) it removes only Strata's entries.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';

export interface ManifestEntry {
  /** Whether the file existed before Strata first changed it. */
  existedBefore: boolean;
  /** Backup of the file as it was without Strata's entries (absent: no exact restore possible). */
  original?: string;
  /** sha256 of the content install wrote. */
  written: string;
  /** `permissions.allow` entries install added (so uninstall keeps any the user had already). */
  addedAllow?: string[];
}

interface Manifest {
  v: 1;
  files: Record<string, ManifestEntry>;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function backupDir(home: string): string {
  return join(home, 'backups', 'claude-code');
}

function manifestPath(home: string): string {
  return join(backupDir(home), 'manifest.json');
}

export async function readManifest(home: string): Promise<Manifest> {
  try {
    const parsed = JSON.parse(await readFile(manifestPath(home), 'utf8')) as Manifest;
    if (parsed.v === 1 && typeof parsed.files === 'object' && parsed.files !== null) return parsed;
  } catch {
    // none yet
  }
  return { v: 1, files: {} };
}

export async function writeManifest(home: string, manifest: Manifest): Promise<void> {
  await mkdir(backupDir(home), { recursive: true, mode: 0o700 });
  await writeFileAtomic({ path: manifestPath(home), data: JSON.stringify(manifest, null, 2) + '\n', mode: 0o600 });
}

/** `<home>/backups/claude-code/<stamp>/<path with separators flattened>`, mode 0600. */
export async function backupFile(options: { home: string; path: string; stamp: string }): Promise<string> {
  const dir = join(backupDir(options.home), options.stamp);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = join(dir, options.path.replace(/^[/\\]+/, '').replace(/[/\\:]+/g, '__'));
  await writeFileAtomic({ path: target, data: await readFile(options.path), mode: 0o600 });
  return target;
}

export function timestamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}
