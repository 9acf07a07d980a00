export { layerPaths, assertAgentId, type LayerPaths } from './paths.js';
export {
  parseScene,
  serializeScene,
  isDeadScene,
  normalizeSceneName,
  DELETED_MARKER,
  type SceneDoc,
  type SceneMeta,
} from './scene-file.js';
export { readSceneIndex, syncSceneIndex, scanScenes, listSceneFiles, type SceneIndexEntry } from './scene-index.js';
export { createSceneSandbox, SCENE_TOOLS, DEFAULT_MAX_SCENE_BYTES, type SceneSandbox, type ToolOutcome } from './sandbox.js';
export { capacityGuidance, parsePersonaUpdateRequest, type CapacityTier } from './prompts.js';
export {
  readPersona,
  sceneNavigation,
  stripSceneNavigation,
  updatePersonaNavigation,
  generatePersona,
  NAV_OPEN,
  NAV_CLOSE,
  type PersonaResult,
} from './persona.js';
export { readCheckpoint, type LayerCheckpoint } from './checkpoint.js';
export { organizeScenes, type OrganizeOptions, type OrganizeReport, type MemoryLister } from './organiser.js';
export { buildContext, type BuildContextOptions, type ContextResult, type ContextSource } from './context.js';
export {
  autoOrganize,
  agentsOfMemories,
  describeAutoOrganize,
  type AutoOrganizeOptions,
  type AutoOrganizeResult,
} from './auto-organize.js';
export { ORGANIZE_DEFAULTS, AUTO_ORGANIZE_DEFAULTS } from './defaults.js';
