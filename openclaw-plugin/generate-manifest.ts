// Rewrites openclaw.plugin.json from src/hosts/openclaw/manifest.ts: `npx tsx openclaw-plugin/generate-manifest.ts`.
import { writeFileSync } from 'node:fs';
import { buildPluginManifest } from '../src/hosts/openclaw/manifest.js';

writeFileSync(new URL('./openclaw.plugin.json', import.meta.url), JSON.stringify(buildPluginManifest(), null, 2) + '\n');
