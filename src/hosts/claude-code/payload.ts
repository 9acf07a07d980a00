/**
 * Claude Code hook input (stdin JSON), parsed defensively: the format drifts between versions.
 * Node built-ins only (the hook entry parses every call's input).
 */
import { HOOK_EVENTS, type HookEvent } from './settings.js';

export interface HookPayload {
  hookEventName: string;
  sessionId?: string;
  transcriptPath?: string;
  cwd?: string;
  /** SessionStart: startup | resume | clear | compact | fork. */
  source?: string;
  /** UserPromptSubmit. */
  prompt?: string;
  /** SessionEnd reason, PreCompact trigger. */
  reason?: string;
  trigger?: string;
}

/** Bad hook input; `code` matches InvalidArgumentError's so logs read the same. */
export class HookInputError extends Error {
  readonly code = 'INVALID_ARGUMENT';
}

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Throws HookInputError for anything but a JSON object. */
export function parseHookPayload(text: string): HookPayload {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new HookInputError(
      `hook input on stdin is not JSON (${(cause as Error).message}); Claude Code sends one JSON object per hook call.`,
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new HookInputError('hook input on stdin is not a JSON object.');
  }
  const o = raw as Record<string, unknown>;
  return {
    hookEventName: str(o.hook_event_name) ?? '',
    sessionId: str(o.session_id),
    transcriptPath: str(o.transcript_path),
    cwd: str(o.cwd),
    source: str(o.source),
    prompt: typeof o.prompt === 'string' ? o.prompt : undefined,
    reason: str(o.reason),
    trigger: str(o.trigger),
  };
}

/** The resident operation each event maps to, and its input. */
export const HOOK_OPS = {
  SessionStart: 'claude-code.session-start',
  UserPromptSubmit: 'claude-code.prompt',
  PreCompact: 'claude-code.capture',
  Stop: 'claude-code.capture',
  SessionEnd: 'claude-code.capture',
} as const satisfies Record<HookEvent, string>;

export interface HookOpInput {
  event: HookEvent;
  sessionId?: string;
  transcriptPath?: string;
  source?: string;
  prompt?: string;
  /** Capture events: distil what is new afterwards. */
  distill: boolean;
}

/** Validates an operation input that crossed the socket (never trust the wire). */
export function hookOpInput(value: unknown): HookOpInput {
  const o = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const event = typeof o.event === 'string' && isHookEvent(o.event) ? o.event : undefined;
  if (!event) throw new HookInputError(`unknown hook event ${JSON.stringify(o.event)}; expected one of ${HOOK_EVENTS.join(', ')}.`);
  return {
    event,
    sessionId: str(o.sessionId),
    transcriptPath: str(o.transcriptPath),
    source: str(o.source),
    prompt: typeof o.prompt === 'string' ? o.prompt : undefined,
    distill: o.distill !== false,
  };
}
