/**
 * Pure edits of Claude Code's `settings.json` (hooks) and MCP config files (`.mcp.json`,
 * `~/.claude.json`). Strata's handlers are recognised by their command (`… strata… hook <Event>`),
 * so uninstall removes exactly them and leaves everyone else's hooks and settings alone.
 */

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const MCP_SERVER_NAME = 'strata';

type Json = Record<string, unknown>;

export interface CommandHandler {
  type: 'command';
  command: string;
  timeout?: number;
  async?: boolean;
}

interface MatcherGroup {
  matcher?: string;
  hooks: CommandHandler[];
}

/**
 * Timeouts in seconds. SessionEnd's per-hook timeout raises the host's shared 1.5 s budget (the
 * hook itself returns well inside 1.5 s; this is headroom for a cold disk). Stop runs async: it
 * only captures, so the user never waits for it.
 */
const EVENT_SETTINGS: Record<HookEvent, { matcher?: string; timeout: number; async?: boolean }> = {
  SessionStart: { matcher: 'startup|resume|clear|compact', timeout: 15 },
  UserPromptSubmit: { timeout: 15 },
  PreCompact: { matcher: 'manual|auto', timeout: 30 },
  Stop: { timeout: 30, async: true },
  SessionEnd: { timeout: 10 },
};

/** True for a handler Strata installed: its command runs `hook <Event>` of a `strata` launcher or the fast hook entry. */
export function isStrataHookCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    /(?:strata(?:-memory)?(?:\.js)?|claude-code\/hook-entry\.[jt]s)["']?\s(?:.*\s)?hook\s+(?:SessionStart|UserPromptSubmit|PreCompact|Stop|SessionEnd)\b/.test(command)
  );
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Removes Strata's handlers (and groups/events left empty by that); returns a new object. */
export function removeStrataHooks(settings: Json): Json {
  const out = clone(settings);
  if (!isObject(out.hooks)) return out;
  const hooks = out.hooks;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const handlers = group.hooks.filter((h) => !(isObject(h) && isStrataHookCommand(h.command)));
      if (handlers.length === group.hooks.length) kept.push(group);
      else if (handlers.length > 0) kept.push({ ...group, hooks: handlers });
    }
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (Object.keys(hooks).length === 0) delete out.hooks;
  return out;
}

/**
 * Adds one matcher group per event running `commandFor(event)`, after removing any earlier Strata
 * handlers (so re-installing with another command replaces rather than duplicates).
 */
export function addStrataHooks(options: { settings: Json; commandFor: (event: HookEvent) => string }): Json {
  const out = removeStrataHooks(options.settings);
  if (out.hooks !== undefined && !isObject(out.hooks)) {
    throw new TypeError('"hooks" in settings.json is not an object; fix or remove it, then run install again.');
  }
  const hooks: Json = isObject(out.hooks) ? out.hooks : {};
  for (const event of HOOK_EVENTS) {
    const s = EVENT_SETTINGS[event];
    const handler: CommandHandler = { type: 'command', command: options.commandFor(event), timeout: s.timeout, ...(s.async ? { async: true } : {}) };
    const group: MatcherGroup = { ...(s.matcher ? { matcher: s.matcher } : {}), hooks: [handler] };
    const existing = hooks[event];
    if (existing !== undefined && !Array.isArray(existing)) {
      throw new TypeError(`"hooks.${event}" in settings.json is not an array; fix or remove it, then run install again.`);
    }
    hooks[event] = [...(existing ?? []), group];
  }
  out.hooks = hooks;
  return out;
}

export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Sets `mcpServers.strata` (replacing an older Strata entry); other servers are untouched. */
export function addMcpServer(options: { config: Json; entry: McpServerEntry }): Json {
  const out = clone(options.config);
  if (out.mcpServers !== undefined && !isObject(out.mcpServers)) {
    throw new TypeError('"mcpServers" is not an object; fix or remove it, then run install again.');
  }
  out.mcpServers = { ...(isObject(out.mcpServers) ? out.mcpServers : {}), [MCP_SERVER_NAME]: options.entry };
  return out;
}

export function removeMcpServer(config: Json): Json {
  const out = clone(config);
  if (!isObject(out.mcpServers) || !(MCP_SERVER_NAME in out.mcpServers)) return out;
  delete out.mcpServers[MCP_SERVER_NAME];
  if (Object.keys(out.mcpServers).length === 0) delete out.mcpServers;
  return out;
}
