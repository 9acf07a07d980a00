/**
 * Every operation, keyed by name: the one table MCP tools, OpenClaw tools, HTTP routes and CLI
 * commands are registered from.
 */
import type { z } from 'zod';
import { importMemories, overview, session, sessions } from './browse-ops.js';
import { history, provenance, revert } from './history-ops.js';
import { stats, usage, whoami } from './info-ops.js';
import { persona, scene, scenes } from './layer-ops.js';
import { exportMemories, explain, forget, get, list, recall, remember, update } from './memory-ops.js';
import { context, conversations } from './session-ops.js';
import { capture } from './capture-ops.js';

export const OPERATIONS = {
  recall,
  explain,
  remember,
  update,
  forget,
  list,
  get,
  export: exportMemories,
  stats,
  whoami,
  usage,
  history,
  revert,
  provenance,
  conversations,
  context,
  persona,
  scenes,
  scene,
  sessions,
  session,
  overview,
  import: importMemories,
  capture,
} as const;

export type Operations = typeof OPERATIONS;
export type OpName = keyof Operations;
/** What a caller sends (before defaults), e.g. `OpInput<'recall'>`. */
export type OpInput<N extends OpName> = z.input<ReturnType<Operations[N]['input']>>;
export type OpResult<N extends OpName> = Awaited<ReturnType<Operations[N]['run']>>;

export const OP_NAMES = Object.keys(OPERATIONS) as OpName[];

export function isOpName(name: string): name is OpName {
  return Object.hasOwn(OPERATIONS, name);
}

/** The operations offered to models as tools (MCP, OpenClaw), in table order. */
export function toolOperations(): Array<{ name: OpName; tool: { name: string; title: string } }> {
  return OP_NAMES.flatMap((name) => {
    const tool = (OPERATIONS[name] as { tool?: { name: string; title: string } }).tool;
    return tool ? [{ name, tool }] : [];
  });
}
