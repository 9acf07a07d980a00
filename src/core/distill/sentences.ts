/**
 * Splits message text into the units that can become memories. Real messages are markdown:
 * fenced code, tables, headings and bullet lists next to prose. Code and tables are returned as one
 * unit each (they are never memories, but the admission benchmark scores them); prose is split
 * into sentences, with list markers and emphasis removed, and a line wrapped mid-sentence joined.
 */
export type UnitKind = 'prose' | 'heading' | 'code' | 'table';

export interface TextUnit {
  text: string;
  kind: UnitKind;
  /** For headings: 1 for "#", 2 for "##", ... */
  level?: number;
}

const FENCE = /^\s*(```|~~~)/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const HEADING = /^\s{0,3}#{1,6}\s+/;
const LIST_MARKER = /^\s*(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])\s+(?:\[[ xX]\]\s+)?/;
const QUOTE_MARKER = /^\s*>+\s?/;
const RULE_LINE = /^\s*(?:[-*_=]\s*){3,}$/;

// Abbreviations (and inline enumerators, "2.") after which a period does not end a sentence; a
// single capital is an initial ("J. Smith"), a single lower-case letter is not ("restarted with -r.").
const ABBREVIATIONS =
  /(?:(?:^|\s)\d{1,2}\.$)|(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|no|nr|fig|dr|mr|mrs|ms|prof|sr|jr|st|inc|ltd|co|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.$)/i;
const INITIAL = /(?:^|[\s(])[A-Z]\.$/;

/** Emphasis and inline markup that carry no words ("**Rule:**" reads as "Rule:"). */
export function stripInlineMarkup(text: string): string {
  return text
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/__([^_\n]+)__/g, '$1')
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/\[([^\]\n]+)\]\((?:[^)\s]+)\)/g, '$1')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Sentences of one prose line (already free of list markers). */
export function splitLine(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '。' || ch === '！' || ch === '？') {
      out.push(line.slice(start, i + 1));
      start = i + 1;
      continue;
    }
    if (ch !== '.' && ch !== '!' && ch !== '?') continue;
    // Runs of terminators ("?!", "...") end together.
    let end = i + 1;
    while (end < line.length && /[.!?)"'”’\]]/.test(line[end]!)) end++;
    if (end >= line.length || !/\s/.test(line[end]!)) {
      i = end - 1;
      continue;
    }
    let next = end;
    while (next < line.length && /\s/.test(line[next]!)) next++;
    const following = line[next] ?? '';
    const head = line.slice(start, i + 1);
    // Chat users start sentences in lower case too, so any word may follow; a period after an
    // abbreviation or a single letter does not end one, and neither does a terminator before a comma.
    const startsSentence = following !== '' && !/[,;:)\]}]/.test(following);
    if (!startsSentence || (ch === '.' && (ABBREVIATIONS.test(head.trimEnd()) || INITIAL.test(head.trimEnd())))) {
      i = end - 1;
      continue;
    }
    out.push(line.slice(start, end));
    start = next;
    i = next - 1;
  }
  if (start < line.length) out.push(line.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

const ENDS_SENTENCE = /[.!?:;。！？：；]["'”’)\]]*$/;

/** Units of a message, in order. */
export function splitUnits(text: string): TextUnit[] {
  const units: TextUnit[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let prose: string[] = [];
  const flushProse = () => {
    // Join lines wrapped mid-sentence: the next line goes on in lower case after no terminator.
    const joined: string[] = [];
    for (const line of prose) {
      const prev = joined[joined.length - 1];
      if (prev !== undefined && !ENDS_SENTENCE.test(prev) && /^[a-z(@`~]/.test(line)) joined[joined.length - 1] = `${prev} ${line}`;
      else joined.push(line);
    }
    // An inline enumerator ("... machine. 2. we are ...") opens a list item, not a sentence word.
    for (const line of joined)
      for (const s of splitLine(line)) units.push({ text: stripInlineMarkup(s.replace(/^\d{1,2}[.)]\s+/, '')), kind: 'prose' });
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (FENCE.test(raw)) {
      flushProse();
      const fence = FENCE.exec(raw)![1]!;
      const block = [raw];
      while (++i < lines.length) {
        block.push(lines[i]!);
        if (lines[i]!.trim().startsWith(fence)) break;
      }
      units.push({ text: block.join('\n'), kind: 'code' });
      continue;
    }
    if (TABLE_ROW.test(raw)) {
      flushProse();
      const block = [raw];
      while (i + 1 < lines.length && TABLE_ROW.test(lines[i + 1]!)) block.push(lines[++i]!);
      units.push({ text: block.join('\n'), kind: 'table' });
      continue;
    }
    const trimmed = raw.trim();
    if (trimmed === '' || RULE_LINE.test(trimmed)) {
      flushProse();
      continue;
    }
    if (HEADING.test(raw)) {
      flushProse();
      const heading = stripInlineMarkup(raw.replace(HEADING, ''));
      if (heading) units.push({ text: heading, kind: 'heading', level: /^\s*(#+)/.exec(raw)![1]!.length });
      continue;
    }
    const line = raw.replace(QUOTE_MARKER, '').replace(LIST_MARKER, '').trim();
    if (LIST_MARKER.test(raw)) flushProse(); // each list item stands alone
    if (line) prose.push(line);
  }
  flushProse();
  return units.filter((u) => u.text.length > 0);
}

/** Prose sentences only: what rule-based capture reads. */
export function proseSentences(text: string): string[] {
  return splitUnits(text)
    .filter((u) => u.kind === 'prose')
    .map((u) => u.text);
}

/** A sentence that only says the one before allows no exception: "no exceptions", "sin excepciones". */
const EMPHASIS_ONLY = /^(?:no exceptions|sin excepci[oó]n(?:es)?)[.!]*$/i;

/** "every table gets created_at. no exceptions": the insistence joins the sentence it insists on. */
export function withNoExceptionsJoined(sentences: string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const last = out.length - 1;
    if (last >= 0 && EMPHASIS_ONLY.test(s.trim())) out[last] = `${out[last]!.replace(/[.!]+\s*$/, '')}, ${s.trim()}`;
    else out.push(s);
  }
  return out;
}
