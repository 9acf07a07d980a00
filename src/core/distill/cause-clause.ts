/**
 * "since i'm the only one maintaining the shaders, can you help me with this dissolve effect":
 * when a request or a question is cut off a sentence, what is left may be the reason given for it,
 * a clause that cannot stand alone ("Since they are the only one maintaining the shaders."). The
 * reason is the standing fact, so it is stored without its "since" / "como".
 */

// "as" gives a reason only before a subject ("as we deploy on fridays"); "as a teacher" is a role.
const CAUSE_EN = /^(?:since|because|cause|cuz|seeing as|given that|now that|as(?=\s+(?:i|we|i'm|we're|im|our|my)\b))\s+/i;
// "como siempre", "como buen aliancista", "como un ...", "como te dije": an idiom, a role or a
// retelling, not a reason.
const CAUSE_ES =
  /^(?:ya que|dado que|puesto que|visto que|porque|como(?!\s+(?:siempre|de costumbre|buen|buena|buenos|buenas|gran|un|una|unos|unas|te|le|les|ya sabes|sabes|sab[eé]is|dije|dijimos|hablamos|quedamos|acordamos|dec[ií]a|vimos|es|era|si|que|cuando)(?![\p{L}])))\s+/iu;

/**
 * The statement a reason clause makes, when `head` is one clause that opens with a reason word;
 * `head` itself otherwise (a head with a clause after the reason has its own main clause: "since the
 * reorg, it's one approval per PR").
 */
export function causeAsStatement(head: string, options: { spanish: boolean }): string {
  const cause = options.spanish ? CAUSE_ES : CAUSE_EN;
  const match = cause.exec(head);
  if (!match || /[,;:]|\s[-–—]\s/.test(head)) return head;
  const rest = head.slice(match[0].length).trim();
  // "since the clocks changed we've pushed bedtime to 8": a second subject opens the main clause.
  if (!options.spanish && SECOND_SUBJECT.test(rest)) return head;
  return rest.split(/\s+/).length >= 2 ? rest : head;
}

const SECOND_SUBJECT = /\s(?:i|we|they|he|she|you)(?:'m|'ve|'re|'ll|'d|m|ve|re)?\s/i;
