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
}

interface MatcherGroup {
  matcher?: string;
  hooks: CommandHandler[];
}

/**
 * Timeouts in seconds, above the hook's own deadlines (hook-client.ts) so a slow hook logs why.
 * SessionEnd's per-hook timeout raises the host's shared 1.5 s budget. Stop is synchronous: Claude
 * Code kills async hooks when `-p` exits (2.1.197 and 2.1.331 alike), and a capture through the
 * resident process is a round trip.
 */
const EVENT_SETTINGS: Record<HookEvent, { matcher?: string; timeout: number }> = {
  SessionStart: { matcher: 'startup|resume|clear|compact', timeout: 15 },
  UserPromptSubmit: { timeout: 15 },
  PreCompact: { matcher: 'manual|auto', timeout: 30 },
  Stop: { timeout: 30 },
  SessionEnd: { timeout: 10 },
};

/** True for a handler Strata installed: its command runs `hook <Event>` of a `strata` launcher or the fast hook entry. */
export function isStrataHookCommand(command: unknown): boolean {
  return (
    typeof command === 'string' &&
    /(?:strata(?:-memory)?(?:@[^\s"']+)?(?:\.js)?|claude-code\/hook-entry\.[jt]s)["']?\s(?:.*\s)?hook\s+(?:SessionStart|UserPromptSubmit|PreCompact|Stop|SessionEnd)\b/.test(
      command,
    )
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
    const handler: CommandHandler = { type: 'command', command: options.commandFor(event), timeout: s.timeout };
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

/** Adds entries to `permissions.allow` (existing ones kept, no duplicates). */
export function addAllowed(settings: Json, entries: readonly string[]): Json {
  const out = clone(settings);
  if (out.permissions !== undefined && !isObject(out.permissions))
    throw new TypeError('"permissions" is not an object; fix or remove it, then run install again.');
  const permissions: Json = isObject(out.permissions) ? out.permissions : {};
  const allow = permissions.allow;
  if (allow !== undefined && !Array.isArray(allow))
    throw new TypeError('"permissions.allow" is not an array; fix or remove it, then run install again.');
  permissions.allow = [...(allow ?? []), ...entries.filter((e) => !(allow ?? []).includes(e))];
  out.permissions = permissions;
  return out;
}

/** Removes entries from `permissions.allow`, and what that leaves empty. */
export function removeAllowed(settings: Json, entries: readonly string[]): Json {
  const out = clone(settings);
  if (!isObject(out.permissions) || !Array.isArray(out.permissions.allow)) return out;
  out.permissions.allow = out.permissions.allow.filter((e) => !entries.includes(e as string));
  if ((out.permissions.allow as unknown[]).length === 0) delete out.permissions.allow;
  if (Object.keys(out.permissions).length === 0) delete out.permissions;
  return out;
}

/**
 * Project installs: approve `.mcp.json`'s `strata` server for this user (`enabledMcpjsonServers`
 * in `.claude/settings.local.json`); Claude Code still asks once whether to trust the folder.
 */
export function addEnabledMcpjsonServer(settings: Json): Json {
  const out = clone(settings);
  const list = out.enabledMcpjsonServers;
  if (list !== undefined && !Array.isArray(list))
    throw new TypeError('"enabledMcpjsonServers" is not an array; fix or remove it, then run install again.');
  if (!(list ?? []).includes(MCP_SERVER_NAME)) out.enabledMcpjsonServers = [...(list ?? []), MCP_SERVER_NAME];
  return out;
}

export function removeEnabledMcpjsonServer(settings: Json): Json {
  const out = clone(settings);
  if (!Array.isArray(out.enabledMcpjsonServers)) return out;
  out.enabledMcpjsonServers = out.enabledMcpjsonServers.filter((s) => s !== MCP_SERVER_NAME);
  if ((out.enabledMcpjsonServers as unknown[]).length === 0) delete out.enabledMcpjsonServers;
  return out;
}
