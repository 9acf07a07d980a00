import { createRequire } from 'node:module';
import type nlpType from 'compromise';

/**
 * The tense of a statement's main clause, read by a part-of-speech tagger (compromise). A memory an
 * extractor writes is meant to stay true, so it speaks in the present ("The router runs X", "Tests
 * must pass"); one told in the past ("Gitleaks was installed via Homebrew", "The user renamed the
 * folder") reports an event of the conversation it came from. The tagger loads on first use (about
 * 200 ms), so processes that never judge extractor output (hooks, the CLI) never pay for it.
 */
export interface ClauseTense {
  tense: 'past' | 'present' | 'none';
  /** The subject names a person ("Caroline", "she", "the user", "the user's laptop"): a life event, not a tool's. */
  personal: boolean;
}

interface TermJson {
  text: string;
  tags: string[];
  index: [number, number];
}
interface VerbJson {
  text: string;
  terms: TermJson[];
  verb?: { auxiliary?: string; grammar?: { tense?: string } };
}

let tagger: typeof nlpType | undefined;
function nlp(text: string) {
  tagger ??= createRequire(import.meta.url)('compromise') as typeof nlpType;
  return tagger(text);
}

/** An auxiliary that makes the verb group present, future or modal: "is connected", "can be reached". */
const PRESENT_AUX = /^(?:is|are|am|can|will|has|have|should|must|may|might|does|do|shall|would|could|needs?)\b/i;
/** Where the main clause ends: the clause after it explains or adds ("…; since X", "…, so Y"). */
const CLAUSE_END = /;|:\s|—|\s-\s|,\s*(?:so|because|since|which|but|while)\b|\s(?:because|since|so that|after|once|when)\s/i;

/** Verbs whose past is spelled like the present. */
const AMBIGUOUS_PAST = /^(?:read|put|set|cut|hit|let|shut|spread|cast|cost|hurt|quit|split|upset|broadcast|reset|rerun|upset)$/i;
const PERSON_WORD = /^(?:user|user's|users|users'|i|me|my|we|us|our)$/i;

export function mainClauseTense(text: string): ClauseTense {
  const clause = text.split(CLAUSE_END)[0] ?? text;
  const doc = nlp(clause);
  const terms = (doc.terms().json() as Array<{ terms: TermJson[] }>).flatMap((t) => t.terms.slice(0, 1));
  // The tagger knows common first names only; a bare capitalised name as the whole subject ("Priya", "Yhon
  // Diaz") is taken for a person too, so a life event is never judged a tool's.
  const personalBefore = (index: number) =>
    terms.slice(0, index).some((t) => t.tags.includes('Person') || t.tags.includes('Pronoun') || PERSON_WORD.test(t.text)) ||
    (index >= 1 && index <= 2 && terms.slice(0, index).every((t) => /^[A-Z][a-z]+$/.test(t.text) && !t.tags.includes('Organization')));
  for (const v of doc.verbs().json() as VerbJson[]) {
    const first = v.terms[0];
    const last = v.terms[v.terms.length - 1];
    if (!first || !last) continue;
    const personal = personalBefore(first.index[1]);
    const aux = (v.verb?.auxiliary ?? '').trim();
    if (aux && PRESENT_AUX.test(aux)) return { tense: 'present', personal };
    const previous = terms[first.index[1] - 1];
    const next = terms[last.index[1] + 1];
    const tense = v.verb?.grammar?.tense;
    // "The agent read the log": a bare form after a singular subject is the past of read, set, put ...
    const pastBare =
      AMBIGUOUS_PAST.test(v.text) && previous !== undefined && previous.tags.includes('Singular') && !previous.tags.includes('Pronoun');
    if (tense === 'PastTense' || pastBare) {
      if (v.text.endsWith('-')) continue;
      if (aux) return { tense: 'past', personal };
      // A participle used as an adjective ("Authenticated pages", "the integrated terminal") is no verb;
      // a past verb takes a name, an article or a number as its object ("picked Linear", "removed the").
      const commonNounNext =
        next !== undefined && next.tags.includes('Noun') && !next.tags.some((t) => t === 'ProperNoun' || t === 'Pronoun');
      if (first.index[1] === 0 || (commonNounNext && !pastBare)) continue;
      return { tense: 'past', personal };
    }
    if (tense === 'PresentTense' || tense === 'FutureTense') {
      // A verb-looking word inside a noun phrase ("Forty import paths", "the review agent") modifies the noun.
      const opensPhrase = previous === undefined || ['Determiner', 'Value', 'Adjective'].some((t) => previous.tags.includes(t));
      if (!aux && opensPhrase && next !== undefined && next.tags.includes('Noun') && !next.tags.includes('Pronoun')) continue;
      return { tense: 'present', personal };
    }
  }
  return { tense: 'none', personal: false };
}

// What someone wants, plans or says is no fact of their setup: "Wants low-carb meal ideas".
const WANTS =
  /^(?:wants|needs|asks|plans|hopes|tries|intends|expects|seems|looks|says|thinks|feels|mentions|requests|gets|goes|comes|starts|stops|wishes|considers|wonders)$/i;

/**
 * "Tracks issues with Beads", "Shops at Lidl": a subjectless note that opens with a verb in
 * the third person present, which only the tagger knows to be a verb (no list of verbs holds them all).
 */
export function opensWithPresentVerb(text: string): boolean {
  if (!/^[A-Z][a-z]{2,}s\b/.test(text.trim())) return false; // the tagger runs only on a note that could open so
  const first = (nlp(text.trim()).terms().json() as Array<{ terms: TermJson[] }>)[0]?.terms[0];
  if (!first || !/^[A-Z][a-z]{2,}s$/.test(first.text) || WANTS.test(first.text)) return false;
  return first.tags.includes('PresentTense') && !first.tags.some((t) => t === 'Infinitive' || t === 'Imperative' || t === 'Noun');
}
