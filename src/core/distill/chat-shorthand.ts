/**
 * Chat shorthand a person types and a stored memory should not keep: "thats expected", "shes formula
 * fed", "stuck on 0.72 bc maps breaks", "oat milk is fine tho", "not a fan of tailwind tbh". Matching
 * already reads the common contractions spelt out (english-user.ts `foldInformal`); this is the rest,
 * applied to the stored English sentence only. Lower-case forms only: "BC", "RN" and "Tho" as a name are
 * someone's words, not shorthand.
 */

/** Words after "its" that make it "it's": an article, an adverb, a state or a number, never a noun. */
const AFTER_ITS = String.raw`(?:a|an|the|not|no|all|one|only|just|still|also|always|usually|never|nearly|mostly|basically|way|much|so|too|really|pretty|very|quite|been|got|going|gonna|fine|ok|okay|done|dead|gone|over|back|free|normal|expected|deliberate|cheaper|closer|better|worse|easier|faster|slower|safer|simpler|bigger|smaller|later|earlier|\d[\w:.]*|[a-z]{2,}ly|[a-z]{3,}(?<!e)ed)`;
const ADVERB_LIKE_NOUN = /^(?:family|supply|assembly|reply|anomaly|monopoly|jelly|belly|rally|ally|italy|bully|lily|holly|rely)$/i;

/** Fillers that only colour the sentence; opening or closing it they go with the lead-ins and trailers (normalize-statement.ts). */
const FILLER = String.raw`(?:tbh|tbf|imo|imho|ngl|btw|lol|lmao|haha+)`;

const SPELT: Array<[RegExp, string]> = [
  [/\b([Tt]hat|[Tt]here|[Ww]hat|[Ww]ho|[Ww]here|[Hh]ere|[Ss]he|[Hh]e)s\b/g, "$1's"],
  [/\b(?:bc|b\/c|bcuz|bcos|cuz|coz)\b/g, 'because'],
  [/\btho\b/g, 'though'],
  [/\bthru\b/g, 'through'],
  [/\bppl\b/g, 'people'],
  [/\bobvs\b/g, 'obviously'],
  [/\bofc\b/g, 'of course'],
  [/\babt\b/g, 'about'],
  [/\b(?:smth|sth)\b/g, 'something'],
  [/\bw\/o\b/g, 'without'],
  [/(?<![\w/])w\/(?=\s)/g, 'with'],
  // Not "esp" (an ESP32 board) or "tmr" (a timer).
  [/\btmrw\b/g, 'tomorrow'],
  [/\bgonna\b/g, 'going to'],
  [/\bwanna\b/g, 'want to'],
  [/\bgotta\b/g, 'have to'],
];

/** Shorthand spelt out and fillers inside the sentence dropped; run before the sentence is put in the third person. */
export function spellOutShorthand(sentence: string): string {
  let out = sentence.replace(new RegExp(String.raw`\b([Ii])ts(?=\s+(${AFTER_ITS})\b)`, 'g'), (whole, i: string, next: string) =>
    ADVERB_LIKE_NOUN.test(next) ? whole : `${i}t's`,
  );
  for (const [re, to] of SPELT) out = out.replace(re, to);
  // Inside the sentence, before a comma: "on the data team tbh, explain the sql".
  return out.replace(new RegExp(String.raw`\s*,?\s+${FILLER}\b(?=\s*[,;:)])`, 'gi'), '');
}

/** "kinda" and "sorta" read as adverbs while the verb is found; spelt out once the sentence is final. */
export function spellOutHedges(sentence: string): string {
  return sentence.replace(/\bkinda\b/g, 'kind of').replace(/\bsorta\b/g, 'sort of');
}

/**
 * Spanish chat shorthand kept out of a stored statement ("q", "xq", "tb" are spelt out before the
 * rules read it, spanish-user.ts `foldChatEs`): "pa" and "pal" for "para" and "para el" ("pa la
 * cache offline usamos sqflite"; "mi pa" is someone's father), "porfa" and "xfa" for "por favor", and
 * laughter inside the sentence ("otra vez cambio jaja: todo el CI quedó en github actions").
 */
const SPELT_ES: Array<[RegExp, string]> = [
  [/(?<![\p{L}\p{N}])(?<!\b(?:mi|tu|su|mis|tus|sus|el|al|del|my)\s)pa'?(?=\s+[\p{Ll}\d¿])/gu, 'para'],
  [/^Pa'?(?=\s+[\p{Ll}\d])/u, 'Para'],
  [/(?<![\p{L}\p{N}])pal(?=\s+[\p{Ll}\d])/gu, 'para el'],
  [/^Pal(?=\s+[\p{Ll}\d])/u, 'Para el'],
  [/(?<![\p{L}\p{N}])(?:porfa|porfis|xfa|xfavor)(?![\p{L}\p{N}])/giu, 'por favor'],
  [/[\s,]*(?<![\p{L}])(?:ja(?:ja)+|je(?:je)+|xd)(?![\p{L}])(?=\s*[,:;])/giu, ''],
];

/** Spanish shorthand spelt out and laughter inside the sentence dropped; run before the statement is closed. */
export function spellOutShorthandEs(sentence: string): string {
  let out = sentence;
  for (const [re, to] of SPELT_ES) out = out.replace(re, to);
  return out;
}
