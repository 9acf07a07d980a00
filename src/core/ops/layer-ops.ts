/**
 * Read-only access to an agent's L3 persona and L2 scenes, read through the engine's layer store
 * (files under the home by default: `<home>/persona/<agent>.md`, `<home>/scenes/<agent>/*.md`;
 * or the shared database), shown only where the organiser has written them. A caller reads its
 * own agent's, or another agent's whose `agent:<id>` scope it holds.
 */
import { z } from 'zod';
import { InvalidArgumentError, NotFoundError } from '../../errors/index.js';
import { canReadAgent, scopeNotAllowed } from '../caller.js';
import { FileLayerStore } from '../layers/file-store.js';
import { layerPaths, type LayerPaths } from '../layers/paths.js';
import { readPersonaText, readSceneText, readScenes } from '../layers/read.js';
import { parseScene } from '../layers/scene-file.js';
import type { LayerStoreV1 } from '../../spec/layer-store.js';
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

/** The engine's layer store; an engine without one reads the files under its home. */
function storeOf(ctx: OpContext): LayerStoreV1 {
  return ctx.engine.layerStore ?? new FileLayerStore({ home: ctx.engine.home });
}

export const persona = defineOperation({
  name: 'persona',
  access: 'read',
  description: "The agent's persona (L3): who it works for and how, distilled from its memories.",
  input: () => z.strictObject({ agent: agentParam.optional() }),
  async run(ctx, a) {
    const paths = layersOf(ctx, a.agent);
    const text = await readPersonaText(storeOf(ctx), paths.agentId);
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
    const entries = await readScenes(storeOf(ctx), paths.agentId);
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
    // Only a scene name the store holds: a name can never reach outside the scenes.
    const text = await readSceneText(storeOf(ctx), paths.agentId, filename);
    if (text === undefined) throw new NotFoundError({ what: `scene of agent ${paths.agentId} named`, id: JSON.stringify(a.name) });
    const { summary, heat, created, updated, body } = parseScene(text);
    return { agent: paths.agentId, name: filename.replace(/\.md$/, ''), text, summary, heat, created, updated, body };
  },
});
