/**
 * Tolerant extraction of a JSON value from model text: models without enforced JSON output wrap
 * it in code fences, prose ("Here is the JSON: ...") or trailing commentary.
 */
const FENCE = /```(?:json|JSON|jsonc)?\s*\n?([\s\S]*?)```/;

/** Returns the first balanced JSON object or array in `text`, or undefined when there is none. */
export function extractJsonText(text: string): string | undefined {
  const fenced = FENCE.exec(text);
  const candidates = fenced?.[1] !== undefined ? [fenced[1], text] : [text];
  for (const candidate of candidates) {
    const found = firstBalanced(candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}

// Each candidate start costs a scan to its end; bounding the starts keeps huge replies linear-ish.
const MAX_STARTS = 64;

function firstBalanced(text: string): string | undefined {
  let starts = 0;
  for (let start = 0; start < text.length; start++) {
    const open = text[start];
    if (open !== '{' && open !== '[') continue;
    if (++starts > MAX_STARTS) return undefined;
    const end = matchingEnd(text, start);
    if (end === undefined) continue;
    const slice = text.slice(start, end + 1);
    try {
      JSON.parse(slice);
      return slice;
    } catch {
      // Balanced but not JSON (e.g. "[note]" in prose): keep scanning.
    }
  }
  return undefined;
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings. */
function matchingEnd(text: string, start: number): number | undefined {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return i;
    }
  }
  return undefined;
}

/** Parses the first JSON value in `text`; `{ ok: false, error }` explains what was wrong. */
export function parseJsonLoose(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const trimmed = text.trim();
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    // fall through to extraction
  }
  const extracted = extractJsonText(trimmed);
  if (extracted === undefined) return { ok: false, error: 'The reply contains no JSON object or array.' };
  return { ok: true, value: JSON.parse(extracted) };
}
