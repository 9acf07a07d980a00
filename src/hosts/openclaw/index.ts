/** OpenClaw memory plugin (see openclaw-plugin/ for the package OpenClaw loads). */
import { createOpenClawPlugin } from './plugin.js';

export { createOpenClawPlugin, pluginConfigJsonSchema, type CreateOpenClawPluginOptions, type OpenClawPluginDefinition } from './plugin.js';
export { openClawPluginConfigSchema, parsePluginConfig, strataOverrides, PLUGIN_ID, type OpenClawPluginConfig } from './config.js';
export { AutoRecall, latestUserText, recallQueryOf, type AutoRecallOutcome } from './auto-recall.js';
export { createToolFactories, TOOL_NAMES } from './tools.js';
export { registerStrataCli, CLI_COMMANDS } from './cli.js';
export type * from './types.js';

/** The default plugin entry (what `definePluginEntry({...})` would return). */
const plugin = createOpenClawPlugin();
export default plugin;
export { buildPluginManifest } from './manifest.js';
