/**
 * Where the L2/L3 files live. Scenes and persona use the paths the MCP and HTTP hosts read:
 * `<home>/scenes/<agent>/*.md` and `<home>/persona/<agent>.md`. The scene index is a hidden file
 * in the scenes folder (hosts and the organiser's sandbox never see hidden files); checkpoint,
 * lock and backups live in `<home>/layers/<agent>/`, outside everything the model can reach.
 */
import { join } from 'node:path';
import { InvalidArgumentError } from '../../errors/index.js';

/** Same alphabet the hosts accept, so a file written here is always visible to them. */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface LayerPaths {
  agentId: string;
  scenesDir: string;
  indexFile: string;
  personaFile: string;
  stateDir: string;
  checkpointFile: string;
  lockFile: string;
  sceneBackupsDir: string;
  personaBackupsDir: string;
}

export function assertAgentId(agentId: string): string {
  if (!AGENT_ID.test(agentId) || agentId.includes('..')) {
    throw new InvalidArgumentError({
      argument: 'agentId',
      message: `Invalid agent id ${JSON.stringify(agentId)} for scenes/persona: use letters, digits, '.', '_' and '-' (at most 128 characters, starting with a letter or digit).`,
    });
  }
  return agentId;
}

export function layerPaths(options: { home: string; agentId: string }): LayerPaths {
  const agentId = assertAgentId(options.agentId);
  const scenesDir = join(options.home, 'scenes', agentId);
  const stateDir = join(options.home, 'layers', agentId);
  return {
    agentId,
    scenesDir,
    indexFile: join(scenesDir, '.index.json'),
    personaFile: join(options.home, 'persona', `${agentId}.md`),
    stateDir,
    checkpointFile: join(stateDir, 'checkpoint.json'),
    lockFile: join(stateDir, 'organize.lock'),
    sceneBackupsDir: join(stateDir, 'scene-backups'),
    personaBackupsDir: join(stateDir, 'persona-backups'),
  };
}
