/**
 * The agent tools: operations of the table (src/core/ops) offered to OpenClaw's model. Each call
 * runs through the calling agent's view of the engine, so validation, limits and scopes are the
 * same as on every other host; a failure comes back as a result the model can read, never a throw.
 * The agent comes from OpenClaw's tool context, never from a parameter: `scope` may only narrow.
 */
import { z } from 'zod';
import { resolveCaller } from '../../core/caller.js';
import { CallerOperations, DEFAULT_OPS_CONFIG, OPERATIONS, describeError, errorText, type OpName } from '../../core/ops/index.js';
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
const ALIASES: Partial<Record<OpName, { schema: Record<string, z.ZodType>; translate(params: Record<string, unknown>): Record<string, unknown> }>> = {
  forget: {
    schema: { memoryId: z.string().min(1).max(64).describe('The id of one memory to delete') },
    translate({ memoryId, ...rest }) {
      if (memoryId === undefined) return rest;
      return { ...rest, ids: [...(Array.isArray(rest.ids) ? rest.ids : []), memoryId] };
    },
  },
};

/** Schemas shown to the model before the engine is open use the default limits; the call itself is checked against the real ones. */
function schemaView(): CallerOperations {
  const caller = { agentId: 'agent', scopes: ['global', 'agent:<you>', 'granted scopes'], writeScope: 'agent:<you>', owner: false };
  const engine = { config: DEFAULT_OPS_CONFIG } as unknown as ConstructorParameters<typeof CallerOperations>[0]['engine'];
  return new CallerOperations({ engine, caller, actor: ACTOR, l0Records: async function* () {} });
}

function parametersOf(view: CallerOperations, name: OpName): Record<string, unknown> {
  const schema = view.jsonSchema(name);
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
  const shown = schemaView();
  return OPENCLAW_TOOLS.map((name) => {
    const op = OPERATIONS[name];
    const parameters = parametersOf(shown, name);
    const factory: ToolFactory = (ctx: ToolFactoryContext): OpenClawTool => ({
      name: op.tool!.name,
      label: op.tool!.title,
      description: op.description,
      parameters,
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
