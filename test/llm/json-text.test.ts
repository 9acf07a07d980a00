import { describe, expect, it } from 'vitest';
import { extractJsonText, parseJsonLoose } from '../../src/core/llm/index.js';

describe('tolerant JSON extraction', () => {
  it('takes plain JSON as is', () => {
    expect(parseJsonLoose(' {"a": [1, 2]} ')).toEqual({ ok: true, value: { a: [1, 2] } });
  });
  it('strips code fences and surrounding prose', () => {
    expect(extractJsonText('Here you go:\n```json\n[{"x": "}"}]\n```\nthanks')).toBe('[{"x": "}"}]');
  });
  it('skips bracketed prose that is not JSON and finds the first real value', () => {
    expect(extractJsonText('[note] the answer is {"ok": true} and {"later": 1}')).toBe('{"ok": true}');
  });
  it('handles braces and escaped quotes inside strings', () => {
    expect(parseJsonLoose('result: {"t": "a \\"}\\" b", "n": {"m": []}} done')).toEqual({
      ok: true,
      value: { t: 'a "}" b', n: { m: [] } },
    });
  });
  it('reports text with no JSON', () => {
    expect(parseJsonLoose('nothing here').ok).toBe(false);
    expect(parseJsonLoose('{"unterminated": ').ok).toBe(false);
  });
});
