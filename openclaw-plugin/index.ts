/**
 * OpenClaw entry for development checkouts (OpenClaw loads TypeScript extensions directly).
 * Installed packages use index.js, which loads the compiled build.
 */
export { default } from '../src/hosts/openclaw/index.js';
