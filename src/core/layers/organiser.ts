/**
 * One organiser run for one agent: fold the memories added since the last checkpoint into the
 * scene files with a sandboxed LLM agent, then clean up, re-index, refresh the persona's scene
 * navigation and, when due, regenerate the persona. Runs of the same agent on one home serialise
 * on a file lock. A run works in a working folder materialised from the agent's layer store
 * snapshot (working-copy.ts) and writes back what changed in one commit on that snapshot's
 * version; a failed run writes nothing. When another process or machine committed first, the
 * commit fails with a conflict and the run is redone on the newer version (its checkpoint says
 * which memories are already organised), at most `maxAttempts` times.
 */
import { dirname } from 'node:path';
import { assertRealDirectories } from './safe-fs.js';
import { StrataError, LayerConflictError } from '../../errors/index.js';
import type { LayerStoreV1 } from '../../spec/layer-store.js';
import type { LlmV1 } from '../../spec/llm.js';
import { withFileLock } from '../../util/file-lock.js';
import { agentScopes } from '../scope.js';
import { llmAgentRunner, type AgentRunner } from './agent-loop.js';
import { backupFolder } from './backup.js';
import { readCheckpoint, writeCheckpoint, type LayerCheckpoint } from './checkpoint.js';
import { FileLayerStore } from './file-store.js';
import { ORGANIZE_DEFAULTS } from './defaults.js';
import { layerPaths, type LayerPaths } from './paths.js';
import { generatePersona, readPersona, updatePersonaNavigation, type PersonaResult } from './persona.js';
import { capacityGuidance, organiserSystemPrompt, organiserUserPrompt, parsePersonaUpdateRequest, type CapacityTier } from './prompts.js';
import { createSceneSandbox, SCENE_TOOLS } from './sandbox.js';
import { readSceneIndex, syncSceneIndex } from './scene-index.js';
import { intOption, newMemories, snapshot, tidyScenes, type MemoryLister } from './organiser-steps.js';
import { materialise } from './working-copy.js';

export { newMemories, type MemoryLister } from './organiser-steps.js';

export interface OrganizeOptions {
  home: string;
  agentId: string;
  llm: LlmV1;
  /** Runs the scene tool loop; default: `llm` turn by turn. The persona is always written by `llm`. */
  runner?: AgentRunner;
  memories: MemoryLister;
  /** Where the scenes, persona and checkpoint live. Default: files under `home`. */
  layerStore?: LayerStoreV1;
  /** Runs per call when another process commits first (each redone on the newer version). Default 3. */
  maxAttempts?: number;
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
  /** Runs redone because another process committed the agent's layers first. */
  conflicts: number;
  /** The agent's layer version after this run. */
  version: number;
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
    maxAttempts: intOption(options.maxAttempts, ORGANIZE_DEFAULTS.maxAttempts, 'maxAttempts'),
  };
  if (!options.runner && !options.llm.capabilities.supportsTools) {
    throw new StrataError({
      code: 'UNSUPPORTED',
      message: `The LLM ${options.llm.provider}:${options.llm.modelId} does not support tool calling, which the scene organiser needs; configure a tool-capable model.`,
    });
  }
  return withFileLock({ path: paths.lockFile, timeoutMs: options.lockTimeoutMs ?? ORGANIZE_DEFAULTS.lockTimeoutMs }, () =>
    runOnStore(options, limits),
  );
}

/** Snapshot, run in a working folder, commit on the snapshot's version; redone on a conflict. */
async function runOnStore(options: OrganizeOptions, limits: Limits): Promise<OrganizeReport> {
  const store = options.layerStore ?? new FileLayerStore({ home: options.home });
  for (let attempt = 1; ; attempt++) {
    const snapshot = await store.read({ agentId: options.agentId });
    const work = await materialise({ home: options.home, agentId: options.agentId, snapshot });
    try {
      const report = await runLocked(options, work.paths, limits);
      const changes = await work.changes();
      const { version } =
        changes.length > 0 ? await store.commit({ agentId: options.agentId, changes, expectedVersion: snapshot.version }) : snapshot;
      return { ...report, conflicts: attempt - 1, version };
    } catch (error) {
      if (!LayerConflictError.is(error) || attempt >= limits.maxAttempts) throw error;
      // Another process organised this agent meanwhile: redo the run on its version.
    } finally {
      await work.dispose();
    }
  }
}

interface Limits {
  maxScenes: number;
  maxMemories: number;
  maxTurns: number;
  backupKeep: number;
  personaEveryN: number;
  personaCore: number;
  maxAttempts: number;
}

async function runLocked(
  options: OrganizeOptions,
  paths: LayerPaths,
  limits: Limits,
): Promise<Omit<OrganizeReport, 'conflicts' | 'version'>> {
  const { maxScenes } = limits;
  const now = options.now ?? (() => new Date());
  const scopes = options.scopes ?? agentScopes(options.agentId);
  const checkpoint = await readCheckpoint(paths.checkpointFile);
  const batch = await newMemories({ memories: options.memories, scopes, checkpoint, limit: limits.maxMemories });
  const before = await readSceneIndex(paths);
  const capacity = capacityGuidance({ count: before.length, limit: maxScenes });
  const report: Omit<OrganizeReport, 'conflicts' | 'version'> = {
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

  await assertRealDirectories([dirname(paths.scenesDir), paths.scenesDir]);
  // A copy of the scenes as the run found them: the way back from a run whose result is unwanted.
  await backupFolder({ dir: paths.scenesDir, backupsDir: paths.sceneBackupsDir, keep: limits.backupKeep, now: now() });
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
  const scenesAfter = await syncSceneIndex(paths);
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
  const next: LayerCheckpoint = {
    lastCreatedAt: last.createdAt,
    lastId: last.id,
    totalProcessed: checkpoint.totalProcessed + batch.length,
    sincePersona: checkpoint.sincePersona + batch.length,
    personaRequest: report.personaUpdateRequest ?? checkpoint.personaRequest,
    lastRunAt: now().toISOString(),
  };
  await writeCheckpoint(paths.checkpointFile, next);
  report.memoriesProcessed = batch.length;
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
