/**
 * One organiser run for one agent: fold the memories added since the last checkpoint into the
 * scene files with a sandboxed LLM agent, then clean up, re-index, refresh the persona's scene
 * navigation and, when due, regenerate the persona. Runs of the same agent serialise on a file
 * lock; any failure before the checkpoint is written restores the scenes folder from the backup
 * taken at the start, byte for byte.
 */
import { rename, unlink } from 'node:fs/promises';
import { assertRealDirectories, readRegularFile } from './safe-fs.js';
import { join } from 'node:path';
import { StrataError, InvalidArgumentError } from '../../errors/index.js';
import type { LlmV1 } from '../../spec/llm.js';
import type { MemoryRecord } from '../../spec/memory-record.js';
import { withFileLock } from '../../util/file-lock.js';
import type { ListMemoriesOptions } from '../engine/types.js';
import { agentScopes } from '../scope.js';
import { llmAgentRunner, type AgentRunner } from './agent-loop.js';
import { backupFolder, restoreFolder } from './backup.js';
import { isAfterCheckpoint, readCheckpoint, writeCheckpoint, type LayerCheckpoint } from './checkpoint.js';
import { ORGANIZE_DEFAULTS } from './defaults.js';
import { layerPaths, type LayerPaths } from './paths.js';
import { generatePersona, readPersona, updatePersonaNavigation, type PersonaResult } from './persona.js';
import { capacityGuidance, organiserSystemPrompt, organiserUserPrompt, parsePersonaUpdateRequest, type CapacityTier } from './prompts.js';
import { createSceneSandbox, SCENE_TOOLS } from './sandbox.js';
import { isDeadScene, normalizeSceneName } from './scene-file.js';
import { listSceneFiles, readSceneIndex, syncSceneIndex } from './scene-index.js';
import { isAutoInjectable } from '../write/injection.js';

/** What the organiser needs from the engine (`Strata` and `MemoryEngine` both fit). */
export interface MemoryLister {
  list(options: ListMemoriesOptions): Promise<MemoryRecord[]>;
}

export interface OrganizeOptions {
  home: string;
  agentId: string;
  llm: LlmV1;
  /** Runs the scene tool loop; default: `llm` turn by turn. The persona is always written by `llm`. */
  runner?: AgentRunner;
  memories: MemoryLister;
  /** Scopes whose new memories are organised. Default: global + agent:<id>. */
  scopes?: string[];
  /** Default 15. */
  maxScenes?: number;
  /** Memories per run (oldest first; the rest wait for the next run). Default 50. */
  maxMemoriesPerRun?: number;
  /** Model turns per run. Default 24. */
  maxTurns?: number;
  /** Wall time of the agent loop. Default 5 minutes. */
  timeoutMs?: number;
  /** Scene folder backups kept. Default 5. */
  backupKeep?: number;
  /** Largest scene file the model may write. Default 64 KB. */
  maxFileBytes?: number;
  /** Regenerate the persona after this many organised memories (0 = only on request). Default 50. */
  personaEveryN?: number;
  personaBackupKeep?: number;
  /** Most important memories shown to the persona writer. Default 30. */
  personaCoreMemories?: number;
  /** How long to wait for another run of the same agent. Default 10 minutes. */
  lockTimeoutMs?: number;
  abortSignal?: AbortSignal;
  now?: () => Date;
}

export interface OrganizeReport {
  agentId: string;
  /** Set when there was nothing to do. */
  skipped?: 'no-new-memories';
  memoriesProcessed: number;
  created: string[];
  updated: string[];
  deleted: string[];
  renamed: Array<{ from: string; to: string }>;
  sceneCount: number;
  capacity: CapacityTier;
  turns: number;
  toolCalls: number;
  refusedToolCalls: number;
  personaUpdateRequest?: string;
  navigationUpdated: boolean;
  persona?: PersonaResult & { error?: string };
}

const PAGE = 500;
const SCAN_CAP = 20_000;

/** Memories after the checkpoint, oldest first (pages newest-first until it reaches the checkpoint). */
export async function newMemories(options: {
  memories: MemoryLister;
  scopes: string[];
  checkpoint: LayerCheckpoint;
  limit: number;
}): Promise<MemoryRecord[]> {
  const fresh: MemoryRecord[] = [];
  for (let offset = 0; offset < SCAN_CAP; offset += PAGE) {
    const page = await options.memories.list({ scopes: options.scopes, order: 'newest', limit: PAGE, offset });
    const after = page.filter((r) => isAfterCheckpoint(r, options.checkpoint));
    // Scene files reach prompts through the bootstrap, so flagged memories are never organised into them.
    fresh.push(...after.filter(isAutoInjectable));
    if (page.length < PAGE || after.length < page.length) break;
  }
  fresh.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return fresh.slice(0, options.limit);
}

/** Removes dead files, then gives every scene a canonical name (collisions get `-2`, `-3`, ...). */
async function tidyScenes(scenesDir: string): Promise<Array<{ from: string; to: string }>> {
  for (const file of await listSceneFiles(scenesDir)) {
    const raw = await readRegularFile(join(scenesDir, file)).catch(() => undefined);
    if (raw !== undefined && isDeadScene(raw)) await unlink(join(scenesDir, file));
  }
  const renamed: Array<{ from: string; to: string }> = [];
  const taken = new Set(await listSceneFiles(scenesDir));
  for (const file of [...taken].sort()) {
    const base = normalizeSceneName(file);
    if (base === file) continue;
    let target = base;
    for (let n = 2; taken.has(target); n++) target = base.replace(/\.md$/, `-${n}.md`);
    await rename(join(scenesDir, file), join(scenesDir, target));
    taken.delete(file);
    taken.add(target);
    renamed.push({ from: file, to: target });
  }
  return renamed;
}

async function snapshot(scenesDir: string): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  for (const file of await listSceneFiles(scenesDir)) {
    const raw = await readRegularFile(join(scenesDir, file)).catch(() => undefined);
    if (raw !== undefined) map.set(file, raw);
  }
  return map;
}

/** An integer option with a default; `min` 0 only where 0 means "off". */
function intOption(value: number | undefined, fallback: number, argument: string, min = 1): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min) throw new InvalidArgumentError({ argument, message: `${argument} must be an integer >= ${min}.` });
  return v;
}

export async function organizeScenes(options: OrganizeOptions): Promise<OrganizeReport> {
  const paths = layerPaths({ home: options.home, agentId: options.agentId });
  // Validated up front so bad options fail before the lock, the backup or any LLM call.
  const limits: Limits = {
    maxScenes: intOption(options.maxScenes, ORGANIZE_DEFAULTS.maxScenes, 'maxScenes'),
    maxMemories: intOption(options.maxMemoriesPerRun, ORGANIZE_DEFAULTS.maxMemoriesPerRun, 'maxMemoriesPerRun'),
    maxTurns: intOption(options.maxTurns, ORGANIZE_DEFAULTS.maxTurns, 'maxTurns'),
    backupKeep: intOption(options.backupKeep, ORGANIZE_DEFAULTS.backupKeep, 'backupKeep'),
    personaEveryN: intOption(options.personaEveryN, ORGANIZE_DEFAULTS.personaEveryN, 'personaEveryN', 0),
    personaCore: intOption(options.personaCoreMemories, ORGANIZE_DEFAULTS.personaCoreMemories, 'personaCoreMemories', 0),
  };
  if (!options.runner && !options.llm.capabilities.supportsTools) {
    throw new StrataError({
      code: 'UNSUPPORTED',
      message: `The LLM ${options.llm.provider}:${options.llm.modelId} does not support tool calling, which the scene organiser needs; configure a tool-capable model.`,
    });
  }
  return withFileLock({ path: paths.lockFile, timeoutMs: options.lockTimeoutMs ?? ORGANIZE_DEFAULTS.lockTimeoutMs }, () =>
    runLocked(options, paths, limits),
  );
}

interface Limits {
  maxScenes: number;
  maxMemories: number;
  maxTurns: number;
  backupKeep: number;
  personaEveryN: number;
  personaCore: number;
}

async function runLocked(options: OrganizeOptions, paths: LayerPaths, limits: Limits): Promise<OrganizeReport> {
  const { maxScenes } = limits;
  const now = options.now ?? (() => new Date());
  const scopes = options.scopes ?? agentScopes(options.agentId);
  const checkpoint = await readCheckpoint(paths.checkpointFile);
  const batch = await newMemories({ memories: options.memories, scopes, checkpoint, limit: limits.maxMemories });
  const before = await readSceneIndex(paths);
  const capacity = capacityGuidance({ count: before.length, limit: maxScenes });
  const report: OrganizeReport = {
    agentId: paths.agentId,
    memoriesProcessed: 0,
    created: [],
    updated: [],
    deleted: [],
    renamed: [],
    sceneCount: before.length,
    capacity: capacity.tier,
    turns: 0,
    toolCalls: 0,
    refusedToolCalls: 0,
    navigationUpdated: false,
  };
  if (batch.length === 0) {
    report.skipped = 'no-new-memories';
    if (checkpoint.personaRequest) report.persona = await maybePersona(options, limits, paths, checkpoint, before);
    return report;
  }

  await assertRealDirectories([join(options.home, 'scenes'), paths.scenesDir]);
  const backup = await backupFolder({ dir: paths.scenesDir, backupsDir: paths.sceneBackupsDir, keep: limits.backupKeep, now: now() });
  let next: LayerCheckpoint;
  let scenesAfter;
  try {
    const pre = await snapshot(paths.scenesDir);
    const sandbox = createSceneSandbox({ scenesDir: paths.scenesDir, maxFileBytes: options.maxFileBytes, maxScenes, now });
    const runner = options.runner ?? llmAgentRunner(options.llm);
    const loop = await runner.run({
      agentId: paths.agentId,
      system: organiserSystemPrompt({ maxScenes }),
      prompt: organiserUserPrompt({ scenes: before, guidance: capacity.text, memories: batch, now: now() }),
      tools: SCENE_TOOLS,
      execute: (call) => sandbox.execute(call),
      maxTurns: limits.maxTurns,
      timeoutMs: options.timeoutMs ?? ORGANIZE_DEFAULTS.timeoutMs,
      purpose: 'layers.organize',
      abortSignal: options.abortSignal,
    });
    Object.assign(report, { turns: loop.turns, toolCalls: loop.toolCalls, refusedToolCalls: sandbox.refused });

    report.renamed = await tidyScenes(paths.scenesDir);
    scenesAfter = await syncSceneIndex(paths);
    const post = await snapshot(paths.scenesDir);
    const origin = new Map(report.renamed.map((r) => [r.to, r.from]));
    for (const [file, raw] of post) {
      const was = origin.get(file) ?? file;
      if (!pre.has(was)) report.created.push(file);
      else if (pre.get(was) !== raw || was !== file) report.updated.push(file);
    }
    const survivors = new Set([...post.keys()].map((f) => origin.get(f) ?? f));
    report.deleted = [...pre.keys()].filter((f) => !survivors.has(f));
    report.sceneCount = scenesAfter.length;
    report.personaUpdateRequest = parsePersonaUpdateRequest(loop.text)?.reason;
    report.navigationUpdated = await updatePersonaNavigation({ paths, scenes: scenesAfter });

    const last = batch[batch.length - 1]!;
    next = {
      lastCreatedAt: last.createdAt,
      lastId: last.id,
      totalProcessed: checkpoint.totalProcessed + batch.length,
      sincePersona: checkpoint.sincePersona + batch.length,
      personaRequest: report.personaUpdateRequest ?? checkpoint.personaRequest,
      lastRunAt: now().toISOString(),
    };
    await writeCheckpoint(paths.checkpointFile, next);
    report.memoriesProcessed = batch.length;
  } catch (error) {
    // Whatever the model or the cleanup did, the folder goes back to exactly what it was.
    await restoreFolder({ dir: paths.scenesDir, backup });
    throw error;
  }
  report.persona = await maybePersona(options, limits, paths, next, scenesAfter);
  return report;
}

/** Regenerates the persona when asked, when due, or when there is none yet; failures are reported and retried next run. */
async function maybePersona(
  options: OrganizeOptions,
  limits: Limits,
  paths: LayerPaths,
  checkpoint: LayerCheckpoint,
  scenes: Awaited<ReturnType<typeof readSceneIndex>>,
): Promise<OrganizeReport['persona']> {
  const everyN = limits.personaEveryN;
  const missing = (await readPersona(paths)) === undefined;
  const due = checkpoint.personaRequest !== null || (everyN > 0 && checkpoint.sincePersona >= everyN) || (missing && scenes.length > 0);
  if (!due) return undefined;
  const reason = checkpoint.personaRequest ?? (missing ? 'first persona' : `${checkpoint.sincePersona} new memories`);
  try {
    const core = await options.memories.list({ scopes: options.scopes ?? agentScopes(options.agentId), order: 'newest', limit: 500 });
    core.sort((a, b) => b.importance - a.importance || b.createdAt.localeCompare(a.createdAt));
    const result = await generatePersona({
      llm: options.llm,
      paths,
      scenes,
      coreMemories: core.slice(0, limits.personaCore),
      reason,
      backupKeep: options.personaBackupKeep ?? ORGANIZE_DEFAULTS.personaBackupKeep,
      abortSignal: options.abortSignal,
    });
    if (result.written) await writeCheckpoint(paths.checkpointFile, { ...checkpoint, sincePersona: 0, personaRequest: null });
    return result;
  } catch (error) {
    // The scenes are already committed; keep the request so the next run tries again.
    await writeCheckpoint(paths.checkpointFile, { ...checkpoint, personaRequest: reason });
    return { written: false, error: (error as Error).message };
  }
}
