/**
 * Where summaries live: `<home>/summaries/<agent>/<session-slug>/` holding `index.json`, the
 * summary Markdown files and the session's lock file.
 *
 * Session keys (`agent:main:telegram:+4912…`) hold characters that are unsafe or ambiguous in file
 * names, so a session folder is a readable, lower-cased prefix plus a hash of the exact key: short,
 * collision-free on case-insensitive file systems, and never `.`/`..`. The mapping is one-way;
 * `index.json` records the original key, and lookups recompute the slug from the key.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const SAFE_AGENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function hashed(id: string, prefixLength: number): string {
  const readable = id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, prefixLength)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 12);
  return readable ? `${readable}-${hash}` : hash;
}

/** Agent ids in the hosts' alphabet are used as they are (same folder name as scenes); others are hashed. */
export function agentSegment(agentId: string): string {
  return SAFE_AGENT.test(agentId) && !agentId.includes('..') ? agentId : `_${hashed(agentId, 32)}`;
}

export function sessionSlug(sessionKey: string): string {
  return hashed(sessionKey, 48);
}

export interface SummaryPaths {
  root: string;
  agentDir: string;
  sessionDir: string;
  indexFile: string;
  lockFile: string;
}

export function summariesRoot(home: string): string {
  return join(home, 'summaries');
}

export function summaryPaths(options: { home: string; agentId: string; sessionKey: string }): SummaryPaths {
  const root = summariesRoot(options.home);
  const agentDir = join(root, agentSegment(options.agentId));
  const sessionDir = join(agentDir, sessionSlug(options.sessionKey));
  return { root, agentDir, sessionDir, indexFile: join(sessionDir, 'index.json'), lockFile: join(sessionDir, '.lock') };
}

/** File of one summary; ids are `L<level>-<seq>` so names are safe by construction. */
export function summaryFile(paths: SummaryPaths, id: string): string {
  return join(paths.sessionDir, `${id}.md`);
}
