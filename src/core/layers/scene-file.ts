/**
 * One scene file: a small metadata header, then free Markdown.
 *
 *   ---
 *   summary: "JSON-encoded one-line string"
 *   heat: 3
 *   created: 2026-01-05T10:00:00.000Z
 *   updated: 2026-01-06T08:00:00.000Z
 *   ---
 *   <body>
 *
 * The summary is JSON-encoded so any text (newlines, colons, `---`) round-trips exactly. Files
 * without a header (written by hand) still parse: the first non-empty line becomes the summary.
 */
export interface SceneMeta {
  summary: string;
  /** How often the organiser touched the scene; a rough measure of how alive the topic is. */
  heat: number;
  created: string;
  updated: string;
}

export interface SceneDoc extends SceneMeta {
  body: string;
}

export const DELETED_MARKER = '[DELETED]';
const OPEN = '---\n';
const CLOSE = '\n---\n';

export function serializeScene(doc: SceneDoc): string {
  const header = [
    `summary: ${JSON.stringify(doc.summary)}`,
    `heat: ${doc.heat}`,
    `created: ${doc.created}`,
    `updated: ${doc.updated}`,
  ].join('\n');
  return `${OPEN}${header}${CLOSE}${doc.body}`;
}

function parseHeader(text: string): SceneMeta | undefined {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([a-z]+):\s?(.*)$/.exec(line);
    if (!match) return undefined;
    fields.set(match[1]!, match[2]!);
  }
  let summary = fields.get('summary') ?? '';
  if (summary.startsWith('"')) {
    try {
      const decoded: unknown = JSON.parse(summary);
      if (typeof decoded === 'string') summary = decoded;
    } catch {
      // a hand-edited, badly quoted summary: keep the raw text
    }
  }
  const heat = Number(fields.get('heat') ?? 0);
  return {
    summary,
    heat: Number.isFinite(heat) && heat >= 0 ? Math.floor(heat) : 0,
    created: fields.get('created') ?? '',
    updated: fields.get('updated') ?? '',
  };
}

/** Parses a scene file; `fallbackTime` fills in dates a header-less file lacks (e.g. its mtime). */
export function parseScene(raw: string, fallbackTime = ''): SceneDoc {
  // No newline normalisation: the body must round-trip byte for byte.
  const text = raw;
  if (text.startsWith(OPEN)) {
    const end = text.indexOf(CLOSE, OPEN.length - 1);
    if (end >= 0) {
      const meta = parseHeader(text.slice(OPEN.length, end));
      if (meta) {
        return {
          ...meta,
          created: meta.created || fallbackTime,
          updated: meta.updated || fallbackTime,
          body: text.slice(end + CLOSE.length),
        };
      }
    }
  }
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return {
    summary: firstLine
      .replace(/^#+\s*/, '')
      .trim()
      .slice(0, 200),
    heat: 0,
    created: fallbackTime,
    updated: fallbackTime,
    body: text,
  };
}

/** Soft-deleted (marker), empty, or header-only: the cleanup after a run removes these. */
export function isDeadScene(raw: string): boolean {
  const trimmed = raw.trim();
  if (trimmed === '' || trimmed === DELETED_MARKER) return true;
  const doc = parseScene(raw);
  const body = doc.body.trim();
  return body === '' || body === DELETED_MARKER;
}

/**
 * A canonical scene file name: ASCII letters, digits, `-` and `_`, lower case, `.md`. Models
 * sometimes produce `Daily Rhythm.md`; such names break links, shells and the hosts' name check.
 */
export function normalizeSceneName(filename: string): string {
  const stem = filename.replace(/\.md$/i, '');
  const ascii = stem.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const slug = ascii
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 80);
  return `${slug || 'scene'}.md`;
}
