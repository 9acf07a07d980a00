/** Claude Code hook input (stdin JSON), parsed defensively: the format drifts between versions. */
import { InvalidArgumentError } from '../../errors/index.js';
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

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Throws InvalidArgumentError for anything but a JSON object. */
export function parseHookPayload(text: string): HookPayload {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new InvalidArgumentError({ argument: 'stdin', message: `hook input on stdin is not JSON (${(cause as Error).message}); Claude Code sends one JSON object per hook call.`, cause });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InvalidArgumentError({ argument: 'stdin', message: 'hook input on stdin is not a JSON object.' });
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
