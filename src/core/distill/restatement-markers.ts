/**
 * Words with which people say they are repeating themselves: "as I said, backend is me and Raj",
 * "reminder: the compose redis is on 6380", "we're still on heroku", "como te dije, uso vim".
 * Offline there is no model to see that a paraphrase is the same fact, and vectors of a paraphrase
 * sit as close as those of a second fact on the same topic; the speaker's own marker tells them
 * apart. A rule candidate carries it so reconciliation can skip the retelling.
 */
const MARKER_EN =
  /\b(?:as|like)\s+i\s+(?:said|say|mentioned|told\s+you|wrote)\b|\bas\s+(?:mentioned|discussed|noted|before|usual|always)\b|\b(?:i\s+)?(?:already\s+)?told\s+you\b|\breminder\b|(?<!\bplease\s)\bremember\b(?!\s+(?:that|this|to)\b)|\bdon'?t\s+forget\b|\bstill\b|\bsame\s+as\s+(?:before|ever|always)\b/i;
const MARKER_ES =
  /\bcomo\s+(?:ya\s+)?(?:te\s+)?(?:dije|coment[eé]|cont[eé]|mencion[eé]|sabes|siempre)\b|\bte\s+recuerdo\b|\brecuerd[ae](?:te)?\s+(?:que|q)\b|\brecord[aá](?:me)?\b|\bacu[eé]rdate\b|\bacordate\b|\brecordatorio\b|\bcomo\s+todos\s+los\s+(?:d[ií]as|meses|a[nñ]os|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bados|domingos)\b|\bya\s+te\s+(?:lo\s+)?(?:dije|coment[eé])\b|\bsigo\b|\bseguimos\b|\bsigue\b|\bsiguen\b|\btodav[ií]a\b|\baún\b|\bde\s+siempre\b/i;

/** Whether the sentence as said marks itself as a repetition of something told before. */
export function saysRestated(sentence: string): boolean {
  return MARKER_EN.test(sentence) || MARKER_ES.test(sentence);
}

/**
 * "as I said, backend is a two person show": the lead-in says only that it is a repetition (and
 * reads like reported speech to the gate); the statement is what follows.
 */
const LEAD_IN =
  /^(?:(?:ok(?:ay)?|so|and|yeah|btw|fyi|again)[,\s]+)*(?:(?:as|like)\s+i\s+(?:said|mentioned|told\s+you)(?:\s+(?:before|earlier|already|last\s+time))?|as\s+(?:mentioned|discussed)(?:\s+(?:before|earlier))?|como\s+(?:ya\s+)?te\s+(?:dije|coment[eé]|cont[eé])(?:\s+(?:antes|la\s+otra\s+vez))?)\s*[,:;-]?\s+/i;
const TRAILER =
  /[,;]?\s+(?:(?:as|like)\s+i\s+(?:said|mentioned|told\s+you)(?:\s+(?:before|earlier|already))?|remember|como\s+te\s+dije)(?=[,.!]|\s*$)/i;

/** The sentence without a "as I said" / "como te dije" lead-in or aside. */
export function withoutRestatementLeadIn(sentence: string): string {
  return sentence.replace(LEAD_IN, '').replace(TRAILER, '');
}
