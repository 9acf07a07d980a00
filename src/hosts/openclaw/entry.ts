/**
 * What openclaw-plugin/index.js loads: the plugin definition and nothing else, so a registration
 * (OpenClaw makes several per process) does not load the engine, LanceDB or the CLI.
 */
import { createOpenClawPlugin } from './plugin.js';

export default createOpenClawPlugin();
