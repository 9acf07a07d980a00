/**
 * What an operation is: defined once here, registered by every host. A host only translates its
 * protocol (a tool call, an HTTP route, a command line) into `view.run(name, input)` and the
 * result or error back; validation, scopes and limits all live in the operation.
 */
import type { z } from 'zod';
import type { ConversationSearchHit, L0Record } from '../../spec/conversation.js';
import type { L0SessionInfo } from '../../spec/l0-log.js';
import type { LayerStoreV1 } from '../../spec/layer-store.js';
import type { UsageLogV1 } from '../../spec/usage-log.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import type { HistoryEntry, RevertResult } from '../history/index.js';
import type { Caller } from '../caller.js';
import type { InputContext } from './inputs.js';
import type { OpLimits, OpsConfig } from './limits.js';

/** read: changes nothing; write: changes memories; owner: needs owner mode (`--all-scopes`). */
export type AccessKind = 'read' | 'write' | 'owner';

/** The engine as the operations see it; `Strata` is one. */
export interface OpsEngine extends Pick<
  MemoryEngine,
  'recall' | 'remember' | 'update' | 'forget' | 'get' | 'list' | 'count' | 'stats' | 'export' | 'import'
> {
  readonly home: string;
  readonly config: OpsConfig;
  /** Where LLM calls are logged; default the files under `home`. */
  readonly usageLog?: UsageLogV1;
  /** Where scenes and persona are kept; default the files under `home`. */
  readonly layerStore?: LayerStoreV1;
  history(options: { id: string }): Promise<HistoryEntry[]>;
  /** `accept` sees the change about to be undone and may refuse it (the caller's scope check). */
  revert(options: { id: string; actor?: string; accept?: (entry: HistoryEntry) => boolean }): Promise<RevertResult>;
  /** `agentIds` undefined: every agent (owner only); empty: no conversations. */
  searchConversations(options: {
    query: string;
    limit: number;
    agentIds?: string[];
    sessionKey?: string;
    abortSignal?: AbortSignal;
  }): Promise<ConversationSearchHit[]>;
  /** Sessions of the L0 log, most recently active first. */
  sessions(options: { agentId?: string; abortSignal?: AbortSignal }): Promise<L0SessionInfo[]>;
  /** Every message of one session, in log order. */
  sessionMessages(options: { agentId: string; sessionKey: string; abortSignal?: AbortSignal }): Promise<L0Record[]>;
  /** Appends cleaned records to the L0 log (dropping those it holds) and indexes them. */
  appendConversation(options: { records: L0Record[]; abortSignal?: AbortSignal }): Promise<{ written: number; duplicates: number }>;
}

export interface OpsDeps {
  engine: OpsEngine;
  caller: Caller;
  /** The history log's actor for changes made through this view: `cli`, `mcp`, `api`, `openclaw`... */
  actor: string;
  /** The L0 conversation log, oldest first (provenance looks a memory's source messages up in it). */
  l0Records(): AsyncIterable<L0Record>;
}

export interface OpContext extends OpsDeps {
  limits: OpLimits;
  abortSignal?: AbortSignal;
  /**
   * The scopes a read covers: the requested subset of the caller's scopes, else its defaults
   * (for an owner: every scope the store holds).
   */
  readScopes(requested?: string | readonly string[]): Promise<string[]>;
}

export interface Operation<S extends z.ZodType = z.ZodType, R = unknown> {
  name: string;
  access: AccessKind;
  /** Model-facing: what it does and when to use it. */
  description: string;
  /** The tool name on model-facing hosts (MCP, OpenClaw); absent: not offered as a tool. */
  tool?: { name: string; title: string };
  /** The input schema, built from the engine's limits (and the caller, for scope help texts). */
  input(ctx: InputContext): S;
  run(ctx: OpContext, input: z.output<S>): Promise<R>;
  /** Compact result for a model (default: the result as is). */
  forModel?(result: R): unknown;
  /** The result as prose, for hosts that show the model text (OpenClaw). Default: JSON of forModel. */
  text?(result: R): string;
}

/** Keeps each operation's input and result types tied together. */
export function defineOperation<S extends z.ZodType, R>(op: Operation<S, R>): Operation<S, R> {
  return op;
}
