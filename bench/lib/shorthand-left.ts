/**
 * Chat shorthand a stored memory still carries ("thats", "bc", "tho", "tbh", "dont", "u"; Spanish "q", "pa",
 * "porfa", "jaja"): what a person typed, kept in the text the agent is later shown. Broader than what
 * normalisation spells out, so the count shows what is left, not only what was fixed. Lower case only ("RN" is
 * React Native, "BC" a place) but for a capitalised "Pa" opening the sentence; "u" before an o-word is the Spanish
 * "or" ("siete u ocho"), "mi pa" someone's father.
 */
const SHORTHAND =
  /(?<![\p{L}\p{N}_'/-])(?:thats|theres|whats|wheres|whos|shes|hes|dont|doesnt|didnt|isnt|arent|wasnt|werent|cant|wont|wouldnt|shouldnt|couldnt|havent|hasnt|im|ive|youre|theyre|u(?!\s+h?o)|ur|pls|plz|bc|b\/c|cuz|coz|tho|thru|ppl|obvs|ofc|abt|smth|sth|w\/|w\/o|gonna|wanna|gotta|kinda|sorta|tbh|tbf|imo|imho|ngl|fwiw|idk|lol|lmao|btw|rn|tmrw|nope|q|xq|pq|porq|tb|tmb|pal|porfa|porfis|xfa|xfavor|ja(?:ja)+|(?<!\b(?:mi|tu|su|mis|tus|sus|el|al|del|my)\s)pa)(?![\p{L}\p{N}_'/-])/u;

export function carriesShorthand(text: string): boolean {
  return SHORTHAND.test(text) || /^Pal?\s/.test(text);
}
