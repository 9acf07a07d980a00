/**
 * Read-only access to an agent's L3 persona and L2 scenes (`<home>/persona/<agent>.md`,
 * `<home>/scenes/<agent>/*.md`), shown only where the organiser has written them. A caller reads
 * its own agent's, or another agent's whose `agent:<id>` scope it holds.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { InvalidArgumentError, NotFoundError } from '../../errors/index.js';
import { canReadAgent, scopeNotAllowed } from '../caller.js';
import { layerPaths, type LayerPaths } from '../layers/paths.js';
import { listSceneFiles, readSceneIndex } from '../layers/scene-index.js';
import { parseScene } from '../layers/scene-file.js';
import { agentParam } from './inputs.js';
import { defineOperation, type OpContext } from './operation.js';

function layersOf(ctx: OpContext, requested: string | undefined): LayerPaths {
  const agentId = requested ?? ctx.caller.agentId;
  if (!agentId) {
    throw new InvalidArgumentError({
      argument: 'agent',
      message:
        'This caller has no agent, so it has no persona or scenes: name an agent whose scope it holds, or start the host with --agent <id>.',
    });
  }
  if (!canReadAgent(ctx.caller, agentId)) throw scopeNotAllowed(`agent:${agentId}`, ctx.caller);
  return layerPaths({ home: ctx.engine.home, agentId });
}

/** Reads a regular file only: a symlink planted in the folder is never followed. */
async function readRegular(path: string): Promise<string | undefined> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat?.isFile()) return undefined;
  return readFile(path, 'utf8');
}

export const persona = defineOperation({
  name: 'persona',
  access: 'read',
  description: "The agent's persona (L3): who it works for and how, distilled from its memories.",
  input: () => z.strictObject({ agent: agentParam.optional() }),
  async run(ctx, a) {
    const paths = layersOf(ctx, a.agent);
    const text = await readRegular(paths.personaFile);
    if (text === undefined) throw new NotFoundError({ what: 'persona (the organiser writes it) for agent', id: paths.agentId });
    return { agent: paths.agentId, text };
  },
});

export const scenes = defineOperation({
  name: 'scenes',
  access: 'read',
  description: "The agent's scenes (L2): topic files the organiser keeps, hottest first.",
  input: () => z.strictObject({ agent: agentParam.optional() }),
  async run(ctx, a) {
    const paths = layersOf(ctx, a.agent);
    const entries = await readSceneIndex(paths);
    return {
      agent: paths.agentId,
      scenes: entries.map((s) => ({ name: s.filename.replace(/\.md$/, ''), summary: s.summary, heat: s.heat, updated: s.updated })),
    };
  },
});

export const scene = defineOperation({
  name: 'scene',
  access: 'read',
  description: 'One scene file of the agent, with its parsed header.',
  input: () => z.strictObject({ agent: agentParam.optional(), name: z.string().min(1).max(200) }),
  async run(ctx, a) {
    const paths = layersOf(ctx, a.agent);
    const filename = a.name.endsWith('.md') ? a.name : `${a.name}.md`;
    // Only a file the folder listing shows: a name can never reach outside the scenes folder.
    const text = (await listSceneFiles(paths.scenesDir)).includes(filename)
      ? await readRegular(join(paths.scenesDir, filename))
      : undefined;
    if (text === undefined) throw new NotFoundError({ what: `scene of agent ${paths.agentId} named`, id: JSON.stringify(a.name) });
    const { summary, heat, created, updated, body } = parseScene(text);
    return { agent: paths.agentId, name: filename.replace(/\.md$/, ''), text, summary, heat, created, updated, body };
  },
});
