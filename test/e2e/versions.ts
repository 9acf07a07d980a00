/**
 * Pinned host versions for the end-to-end suites. Each host is tested on its newest release and on
 * an older one still in use, each on a Node it accepts (OpenClaw >= 2026.9.3 needs Node 24.16+;
 * 2026.9.2 is the newest that accepts Node 22).
 */
export const NODE_22 = '22.23.3';
export const NODE_24 = '24.21.0';

export const OPENCLAW_VERSIONS = [
  { version: '2026.9.6', node: NODE_24 },
  { version: '2026.9.2', node: NODE_22 },
] as const;

export const CLAUDE_CODE_VERSIONS = [
  { version: '2.1.331', node: NODE_24 },
  { version: '2.1.197', node: NODE_22 },
] as const;
