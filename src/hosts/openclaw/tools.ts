/**
 * The agent tools: operations of the table (src/core/ops) offered to OpenClaw's model. Each call
 * runs through the calling agent's view of the engine, so validation, limits and scopes are the
 * same as on every other host; a failure comes back as a result the model can read, never a throw.
 * The agent comes from OpenClaw's tool context, never from a parameter: `scope` may only narrow.
 */
import { z } from 'zod';
import {
  DEFAULT_OPS_CONFIG,
  OPERATIONS,
  describeError,
  errorText,
  limitsOf,
  operationJsonSchema,
  type OpLimits,
  type OpName,
  type OperationsRunner,
} from '../../core/ops/index.js';
import type { OpenClawTool, ToolFactory, ToolFactoryContext, ToolResult } from './types.js';

/** The operations OpenClaw's agents get as tools (the manifest's `contracts.tools` lists the same names). */
const OPENCLAW_TOOLS: readonly OpName[] = ['recall', 'remember', 'update', 'forget', 'list', 'stats'];

export const TOOL_NAMES = OPENCLAW_TOOLS.map((name) => OPERATIONS[name].tool!.name);

/**
 * OpenClaw's own parameter names, kept for models used to its memory tools: `memory_forget`
 * takes `memoryId` (one id) besides the table's `ids`.
 */
const ALIASES: Partial<
  Record<OpName, { schema: Record<string, z.ZodType>; translate(params: Record<string, unknown>): Record<string, unknown> }>
> = {
  forget: {
    schema: { memoryId: z.string().min(1).max(64).describe('The id of one memory to delete') },
    translate({ memoryId, ...rest }) {
      if (memoryId === undefined) return rest;
      return { ...rest, ids: [...(Array.isArray(rest.ids) ? rest.ids : []), memoryId] };
    },
  },
};

/** The scope help shown in the schema; the agent is only known per run, the limits once the engine is open. */
const SCHEMA_CALLER = { agentId: 'agent', scopes: ['global', 'agent:<you>', 'granted scopes'], writeScope: 'agent:<you>', owner: false };

function parametersOf(limits: OpLimits, name: OpName): Record<string, unknown> {
  const schema = operationJsonSchema(name, { limits, caller: SCHEMA_CALLER });
  const alias = ALIASES[name];
  if (!alias) return schema;
  const extra = z.toJSONSchema(z.object(alias.schema), { target: 'draft-7' }) as { properties: Record<string, unknown> };
  return { ...schema, properties: { ...(schema.properties as Record<string, unknown>), ...extra.properties } };
}

function failure(error: unknown): ToolResult {
  return { content: [{ type: 'text', text: errorText(error) }], details: { error: describeError(error) } };
}

export interface ToolFactoryDeps {
  /** The operations as an agent: the local engine's view of it, or a Strata service's (remote mode). */
  ops: (agentId: string) => Promise<OperationsRunner>;
  /** Agent used when the tool context names none. */
  defaultAgent: string;
}

/** One factory per tool: OpenClaw calls it per agent run, so the caller's identity is fixed per run. */
export function createToolFactories(deps: ToolFactoryDeps): Array<{ name: string; factory: ToolFactory }> {
  // Schemas show the engine's own limits once it is open (the first run opens it); until then the
  // defaults. Either way every call is checked against the engine's (or the service's) limits.
  let limits: OpLimits | undefined;
  const watchOpen = () => {
    if (!limits)
      void deps.ops(deps.defaultAgent).then(
        (ops) => (limits = ops.limits),
        () => undefined,
      );
  };
  return OPENCLAW_TOOLS.map((name) => {
    const op = OPERATIONS[name];
    const factory: ToolFactory = (ctx: ToolFactoryContext): OpenClawTool => ({
      name: op.tool!.name,
      label: op.tool!.title,
      description: op.description,
      parameters: (watchOpen(), parametersOf(limits ?? limitsOf(DEFAULT_OPS_CONFIG), name)),
      async execute(_toolCallId, params, signal) {
        try {
          const ops = await deps.ops(ctx.agentId || deps.defaultAgent);
          const raw = (params ?? {}) as Record<string, unknown>;
          const input = ALIASES[name] && typeof raw === 'object' ? ALIASES[name].translate(raw) : raw;
          const result = await ops.run(name, input, { abortSignal: signal });
          return { content: [{ type: 'text', text: ops.text(name, result) }], details: ops.forModel(name, result) };
        } catch (error) {
          return failure(error);
        }
      },
    });
    return { name: op.tool!.name, factory };
  });
}
