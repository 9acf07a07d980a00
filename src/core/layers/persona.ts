/**
 * The L3 persona (`<home>/persona/<agent>.md`): an LLM-written profile body followed by a scene
 * navigation section that Strata maintains between markers. The file is never written without a
 * body (a navigation-only persona would look like an empty profile to hosts).
 */
import { readFile } from 'node:fs/promises';
import type { LlmClientGenerateOptions } from '../llm/index.js';
import type { LlmV1 } from '../../spec/llm.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { backupFile } from './backup.js';
import { ORGANIZE_DEFAULTS } from './defaults.js';
import type { LayerPaths } from './paths.js';
import { personaPrompt } from './prompts.js';
import { parseScene } from './scene-file.js';
import { listSceneFiles, type SceneIndexEntry } from './scene-index.js';
import { join } from 'node:path';
import { redactText } from '../write/redact-record.js';
import { assertRealDirectories, readRegularFile, UnsafePathError } from './safe-fs.js';
import { dirname } from 'node:path';

export const NAV_OPEN = '<!-- strata:scene-navigation -->';
export const NAV_CLOSE = '<!-- /strata:scene-navigation -->';

export function sceneNavigation(options: { agentId: string; scenes: SceneIndexEntry[] }): string {
  if (options.scenes.length === 0) return '';
  const lines = options.scenes.map((s) => `- [${s.filename}](../scenes/${options.agentId}/${s.filename}) (heat ${s.heat}): ${s.summary}`);
  return [NAV_OPEN, '## Scenes', '', ...lines, NAV_CLOSE].join('\n');
}

export function stripSceneNavigation(text: string): string {
  const start = text.indexOf(NAV_OPEN);
  if (start < 0) return text;
  const end = text.indexOf(NAV_CLOSE, start);
  const after = end < 0 ? '' : text.slice(end + NAV_CLOSE.length);
  return (text.slice(0, start) + after).trimEnd();
}

function compose(body: string, nav: string): string {
  return nav ? `${body.trimEnd()}\n\n${nav}\n` : `${body.trimEnd()}\n`;
}

/** The persona folder must be a real directory; the file is replaced by rename, never written through a link. */
async function writePersona(path: string, text: string): Promise<void> {
  await assertRealDirectories([dirname(path)]);
  await writeFileAtomic({ path, data: redactText(text) });
}

export async function readPersona(paths: Pick<LayerPaths, 'personaFile'>): Promise<string | undefined> {
  // A symlinked or hard-linked persona is never followed: it reads as missing (and is replaced on the next write).
  return readRegularFile(paths.personaFile).catch((error: unknown) => {
    if (error instanceof UnsafePathError) return undefined;
    throw error;
  });
}

/** Rewrites only the navigation section; skipped (false) when there is no persona body yet. */
export async function updatePersonaNavigation(options: { paths: LayerPaths; scenes: SceneIndexEntry[] }): Promise<boolean> {
  const existing = await readPersona(options.paths);
  if (existing === undefined) return false;
  const body = stripSceneNavigation(existing);
  if (body.trim() === '') return false;
  const next = compose(body, sceneNavigation({ agentId: options.paths.agentId, scenes: options.scenes }));
  if (next !== existing) await writePersona(options.paths.personaFile, next);
  return true;
}

/** Model output to a persona body: unwraps a fenced answer and drops any navigation it echoed. */
export function cleanPersonaBody(text: string): string {
  let body = text.trim();
  const fenced = /^```(?:markdown|md)?\n([\s\S]*?)\n```$/.exec(body);
  if (fenced) body = fenced[1]!.trim();
  return stripSceneNavigation(body).trim();
}

export interface PersonaResult {
  written: boolean;
  /** Why nothing was written, when `written` is false. */
  reason?: string;
  backup?: string;
}

/**
 * Writes a new persona from the scenes and the given core memories. The caller holds the
 * organiser lock. The previous persona is backed up first (newest `backupKeep` kept).
 */
export async function generatePersona(options: {
  llm: LlmV1;
  paths: LayerPaths;
  scenes: SceneIndexEntry[];
  coreMemories: Array<Pick<MemoryRecord, 'text' | 'category'>>;
  reason?: string;
  backupKeep?: number;
  abortSignal?: AbortSignal;
}): Promise<PersonaResult> {
  const { paths } = options;
  const sceneDocs = [];
  for (const filename of await listSceneFiles(paths.scenesDir)) {
    const doc = parseScene(await readFile(join(paths.scenesDir, filename), 'utf8'));
    sceneDocs.push({ filename, summary: doc.summary, body: doc.body });
  }
  if (sceneDocs.length === 0 && options.coreMemories.length === 0)
    return { written: false, reason: 'no scenes and no memories to build a persona from' };
  const previous = await readPersona(paths);
  const request: LlmClientGenerateOptions = {
    messages: [
      {
        role: 'user',
        content: personaPrompt({
          agentId: paths.agentId,
          scenes: sceneDocs,
          memories: options.coreMemories,
          previous: previous && stripSceneNavigation(previous),
          reason: options.reason,
        }),
      },
    ],
    temperature: 0.2,
    abortSignal: options.abortSignal,
    purpose: 'layers.persona',
  };
  const result = await options.llm.doGenerate(request);
  const body = cleanPersonaBody(result.text);
  if (body === '') return { written: false, reason: 'the model returned an empty persona; the previous one was kept' };
  const backup = await backupFile({
    file: paths.personaFile,
    backupsDir: paths.personaBackupsDir,
    keep: options.backupKeep ?? ORGANIZE_DEFAULTS.personaBackupKeep,
  });
  await writePersona(paths.personaFile, compose(body, sceneNavigation({ agentId: paths.agentId, scenes: options.scenes })));
  return { written: true, backup };
}
