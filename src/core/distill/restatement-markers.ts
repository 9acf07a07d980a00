/**
 * Words with which people say they are repeating themselves: "as I said, backend is me and Raj",
 * "reminder: the compose redis is on 6380", "we're still on heroku", "como te dije, uso vim".
 * Offline there is no model to see that a paraphrase is the same fact, and vectors of a paraphrase
 * sit as close as those of a second fact on the same topic; the speaker's own marker tells them
 * apart. A rule candidate carries it so reconciliation can skip the retelling.
 */
const MARKER_EN =
  /\b(?:as|like)\s+i\s+(?:said|say|mentioned|told\s+you|wrote)\b|\bas\s+(?:mentioned|discussed|noted|before|usual|always)\b|\b(?:i\s+)?(?:already\s+)?told\s+you\b|\breminder\b|(?<!\bplease\s)\bremember\b(?!\s+(?:that|this|to)\b)|\bdon'?t\s+forget\b|\bstill\b|\bsame\s+as\s+(?:before|ever|always)\b/i;
// Letters as word edges: "recordá", "comenté", "aún" end in an accent, where \b sees no edge.
const MARKER_ES = new RegExp(
  String.raw`(?<![\p{L}])(?:como\s+(?:ya\s+)?(?:te\s+|le\s+|les\s+)?(?:dije|coment[eé]|cont[eé]|mencion[eé]|sabes|sab[eé]s|siempre)|(?:te|le|les)\s+(?:recuerdo|reitero|repito)|recuerd[ae](?:te)?\s+(?:que|q)|record[aá](?:me)?|acu[eé]rdate|acordate|recordatorio|como\s+todos\s+los\s+(?:d[ií]as|meses|a[nñ]os|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bados|domingos)|ya\s+(?:te\s+|le\s+)?(?:lo\s+)?(?:dije|coment[eé])|ya\s+sab[eé]s|sigo|seguimos|sigue|siguen|todav[ií]a|aún|de\s+siempre)(?![\p{L}])`,
  'iu',
);

/** Whether the sentence as said marks itself as a repetition of something told before. */
export function saysRestated(sentence: string): boolean {
  return MARKER_EN.test(sentence) || MARKER_ES.test(sentence);
}

/**
 * "as I said, backend is a two person show": the lead-in says only that it is a repetition (and
 * reads like reported speech to the gate); the statement is what follows.
 */
const LEAD_IN =
  /^(?:(?:ok(?:ay)?|so|and|yeah|btw|fyi|again)[,\s]+)*(?:(?:as|like)\s+i\s+(?:said|mentioned|told\s+you)(?:\s+(?:before|earlier|already|last\s+time))?|as\s+(?:mentioned|discussed)(?:\s+(?:before|earlier))?|como\s+(?:ya\s+)?(?:te|le|les)\s+(?:dije|coment[eé]|cont[eé]|mencion[eé])(?:\s+(?:antes|la\s+otra\s+vez))?|(?:te|le|les)\s+(?:recuerdo|reitero|repito)\s+(?:que|q)|ya\s+sab[eé]s\s+(?:que|q))\s*[,:;-]?\s+/i;
const TRAILER =
  /[,;]?\s+(?:(?:as|like)\s+i\s+(?:said|mentioned|told\s+you)(?:\s+(?:before|earlier|already))?|remember|como\s+te\s+dije)(?=[,.!]|\s*$)/i;

/** The sentence without a "as I said" / "como te dije" lead-in or aside. */
export function withoutRestatementLeadIn(sentence: string): string {
  return sentence.replace(LEAD_IN, '').replace(TRAILER, '');
}
