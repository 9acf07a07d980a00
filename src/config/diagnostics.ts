/** Turns JSON syntax errors, zod issues and secrets-in-config into messages that say where and what to do. */
import { findNodeAtLocation, parse as parseJsonc, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { findSecretKeys, knownKeysAt, llmProviderOf, type StrataConfig } from './schema.js';

type Where = (path: readonly PropertyKey[]) => string;

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

const FRIENDLY: Record<string, string> = {
  PropertyNameExpected: 'expected a property name in double quotes (a trailing comma, or a key without quotes?)',
  ValueExpected: 'expected a value (a trailing comma, or a missing value?)',
  CommaExpected: 'expected a comma between entries',
  ColonExpected: 'expected a colon after the property name',
  CloseBraceExpected: 'expected } (an unclosed object?)',
  CloseBracketExpected: 'expected ] (an unclosed array?)',
  EndOfFileExpected: 'unexpected text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in config.json',
  InvalidSymbol: 'unexpected character (single quotes or an unquoted value?)',
  UnexpectedEndOfString: 'unterminated string',
  InvalidEscapeCharacter: 'invalid escape sequence in a string (write a backslash as \\\\)',
  InvalidCharacter: 'invalid character in a string (a raw line break or control character?)',
};

/** Parses config.json text; a syntax error names the file, line and column. Empty text means defaults. */
export function parseJsonFile(options: { text: string; file: string }): Record<string, unknown> {
  const text = options.text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse rarely reports a position on Node 20; a tolerant parser finds the first error.
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    const where = first ? `:${lineColumn(text, first.offset).line}:${lineColumn(text, first.offset).column}` : '';
    const code = first ? printParseErrorCode(first.error) : undefined;
    const what = code ? (FRIENDLY[code] ?? code) : (error as Error).message;
    throw new ConfigError({
      file: options.file,
      cause: error,
      message: `${options.file}${where}: invalid JSON: ${what}. Fix the file, or delete it to use the defaults (\`strata init\` writes a fresh one).`,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError({
      file: options.file,
      message: `${options.file}: must contain a JSON object such as {"embedder": {"provider": "local"}}, not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}.`,
    });
  }
  return value as Record<string, unknown>;
}

/** `:line:column` of the property at `path` (or its nearest existing parent) in JSON text, or ''. */
export function locateInJson(options: { text: string; path: readonly PropertyKey[] }): string {
  const text = options.text.replace(/^\uFEFF/, '');
  const root = parseTree(text);
  if (!root) return '';
  for (let n = options.path.length; n > 0; n--) {
    const node = findNodeAtLocation(
      root,
      options.path.slice(0, n).map((p) => (typeof p === 'number' ? p : String(p))),
    );
    if (node) {
      const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
      const { line, column } = lineColumn(text, at);
      return `:${line}:${column}`;
    }
  }
  return '';
}

export function assertNoSecretKeys(options: { raw: unknown; where: Where; file?: string }): void {
  const [first] = findSecretKeys(options.raw);
  if (first === undefined) return;
  const path = first.split('.');
  const parent = path.slice(0, -1).join('.');
  const setting = parent ? `${parent}.apiKeyEnv` : 'embedder.apiKeyEnv';
  throw new ConfigError({
    field: first,
    file: options.file,
    message:
      `${options.where(path)}: secrets are never stored in Strata's configuration (it is plain text and easy to share). ` +
      `Remove "${path[path.length - 1]}", put the key in an environment variable and set "${setting}" to that variable's name, e.g. "OPENAI_API_KEY".`,
  });
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length] ?? 0;
}

function unknownKeyHint(parent: readonly PropertyKey[], key: string): string {
  const known = knownKeysAt(parent).filter((k) => k !== '$schema');
  if (known.length === 0) return '';
  const best = known.map((k) => ({ k, d: editDistance(key, k) })).sort((x, y) => x.d - y.d)[0];
  if (best && best.d <= Math.max(2, Math.floor(key.length / 3))) return `; did you mean "${best.k}"?`;
  return `; valid settings here: ${known.join(', ')}`;
}

/** One message for all zod issues (at most five shown), and the first offending field. */
export function describeIssues(options: { issues: readonly z.core.$ZodIssue[]; where: Where }): { field: string; message: string } {
  const lines: Array<{ path: PropertyKey[]; text: string }> = [];
  for (const issue of options.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        lines.push({ path, text: `${options.where(path)}: unknown setting${unknownKeyHint(issue.path, key)}` });
      }
    } else {
      lines.push({ path: [...issue.path], text: `${options.where(issue.path)}: ${issue.message.replace(/\.$/, '')}` });
    }
  }
  const field = lines[0]?.path.map(String).join('.') ?? '';
  const shown = lines.slice(0, 5).map((l) => l.text);
  const more = lines.length > 5 ? `\n  ... and ${lines.length - 5} more` : '';
  const message =
    lines.length === 1
      ? `Invalid configuration: ${shown[0]}.`
      : `Invalid configuration (${lines.length} problems):\n  - ${shown.join('\n  - ')}${more}`;
  return { field, message };
}

function duration(ms: number): string {
  if (ms === 0) return 'no minimum';
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * One line per background-worker section (`layers`, `summaries`, `journal`) for `strata doctor`,
 * saying what will happen with these settings, including when nothing will for lack of an LLM.
 */
export function describeWorkerSettings(options: {
  config: Pick<StrataConfig, 'layers' | 'summaries' | 'journal' | 'llm'>;
}): Array<{ name: string; detail: string }> {
  const { layers, summaries, journal } = options.config;
  const noLlm =
    llmProviderOf({ config: options.config }) === 'none' ? ' (inactive: no LLM configured; set llm.provider and llm.model)' : '';
  const o = layers.organizer;
  const auto = o.auto
    ? `automatic after ${o.everyMemories} new memories, at most every ${duration(o.minIntervalMs)}${noLlm}`
    : 'manual only (strata organize)';
  const persona = layers.persona.regenerateEveryMemories === 0 ? 'on request' : `every ${layers.persona.regenerateEveryMemories} memories`;
  return [
    {
      name: 'layers',
      detail: `organiser ${auto}; scenes <= ${layers.scenes.limit} (${layers.scenes.backups} backups, ${layers.scenes.maxTurns} turns, ${duration(layers.scenes.timeoutMs)}); persona ${persona} (${layers.persona.backups} backups)`,
    },
    {
      name: 'summaries',
      detail: `${summaries.chunkTokens}-token chunks older than ${summaries.boundaryTokens} tokens -> ${summaries.summaryTokens}-token summaries, ${summaries.mergeFanIn} merge per level up to level ${summaries.maxLevel}, every ${duration(summaries.intervalMs)}${noLlm}`,
    },
    {
      name: 'journal',
      detail: `repeat flushes within ${duration(journal.dedupeWindowMs)} skipped, ${journal.attempts} attempts, compile at most every ${duration(journal.compileMinIntervalMs)}, input <= ${journal.maxInputTokens} tokens${noLlm}`,
    },
  ];
}
