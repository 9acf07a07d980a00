/**
 * `npm run bench -- redaction`: redaction on real transcripts (../shared/fixtures), which hold no
 * planted secrets. Every string value of every JSON line is redacted (message text, tool input and
 * output, ids, paths: a stricter test than message text alone); every replacement is printed with
 * what it replaced so it can be judged, and the table gives replacements per 1,000 strings and the
 * share of messages (user/assistant text) touched. Also times the redactor (noisy under load).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../src/core/write/redact.js';

const ROOT = new URL('../../shared/fixtures/', import.meta.url).pathname;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

function strings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
}

/** What each marker replaced: the literal parts between markers occur in order in the original. */
function replaced(original: string, redacted: string): Array<{ kind: string; was: string }> {
  const parts = redacted.split(/(\[REDACTED:[a-z0-9-]+\])/);
  const out: Array<{ kind: string; was: string }> = [];
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 0) {
      at = original.indexOf(part, at) + part.length;
      continue;
    }
    const next = parts[i + 1] ?? '';
    const end = next === '' ? original.length : original.indexOf(next, at);
    out.push({ kind: part.slice(10, -1), was: original.slice(at, end) });
    at = end;
  }
  return out;
}

export async function runRedactionBench(): Promise<void> {
  const all = files(ROOT);
  let lines = 0;
  let total = 0;
  let touched = 0;
  let messages = 0;
  let messagesTouched = 0;
  let chars = 0;
  let ms = 0;
  const byKind = new Map<string, number>();
  const hits: string[] = [];
  for (const file of all) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      lines++;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      const values: string[] = [];
      strings(parsed, values);
      const isMessage = /"role":"(?:user|assistant)"|"type":"(?:user|assistant)"/.test(line);
      let lineTouched = false;
      for (const value of values) {
        total++;
        chars += value.length;
        const started = performance.now();
        const result = redactSecrets(value);
        ms += performance.now() - started;
        if (result.count === 0) continue;
        touched++;
        lineTouched = true;
        for (const r of replaced(value, result.text)) {
          byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
          hits.push(`${r.kind.padEnd(20)} ${JSON.stringify(r.was.slice(0, 120))}  <- ${file.slice(ROOT.length)}`);
        }
      }
      if (isMessage) {
        messages++;
        if (lineTouched) messagesTouched++;
      }
    }
  }
  console.log(`\nReplacements on real transcripts (${all.length} files, ${lines} lines); judge each:`);
  for (const h of hits) console.log(`  ${h}`);
  console.log('\n| strings | strings redacted | per 1,000 strings | message lines | message lines redacted | MB | redactor ms | MB/s |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${total} | ${touched} | ${((touched / total) * 1000).toFixed(2)} | ${messages} | ${messagesTouched} (${((messagesTouched / Math.max(1, messages)) * 100).toFixed(2)}%) | ${(chars / 1e6).toFixed(1)} | ${ms.toFixed(0)} | ${(chars / 1e6 / (ms / 1000)).toFixed(1)} |`,
  );
  console.log('\n| kind | replacements |\n|---|---|');
  for (const [kind, n] of [...byKind].sort((a, b) => b[1] - a[1])) console.log(`| ${kind} | ${n} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runRedactionBench();
