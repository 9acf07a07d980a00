/**
 * `openclaw.plugin.json`: OpenClaw reads it without running plugin code (to validate config and
 * list tools), so it is a static file; this function is its source and a test keeps them equal.
 * Regenerate with `npx tsx openclaw-plugin/generate-manifest.ts`.
 */
import { PLUGIN_ID } from './config.js';
import { pluginConfigJsonSchema } from './plugin.js';
import { ORGANISER_TOOL_NAMES } from './organiser-runner.js';
import { TOOL_NAMES } from './tools.js';

export function buildPluginManifest(): Record<string, unknown> {
  return {
    id: PLUGIN_ID,
    name: 'Strata memory',
    description: 'Long-term memory for OpenClaw agents: automatic recall, conversation capture and distillation, memory tools.',
    version: '0.1.0',
    kind: 'memory',
    activation: { onStartup: true },
    contracts: { tools: [...TOOL_NAMES, ...ORGANISER_TOOL_NAMES].sort() },
    cliCommands: ['strata'],
    uiHints: {
      home: {
        label: 'Strata Home',
        placeholder: '~/.strata',
        help: 'Directory holding the memory store, config.json and the conversation log',
        advanced: true,
      },
      defaultAgent: { label: 'Default Agent', placeholder: 'main', advanced: true },
      agentGrants: {
        label: 'Agent Scope Grants',
        help: 'Extra scopes each agent may read, e.g. {"coder": ["project:strata"]}',
        advanced: true,
      },
      autoRecall: { label: 'Auto-Recall', help: 'Automatically inject relevant memories into context' },
      recallLimit: { label: 'Recall Limit', placeholder: '5' },
      recallMaxTokens: { label: 'Recall Token Budget', placeholder: '800', advanced: true },
      recallTimeoutMs: {
        label: 'Recall Timeout (ms)',
        placeholder: '1500',
        help: 'A slower recall is skipped and auto-recall pauses for the cooldown',
        advanced: true,
      },
      recallCooldownMs: { label: 'Recall Cooldown (ms)', placeholder: '60000', advanced: true },
      autoCapture: { label: 'Auto-Capture', help: 'Record conversations and distil them into memories' },
      'distill.enabled': { label: 'Background Distillation' },
      'distill.onSessionEnd': { label: 'Distil at Session End' },
      'distill.everyMessages': { label: 'Distil Every N Messages', placeholder: '20', advanced: true },
      'distill.idleMs': { label: 'Distil After Idle (ms)', placeholder: '300000', advanced: true },
      'remote.url': {
        label: 'Strata Service URL',
        placeholder: 'http://memory.internal:7777',
        help: 'Use a shared `strata serve` instead of a local store (else $STRATA_URL)',
        advanced: true,
      },
      'remote.tokenEnv': { label: 'Service Token Variable', placeholder: 'STRATA_TOKEN', advanced: true },
      strata: {
        label: 'Strata Config',
        help: 'Further Strata settings (embedder, recall, llm, ...) as in <home>/config.json',
        advanced: true,
      },
    },
    configSchema: pluginConfigJsonSchema(),
  };
}
