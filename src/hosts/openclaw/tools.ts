/**
 * The agent tools: operations of the table (src/core/ops) offered to OpenClaw's model. Each call
 * runs through the calling agent's view of the engine, so validation, limits and scopes are the
 * same as on every other host; a failure comes back as a result the model can read, never a throw.
 * The agent comes from OpenClaw's tool context, never from a parameter: `scope` may only narrow.
 */
import { z } from 'zod';
import { resolveCaller } from '../../core/caller.js';
import {
  DEFAULT_OPS_CONFIG,
  OPERATIONS,
  describeError,
  errorText,
  limitsOf,
  operationJsonSchema,
  type OpName,
  type OpsConfig,
} from '../../core/ops/index.js';
import type { Strata } from '../../strata.js';
import type { OpenClawTool, ToolFactory, ToolFactoryContext, ToolResult } from './types.js';

const ACTOR = 'openclaw';

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

function parametersOf(config: OpsConfig, name: OpName): Record<string, unknown> {
  const schema = operationJsonSchema(name, { limits: limitsOf(config), caller: SCHEMA_CALLER });
  const alias = ALIASES[name];
  if (!alias) return schema;
  const extra = z.toJSONSchema(z.object(alias.schema), { target: 'draft-7' }) as { properties: Record<string, unknown> };
  return { ...schema, properties: { ...(schema.properties as Record<string, unknown>), ...extra.properties } };
}

function failure(error: unknown): ToolResult {
  return { content: [{ type: 'text', text: errorText(error) }], details: { error: describeError(error) } };
}

export interface ToolFactoryDeps {
  strata: () => Promise<Strata>;
  /** Agent used when the tool context names none. */
  defaultAgent: string;
}

/** One factory per tool: OpenClaw calls it per agent run, so the caller's identity is fixed per run. */
export function createToolFactories(deps: ToolFactoryDeps): Array<{ name: string; factory: ToolFactory }> {
  // Schemas show the engine's own limits once it is open (the first run opens it); until then the
  // defaults. Either way every call is checked against the engine's limits.
  let config: OpsConfig | undefined;
  const watchOpen = () => {
    if (!config)
      void deps.strata().then(
        (s) => (config = s.config),
        () => undefined,
      );
  };
  return OPENCLAW_TOOLS.map((name) => {
    const op = OPERATIONS[name];
    const factory: ToolFactory = (ctx: ToolFactoryContext): OpenClawTool => ({
      name: op.tool!.name,
      label: op.tool!.title,
      description: op.description,
      parameters: (watchOpen(), parametersOf(config ?? DEFAULT_OPS_CONFIG, name)),
      async execute(_toolCallId, params, signal) {
        try {
          const strata = await deps.strata();
          const ops = strata.as(resolveCaller({ config: strata.config, agentId: ctx.agentId || deps.defaultAgent }), { actor: ACTOR });
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
