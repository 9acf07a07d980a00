/**
 * The slice of the OpenClaw plugin API Strata uses (shapes from host-formats.md section 2). OpenClaw
 * ships no stable types package for external plugins, so these are structural: anything with
 * these members works, including the test harness.
 */
import type { Command } from 'commander';

export interface OpenClawLogger {
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** `PluginHookAgentContext`: every field optional. */
export interface OpenClawHookContext {
  runId?: string;
  agentId?: string;
  sessionKey?: string;
  sessionId?: string;
  workspaceDir?: string;
  trigger?: string;
  [key: string]: unknown;
}

export interface BeforePromptBuildEvent {
  prompt: string;
  messages?: unknown[];
}

export interface PromptBuildResult {
  prependContext?: string;
}

export interface AgentEndEvent {
  runId?: string;
  messages: unknown[];
  success: boolean;
  error?: unknown;
  durationMs?: number;
}

export interface SessionEndEvent {
  sessionId: string;
  sessionKey?: string;
  messageCount?: number;
  reason?: string;
}

/** `before_reset` and `before_compaction` may carry the session's messages. */
export interface FlushEvent {
  messages?: unknown[];
  reason?: string;
}

/**
 * `before_agent_finalize`: OpenClaw awaits it before it delivers a natural final reply, with the
 * session's messages including that reply. A handler returning nothing accepts the reply.
 */
export interface BeforeAgentFinalizeEvent {
  runId?: string;
  sessionId: string;
  sessionKey?: string;
  lastAssistantMessage?: string;
  messages?: unknown[];
}

export interface SessionStartEvent {
  sessionId?: string;
  sessionKey?: string;
}

export interface OpenClawHookMap {
  session_start: (event: SessionStartEvent, ctx: OpenClawHookContext) => Promise<void>;
  before_prompt_build: (event: BeforePromptBuildEvent, ctx: OpenClawHookContext) => Promise<PromptBuildResult | void>;
  before_agent_finalize: (event: BeforeAgentFinalizeEvent, ctx: OpenClawHookContext) => Promise<void>;
  agent_end: (event: AgentEndEvent, ctx: OpenClawHookContext) => Promise<void>;
  session_end: (event: SessionEndEvent, ctx: OpenClawHookContext) => Promise<void>;
  before_reset: (event: FlushEvent, ctx: OpenClawHookContext) => Promise<void>;
  before_compaction: (event: FlushEvent, ctx: OpenClawHookContext) => Promise<void>;
}

export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  details: unknown;
}

/** pi's `AgentTool`; `parameters` is a JSON schema (what TypeBox produces). */
export interface OpenClawTool {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  execute(toolCallId: string, params: unknown, signal?: AbortSignal): Promise<ToolResult>;
}

/** Newer builds call tool factories per agent run with this context. */
export interface ToolFactoryContext {
  agentId?: string;
  sessionKey?: string;
  [key: string]: unknown;
}

export type ToolFactory = (ctx: ToolFactoryContext) => OpenClawTool | null;

export interface ServiceContext {
  stateDir?: string;
  workspaceDir?: string;
  logger?: OpenClawLogger;
  [key: string]: unknown;
}

export interface OpenClawService {
  id: string;
  start(ctx: ServiceContext): Promise<void> | void;
  stop?(ctx: ServiceContext): Promise<void> | void;
}

/** Why OpenClaw is calling `register()` (OpenClaw 2026.9 `PluginRegistrationMode`). */
export type OpenClawRegistrationMode = 'full' | 'discovery' | 'tool-discovery' | 'setup-only' | 'setup-runtime' | 'cli-metadata';

/** `registerMemoryCapability`'s argument (OpenClaw's `MemoryPluginCapability`, the parts Strata fills). */
export interface OpenClawMemoryCapability {
  promptBuilder?: (params: {
    availableTools: Set<string>;
    agentId?: string;
    agentSessionKey?: string;
    sandboxed?: boolean;
    citationsMode?: string;
  }) => string[];
  flushPlanResolver?: (params: { cfg?: unknown; nowMs?: number; contextWindowTokens?: number }) => unknown;
  runtime?: {
    getMemorySearchManager(params: { cfg?: unknown; agentId?: string; purpose?: string }): Promise<{ manager: unknown; error?: string }>;
    resolveMemoryBackendConfig(params: { cfg?: unknown; agentId?: string }): { backend: 'builtin' };
  };
}

export interface OpenClawPluginApi {
  /** Absent on builds before registration modes; treat as `full`. */
  registrationMode?: OpenClawRegistrationMode;
  /** The plugin folder as installed (not the copy OpenClaw may load it from). */
  rootDir?: string;
  /** In-process host runtime (`runtime.llm.complete`, ...); throws where unavailable (cli-metadata). */
  runtime?: unknown;
  /** `plugins.entries.<id>.config`. */
  pluginConfig?: unknown;
  config?: unknown;
  logger: OpenClawLogger;
  resolvePath?(path: string): string;
  on<K extends keyof OpenClawHookMap>(hook: K, handler: OpenClawHookMap[K], options?: { priority?: number; timeoutMs?: number }): void;
  registerTool(tool: OpenClawTool | ToolFactory, options?: { name?: string; names?: string[]; optional?: boolean }): void;
  registerCli(
    registrar: (ctx: { program: Command }) => void | Promise<void>,
    options: { commands: string[]; descriptors?: Array<{ name: string; description: string; hasSubcommands?: boolean }> },
  ): void;
  registerService(service: OpenClawService): void;
  /** OpenClaw 2026.9+: the memory slot owner's prompt section, flush plan and search runtime. */
  registerMemoryCapability?(capability: OpenClawMemoryCapability): void;
}
