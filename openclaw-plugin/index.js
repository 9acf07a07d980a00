// OpenClaw's entry for Strata. OpenClaw loads it with require() (natively on 2026.9.6, through jiti
// on 2026.9.2) and may load it from a copy of this folder under <state>/tmp/plugin-captures, so:
// no top-level await, no import.meta, and the engine is located from `api.rootDir` (the folder as
// installed, which OpenClaw reports) rather than from this file's own location. The engine is
// required from the installed package itself, so OpenClaw copies this small folder, not Strata's
// dependency tree, and every registration in the process shares one loaded engine module.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

function loadPlugin(api) {
  const root = api && api.rootDir;
  if (!root) throw new Error('strata: this OpenClaw did not report the plugin folder (api.rootDir); OpenClaw 2026.9 or newer is required.');
  const built = join(root, '..', 'dist', 'hosts', 'openclaw', 'entry.js');
  if (!existsSync(built)) {
    throw new Error(
      `strata: ${built} is missing; reinstall strata-memory (npm install -g strata-memory), or run \`npm run build\` in a source checkout.`,
    );
  }
  const load = createRequire(join(root, 'package.json'));
  return load(built).default;
}

export default {
  id: 'strata',
  name: 'Strata memory',
  description: 'Long-term memory for OpenClaw agents: automatic recall, conversation capture and distillation, memory tools.',
  register(api) {
    return loadPlugin(api).register(api);
  },
};
