/**
 * The plugin's config (`plugins.entries.strata.config` in openclaw.json). OpenClaw validates it
 * against the manifest's JSON schema before loading the plugin; this zod schema is the same
 * contract applied again at runtime (a test keeps the two in step) and fills in the defaults.
 */
import { z } from 'zod';
import { ConfigError } from '../../errors/index.js';
import { isValidScope } from '../../core/scope.js';
import type { StrataConfigOverrides } from '../../config/load.js';

export const PLUGIN_ID = 'strata';

const agentId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@\-/:]{0,127}$/);
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'expected an environment variable name' });
const scope = z.string().refine(isValidScope, { message: 'expected a scope such as global, agent:<id> or project:<id>' });

export const openClawPluginConfigSchema = z.strictObject({
  home: z.string().min(1).optional().describe('Strata home directory; default $STRATA_HOME, else ~/.strata'),
  defaultAgent: agentId.default('main').describe('Agent id used when OpenClaw names none'),
  agentGrants: z
    .record(agentId, z.array(scope))
    .default({})
    .describe('Extra scopes per agent besides global and agent:<id>, e.g. {"coder": ["project:strata"]}'),
  autoRecall: z.boolean().default(true).describe('Inject relevant memories before each prompt'),
  recallLimit: z.number().int().min(1).max(20).default(5).describe('Most memories injected per turn'),
  recallMaxTokens: z.number().int().min(100).max(10_000).default(800).describe('Token budget of the injected block'),
  recallTimeoutMs: z.number().int().min(50).max(60_000).default(1500).describe('A slower automatic recall is skipped so the turn goes on'),
  recallCooldownMs: z
    .number()
    .int()
    .min(0)
    .max(3_600_000)
    .default(60_000)
    .describe('After a timeout, automatic recall for that agent pauses this long'),
  autoCapture: z.boolean().default(true).describe('Record conversations (successful runs) for distillation'),
  distill: z
    .strictObject({
      enabled: z.boolean().default(true).describe('Run the background distiller as an OpenClaw service'),
      onSessionEnd: z.boolean().default(true).describe('Distil right after a session ends, resets or compacts'),
      everyMessages: z.number().int().min(1).max(10_000).optional().describe('Distil after this many new messages'),
      idleMs: z.number().int().min(1000).max(86_400_000).optional().describe('Distil when new messages sat idle this long'),
    })
    .prefault({})
    .describe('Distillation of captured conversations into memories'),
  remote: z
    .strictObject({
      url: z
        .url({ protocol: /^https?$/ })
        .optional()
        .describe('A strata serve service to use instead of a local store (else $STRATA_URL)'),
      tokenEnv: envName
        .optional()
        .describe("The NAME of the gateway's environment variable holding the bearer token (default STRATA_TOKEN)"),
    })
    .optional()
    .describe('Remote mode: memories, recall and capture go to this Strata service; nothing is stored or distilled here'),
  strata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Further Strata config (as in <home>/config.json: embedder, recall, llm...), deep-merged over the file'),
});

export type OpenClawPluginConfig = z.output<typeof openClawPluginConfigSchema>;

export function parsePluginConfig(raw: unknown): OpenClawPluginConfig {
  const parsed = openClawPluginConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue ? issue.path.join('.') : '';
    throw new ConfigError({
      field: `plugins.entries.${PLUGIN_ID}.config${field ? `.${field}` : ''}`,
      message: `Invalid Strata plugin config at ${field || '(root)'}: ${issue?.message ?? 'invalid'}. Fix plugins.entries.${PLUGIN_ID}.config in openclaw.json.`,
    });
  }
  return parsed.data;
}

/** The overrides handed to `Strata.open`: the free-form `strata` block plus the plugin's own settings. */
export function strataOverrides(config: OpenClawPluginConfig): StrataConfigOverrides {
  const base = (config.strata ?? {}) as StrataConfigOverrides & Record<string, unknown>;
  const scopes = (base.scopes ?? {}) as { agentGrants?: Record<string, string[]> };
  const scheduler = {
    ...(config.distill.everyMessages ? { everyMessages: config.distill.everyMessages } : {}),
    ...(config.distill.idleMs ? { idleMs: config.distill.idleMs } : {}),
  };
  const remote = { ...(base.remote as object | undefined), ...config.remote };
  return {
    ...base,
    ...(Object.keys(remote).length > 0 ? { remote } : {}),
    scopes: { ...scopes, agentGrants: { ...scopes.agentGrants, ...config.agentGrants } },
    ...(Object.keys(scheduler).length > 0 ? { distill: { ...base.distill, scheduler: { ...base.distill?.scheduler, ...scheduler } } } : {}),
  } as StrataConfigOverrides;
}
