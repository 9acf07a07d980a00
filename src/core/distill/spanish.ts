import type { Trigger } from './rule-patterns.js';
import { CHANGED_VERB_ES_ACCENTED } from './spanish-verbs.js';
import { CHANGE_ES_TOLD, LIFE_ES, PROCESS_ES, ROUTINE_ES, SELF_ES, SETUP_ES, TOPIC_ES } from './spanish-facts.js';
import { DECIDED_ES, LESSON_ES, PERSON_ES, spanishMomentKind } from './spanish-user.js';
import { featureBranchVeto, type Veto } from './veto.js';

/**
 * Spanish for rule-based capture: OpenClaw runs on chat apps used in many languages, and a Spanish
 * speaker states rules and preferences as plainly as anyone ("a partir de ahora, respóndeme en
 * español", "usamos pnpm, no npm", "me cambié a Helix", "el perro se llama Bruno"). Like Chinese, the
 * statement keeps its wording (only lead-ins go); the gate asks the same question of it as of English:
 * is there a rule, preference, decision or standing fact in it, and nothing that ties it to this
 * moment of the conversation. People type without accents, so patterns match accent-folded text;
 * word edges are letters, not \b (which ends at an accent).
 */
export const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const W = (source: string): RegExp => new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${source})(?![\p{L}\p{N}])`, 'u');

const FUNCTION_WORDS =
  /(?<![\p{L}])(?:el|la|los|las|que|del|al|y|de|en|este|esta|estos|estas|ese|esa|eso|sin|sobre|hasta|desde|donde|ahora|todo|todos|nada|otro|otra|asi|vivo|soy|hemos|por|para|con|una?|es|esta|estan|mi|mis|tu|tus|nuestros?|nuestras?|siempre|nunca|tambien|pero|como|cuando|porque|usa|usamos|uso|prefiero|quiero|me|se|lo|le|nos|mas|muy|si|ya|hay|son|ni|solo|cada|tengo|tomo|voy|estoy|somos|tenemos|vamos|q|xq|pq|porfa|tb|tmb|aca|alla|aqui|entre)(?![\p{L}])/gu;
// Wide enough that "dont give me npm commands" and "call me raj pls, only my bank calls me rajesh" outweigh
// the Spanish "me"; none is a Spanish word.
const ENGLISH_WORDS =
  /(?<![\p{L}])(?:the|and|is|are|to|of|you|i|we|it|this|that|with|for|not|use|my|our|please|pls|always|never|dont|don't|im|i'm|let|give|tell|ask|remind|just|was|were|have|will|they|she|your|them|what|how|only|but|if|call|calls)(?![\p{L}])/gu;

const WE_VERB = /(?<![\p{L}])(?:[a-z]{4,}(?:amos|imos)|[a-z]{5,}emos)(?![\p{L}])/gu;

/** Written in Spanish: more Spanish function words (an ñ, ¿, ¡ or accented vowel counts as one) than English ones. */
export function looksSpanish(text: string): boolean {
  const t = fold(text);
  // "cancelamos datadog": a first-person plural verb is Spanish however few function words surround it;
  // "cancelé netflix": so is an accented vowel (English text has none but loanwords like "café").
  const es = (t.match(FUNCTION_WORDS) ?? []).length + (/[ñ¿¡áéíóú]/i.test(text.normalize('NFC')) ? 1 : 0) + (t.match(WE_VERB) ?? []).length;
  const en = (t.match(ENGLISH_WORDS) ?? []).length;
  return es >= 1 && es > en && (es >= 2 || en === 0);
}

/** A Spanish trigger: its pattern is tested on the accent-folded, lower-cased text. */
const T = (name: string, category: Trigger['category'], confidence: number, source: string): Trigger => {
  const re = W(source);
  return { name, category, confidence, pattern: { test: (text: string) => re.test(fold(text)) } };
};

/** "no subas", "no me mandes", "no metas": a negative imperative (second-person subjunctive) is a prohibition. */
const PROHIBITION = String.raw`ningun[oa]? (?:[a-z]+ ){1,3}(?:ni|sin)|sin que yo|no (?:(?:me|te|le|les|lo|la|los|las|se|nos) ){0,2}[a-z]{2,}(?:es|as)|nada de|ni de broma|sin excepcion(?:es)?|bajo ningun concepto|en ningun caso|(?:esta )?prohibido`;

/** A trigger from a ready pattern (spanish-facts.ts), tested on the folded text. */
const re = (name: string, category: Trigger['category'], confidence: number, pattern: RegExp): Trigger => ({
  name,
  category,
  confidence,
  pattern: { test: (text: string) => pattern.test(fold(text)) },
});

export const USER_TRIGGERS_ES: Trigger[] = [
  // "tenelo en cuenta", "tené en cuenta": the voseo forms as well.
  T(
    'remember',
    'fact',
    0.9,
    'recuerda|recuerdalo|acuerdate|no olvides|no te olvides|ten(?:e|lo|la|los|las|elo|ela|elos|elas)? en cuenta|toma nota',
  ),
  T(
    'change',
    'preference',
    0.8,
    String.raw`(?:me|nos) (?:cambie|cambiamos|pase|pasamos|mude|mudamos) (?:de [\w.+# -]{1,30} )?a|(?:ahora|ya) (?:solo )?(?:uso|usamos|utilizo|utilizamos|tenemos)|ya no (?:(?:me|nos|le|lo|la|las|los|les) )?(?:[a-z]+(?:o|amos|emos|imos)|me gusta|estoy|tengo|voy|soy|doy)(?![\p{L}])|(?:deje|dejamos) (?:de|el|la|los|las|[\p{L}\p{N}.+-]+(?=[,.;]|$))|me borre de|migramos (?:de|a)|(?:le )?cambiamos|se fue (?:del|de la)|(?:hemos|he) (?:cambiado|migrado|pasado) (?:de [\w.+# -]{1,30} )?a`,
  ),
  // "no se aceptan commits sin ticket", "cero mocks", "maven, gradle no": a rule by its own words.
  T(
    'rule',
    'rule',
    0.85,
    String.raw`^(?:regla|convencion|norma|politica|estandar)(?: [a-z]+){0,3} ?:|basta con|alcanza con|siempre|nunca|jamas|a partir de ahora|de ahora en adelante|desde ahora|en adelante|en el futuro|por defecto|cada vez que|todos los (?:anos|dias|meses|lunes|martes|miercoles|jueves|viernes)|no vuelvas a|solo (?:los|las|el|la|se|para|en|con)|no se (?:acepta|aceptan|permite|permiten|mergea|mergean|aprueba|aprueban)|aunque (?:salga|salgan|sea|sean|cueste|cuesten|tarde|tarden)|limitate a|limitese a|antes de [a-z]+ cualquier|solo (?:de|por la|a la) (?:noche|dia|manana|tarde|madrugada)|(?:^|(?<=[,;] ?))cero (?!(?:problemas?|drama|estres|ganas|idea|dudas?|onda)(?![\p{L}]))[\p{L}]+|(?<=, )(?!(?:hoy|ahora|ahorita|todavia|aun|ya|asi|eso|esto|aca|ahi|mejor|creo|bueno)(?![\p{L}]))[\p{L}\p{N}.+-]+ no(?:[,.!]|$)|${PROHIBITION}`,
  ),
  T(
    'decision',
    'decision',
    0.8,
    String.raw`(?:hemos|he|ya) (?:decidido|elegido|acordado)|(?:me decidi|nos decidimos) por|decidimos|acordamos|elegimos|quedamos en|vamos a (?:usar|quedarnos con|migrar|mantener|empezar por)|nos quedamos con|al final (?:el|la|los|las|vamos|usamos|se queda)|descartad[oa]s?|se queda(?:n)? en`,
  ),
  T(
    'preference',
    'preference',
    0.75,
    String.raw`prefiero|preferimos|me gustan?|no me gustan?|me encantan?|odio|detesto|no (?:lo |la |los |las )?soporto|mi (?:favorit[oa]|preferid[oa])|me va mejor|me manejo mejor con|me resulta (?:mas )?(?:comodo|facil|util)|me sobran?|(?:no )?me interesan?|lo quiero|los quiero|la quiero|las quiero|me entero mejor|tratame|hablame de|escribeme en|respondeme en|(?:contesta|escribi|habla|responde)(?:me|nos) (?:siempre )?en`,
  ),
  T(
    'habit',
    'fact',
    0.7,
    String.raw`todos los (?:dias|lunes|martes|miercoles|jueves|viernes|sabados|domingos|meses|anos|fines de semana|findes)|(?:por|a) las (?:noches|tardes)|todas las (?:semanas|mananas|noches|tardes)|cada (?:dia|semana|mes|ano|manana|noche|lunes|martes|miercoles|jueves|viernes|sabado|domingo)|de cada mes|los (?:lunes|martes|miercoles|jueves|viernes|sabados|domingos)|(?:una vez|(?:dos|tres|cuatro|cinco|\d+) veces) (?:por|a la|al) (?:dia|semana|mes|ano)|veces por semana|los (?:feriados|festivos|findes|fines de semana)|(?:despues|antes) de cada|(?:tiene|tienen|tenes|tienes) que|hay que|le dicen|le decimos`,
  ),
  T(
    'use-not',
    'rule',
    0.8,
    String.raw`(?:usamos|uso|utilizamos|utilizo|usa|utiliza|usar) [\w.@/+# -]{1,40}?,? (?:no|ni|nunca|en (?:lugar|vez) de)`,
  ),
  T(
    'i-use',
    'preference',
    0.65,
    String.raw`^(?:(?:oye|mira|che|bueno|pues|ojo),? )?(?:(?:en|para) [\p{L}]+(?: [\p{L}\p{N} ]{1,50}?)? )?(?:yo )?(?:uso|usamos|utilizo|utilizamos|trabajo con|programo (?:en|con)|codeo (?:en|con)) [\w.+#-]+`,
  ),
  T(
    'our-x-is',
    'fact',
    0.7,
    String.raw`^(?!(?:tu|tus|su|sus|usted|vos|este|esta|ese|esa)\s)(?:(?:para|pa|pal|en) [^,.;]{1,50}? (?=(?:el|la|los|las|mi|mis|nuestr[oa]s?)\s))?(?:(?:todo|toda|todos|todas)\s+)?(?:(?:el|la|los|las|mi|mis|nuestr[oa]s?)\s+)?(?:(?:[\w.@/~:-]+\s+){0,5}?(?:es|son|esta|estan|se llama|se llaman|le decimos|tiene|tienen|usa|corre|corren|vive|viven|va|van|queda|toca|le toca|se despliega|se guarda|se guardan|se renueva|trabaja|cumple)|(?:[\w.@/~:-]+\s+){1,7}?(?:es|son|tiene|tienen|usa|usan|corre|corren|apunta|apuntan|escucha|escuchan|sigue|siguen|levanta|levantan|necesita|necesitan|requiere|requieren|conduce|calza|sale|salen|guarda|guardan|deploya|deployan|manda|mandan))(?![\p{L}])|^(?:el|la|los|las|mi|mis) [\p{L} ]{2,30}, [\p{L} ]{2,30}, (?:es|son|vive|trabaja|tiene)(?![\p{L}])|^(?:el|la|los|las) (?:[\p{L}]+ )?que [^,.;]{1,50} (?:es|son) (?:el|la|los|las|mi|un|una)`,
  ),
  T(
    'self',
    'fact',
    0.7,
    String.raw`soy (?:el|la|un|una|alergic[oa]|vegetarian[oa]|vegan[oa]|de|del|junior|senior|principiante|nuev[oa] en)|vivo en|trabajo (?:en|como|para|de)|curro (?:en|desde|de)|estudio [a-z]+|facturo|tengo (?:diabetes|alergia|\d+ anos|un[oa]? |dos |tres )|estoy en (?:windows|mac|linux|la universidad)|estoy viendo|este semestre`,
  ),
  re('change-told', 'preference', 0.75, CHANGE_ES_TOLD),
  // "valen dejó natación": the accent tells the past from the present "dejo", so the raw text is read.
  {
    name: 'change-told',
    category: 'preference',
    confidence: 0.75,
    pattern: { test: (text: string) => CHANGED_VERB_ES_ACCENTED.test(text.normalize('NFC').toLowerCase()) },
  },
  re('setup', 'fact', 0.65, SETUP_ES),
  re('self-fact', 'fact', 0.65, SELF_ES),
  re('routine', 'fact', 0.65, ROUTINE_ES),
  re('life', 'fact', 0.65, LIFE_ES),
  re('topic', 'fact', 0.65, TOPIC_ES),
  re('process', 'fact', 0.65, PROCESS_ES),
  re('lesson', 'lesson', 0.75, LESSON_ES),
  re('decision', 'decision', 0.75, DECIDED_ES),
  re('person', 'fact', 0.65, PERSON_ES),
];
/** "cambiamos de sendgrid a ses desde este mes": when a change happened does not tie it to now. */
const SAYS_CHANGED_ES = USER_TRIGGERS_ES.filter((t) => t.name === 'change' || t.name === 'change-told');

/**
 * What ties a sentence to this moment or this exchange: now and yesterday, "lo mismo", "este archivo",
 * what the agent did ("terminaste", "me pasaste"), a request for now after the statement ("dame
 * ideas", "míralo", "arréglalo ya"), a feeling about it ("qué rabia").
 */
const CONTEXT = W(
  String.raw`lo mismo|esto|(?<!por )eso|otra vez|hasta que|mientras (?:dure|tanto|estemos|este|estoy)|hasta el (?:lunes|martes|miercoles|jueves|viernes|sabado|domingo|fin)|de nuevo|todavia(?! (?:tiene|tienen|es|son|usa|usan|corre|corren|esta en|estan en))|aun|ahora mismo|esta (?:manana|tarde|noche)|ahorita|ya mismo|ya esta|ya(?=\s*(?:[,.!]|$))|por ahora|de momento|hoy|ayer|anoche|esta semana|este (?:finde|fin de semana|mes)|luego sigo|esta(?:s|n)? [a-z]+(?:ando|iendo)|ahi|aqui|este (?:archivo|bug|error|test|cambio|diff)|esta (?:funcion|rama|vez)|lo del|[a-z]+(?:aste|iste)(?:lo|la|los|las|me|te)?|bueno no|olvidalo|que rabia|que lio|dame ideas|mira a ver|fijate|[a-z]+alo ya|empieza por|(?:nunca|siempre) (?:me |lo |la )?(?:entiendo|se|olvido|acuerdo|encuentro|consigo|logro|puedo|he [a-z]*(?:ado|ido))|siempre que [a-z]+o `,
);

// "otra vez han cambiado el horario", "bajé de nuevo a 500 megas": a change that happened again.
const WHEN_IT_CHANGED = /(?<![\p{L}])(?:ayer|esta semana|este mes|ya esta|este ano|otra vez|de nuevo)(?![\p{L}])/gu;

/** Something in `text` ties it to this moment or exchange; `change`: "ayer", "este mes" only date a change. */
function tiedToNow(text: string, change: boolean): boolean {
  const folded = fold(text);
  const dated = change ? folded.replace(WHEN_IT_CHANGED, ' ') : folded;
  // After the first clause "eso" and "esto" point back inside the sentence ("no me la pidas, eso lo manejo yo").
  const comma = dated.indexOf(',');
  const inner = comma < 0 ? dated : dated.slice(0, comma) + dated.slice(comma).replace(/(?<![\p{L}])(?:eso|esto)(?![\p{L}])/gu, ' ');
  return CONTEXT.test(inner);
}

/** A question typed without its marks: "cuanto es el 15% de 48000", "q hora es en madrid", "como configuro caddy". Folded. */
const ASKS_ES = new RegExp(
  String.raw`^(?:(?:oye|che|ey|hola|una pregunta|pregunta|y|bueno|ok|porfa)[,:\s]+)*(?:cuant[oa]s?|cual(?:es)?|quien(?:es)?|(?:q|que) (?:hora|dia|es|son|significa|onda|tal|opinas|me recomendas|me recomiendas|puedo|hago|hacemos|le|te)|como (?:se|hago|hacemos|puedo|podemos|podria|funciona|configuro|instalo|saco|paso|convierto|calculo|integro|declaro|cambio|agrego|exporto|conecto|comparto|(?:le|lo|la) (?!(?:comente|dije|conte|mencione|explique|decia|decía)(?![\p{L}])))|como (?!(?:todo|nunca|siempre|antes|dicho|digo|mucho|poco|mismo|minimo|maximo|primero|nuevo|tampoco|no|yo)(?![\p{L}]))[a-z]{3,}(?:o|amos)|por ?que|donde (?:queda|esta|puedo|compro|consigo)|sabes (?:si|cual|cuanto|como|donde|que)|(?:me )?(?:podes|puedes|podrias) )(?![\p{L}])`,
  'u',
);
/** A request for now: "explicame corto q es ...", "armame una lista"; not one for always ("mandame todo en listas cortas"). */
const REQUEST_ES = new RegExp(
  String.raw`^(?:(?:oye|che|ey|hola|bueno|ok|porfa)[,:\s]+)*(?:explica|deci|di|conta|cuenta|pasa|manda|hace|haz|mostra|muestra|ayuda|da|traduci|traduce|arma|escribi|escribe|genera|calcula|busca|resumi|resume|corregi|corrige|revisa|configura)(?:me|nos)(?![\p{L}])`,
  'u',
);
const FOR_ALWAYS_ES =
  /(?<![\p{L}])(?:siempre|nunca|todo|todos|todas|cada vez|de ahora en (?:mas|adelante)|a partir de ahora|no me)(?![\p{L}])/u;

/** The gate's evidence for a Spanish user sentence: a trigger family above, and nothing tying it to now. */
export function hasSpanishUserEvidence(text: string): boolean {
  // A question anywhere ("cuál es mi comida favorita? a ver si te acordás") asks; it does not state.
  const folded = fold(text.trim());
  if (/[?¿]/.test(text) || ASKS_ES.test(folded) || (REQUEST_ES.test(folded) && !FOR_ALWAYS_ES.test(folded))) return false;
  if (spanishUserVeto(text) !== undefined) return false;
  // "ya está en node 20", "desde este mes", "ayer": when a change happened, not a state that passes.
  return looksSpanish(text) && !tiedToNow(text, saysChangeEs(text)) && USER_TRIGGERS_ES.some((t) => t.pattern.test(text));
}

/**
 * Why a Spanish user sentence is talk about the moment (spanish-user.ts), or undefined: "mi vecina
 * dice que ..." is her opinion, unless the user tells what they changed after it.
 */
export function spanishUserVeto(text: string): Veto | undefined {
  const folded = fold(text.trim());
  const moment = featureBranchVeto(folded) ?? spanishMomentKind(folded);
  return moment?.detail === 'reported speech' && saysChangeEs(text) ? undefined : moment;
}

/** The sentence tells a change ("cambiamos de sendgrid a ses", "lo pasé a un balanceado light"). */
function saysChangeEs(text: string): boolean {
  return CHANGE_ES_TOLD.test(fold(text)) || SAYS_CHANGED_ES.some((t) => t.pattern.test(text));
}

/** Trigger families too loose to stand before an aside about the moment. */
const WEAK_BEFORE_ASIDE = new Set(['rule', 'our-x-is', 'habit']);

/** Clause breaks, kept when the clauses are joined again ("porque" stays "porque"). */
const CLAUSE_BREAK = /(\s*[,;:]\s+|\s+[-–—]\s+|\s+(?:pq|xq|porque|asi que|así que)\s+|\s+y\s+(?=(?:me|nos|se|le|les)\s))/iu;

/**
 * The statement before an aside about the moment: "mi banco es BBVA, ahí cobro la nómina", "he
 * cambiado el puerto al 8081 porque chocaba con keycloak, actualiza los curls que me pasaste". The
 * aside ties the whole sentence to the exchange, so without this the standing fact before it is
 * lost; undefined when no clause after the first is tied to now, or the first is too.
 */
export function statementBeforeAsideEs(sentence: string): string | undefined {
  const parts = sentence.split(CLAUSE_BREAK);
  const change = CHANGE_ES_TOLD.test(fold(sentence));
  // parts alternate clause, break, clause, ...: clause i sits at 2i.
  const clauses = parts.filter((_, i) => i % 2 === 0);
  const at = clauses.findIndex((c, i) => i > 0 && tiedToNow(c, change));
  if (at <= 0) return undefined;
  const head = parts
    .slice(0, 2 * at - 1)
    .join('')
    .trim();
  if (tiedToNow(head, change) || head.split(/\s+/).length < 2) return undefined;
  // A rule word ("siempre que hago npm install se me congela, mira a ver") or a bare "X es/está" ("el
  // server está caído, ahorita no puedo") before an aside about now is mostly the task of the moment.
  const standing = USER_TRIGGERS_ES.filter((t) => !WEAK_BEFORE_ASIDE.has(t.name) && t.pattern.test(head));
  // "el api de prod es api.pagofacil.co, ojo con probar cosas ahí": a value with a dot or a digit is a set-up fact.
  const value =
    /(?<![\p{L}])(?:es|son|esta|está) (?:en |el |la )?[\p{L}\p{N}-]*(?:\d|\.[\p{L}])[\p{L}\p{N}.:/-]*$|(?<![\p{L}])(?:es|son) (?:el )?\d{1,2} de [\p{L}]+$|(?<![\p{L}])(?:usa|usan|corre|corren|escucha|escuchan|levanta|levantan|apunta a|apuntan a) [\p{L}\p{N}][\p{L}\p{N}.:/-]*$/u.test(
      head,
    );
  return standing.length > 0 || value ? head : undefined;
}

const TAIL_LEAD = String.raw`^[¿¡\s]*(?:(?:y|asi que|entonces|pero|o sea)\s+)?`;
/** A question about the statement: "..., cómo paso los contactos?" (only with a question mark after it). */
const QUESTION_TAIL_ES = new RegExp(
  String.raw`${TAIL_LEAD}(?:como|que|q|donde|cual|cuales|cuando|cuanto|me (?:pasas|das|recomendas|recomiendas|ayudas|armas|agendas|haces|decis|dices|explicas)|me [a-z]{3,}(?:as|es)|tienes|tenes|es (?:grave|normal|malo|bueno|peligroso|seguro)|se puede|con (?:que|q)|a (?:que|q) hora|lo repito|alguna?|podes|puedes|podrias|hay|vale la pena|me conviene|sabes)(?![\p{L}])`,
  'u',
);
/** A request about it: "..., dame un healthcheck", "..., sacame esas deps porfa". */
const REQUEST_TAIL_ES = new RegExp(
  String.raw`${TAIL_LEAD}(?:porfa|por favor|dame|decime|dime|hazme|haceme|ponme|poneme|[a-z]{3,}(?:ame|eme|ime|amelo|amela|anos|elo|ela))(?![\p{L}])`,
  'u',
);

/**
 * The statement a Spanish sentence makes before asking something about it or for something
 * ("tengo un iphone 12, cómo paso los contactos?", "el backend lo tenemos en railway, dame un
 * healthcheck"): undefined when no clause after the first is a question or a request.
 */
export function statementBeforeRequestEs(sentence: string): string | undefined {
  // A period before a lower-case word ("me compré un pixel 8. cómo paso los contactos?") ends a clause too.
  const clauses = sentence.split(/\s*[,;:]\s+|\s+[-–—]\s+|(?<=[.!])\s+|\s+[:;]-?[)(DP]\s+/);
  const at = clauses.findIndex((c, i) => {
    if (i === 0) return false;
    const folded = fold(c);
    return (
      REQUEST_TAIL_ES.test(folded) ||
      ASKS_ES.test(folded.trim()) ||
      (QUESTION_TAIL_ES.test(folded) && clauses.slice(i).join(' ').includes('?'))
    );
  });
  // "tengo un seat del 2009, le sale la luz del motor?": however the question starts, the last
  // clause before a final "?" is what is asked, and what comes before it is told.
  const last = clauses.length - 1;
  // Only for a short told part: a pasted table or answer before a question is no statement of the user's.
  const told = clauses.slice(0, last).join(', ');
  const asked =
    at > 0 ? at : last > 0 && /\?\s*$/.test(sentence) && !told.includes('?') && told.length <= 200 && !/[|#]|---/.test(told) ? last : -1;
  if (asked <= 0) return undefined;
  const head = clauses
    .slice(0, asked)
    .map((c) => c.replace(/[.!]+$/, ''))
    .join(', ')
    .trim();
  return head.includes('?') || head.split(/\s+/).length < 2 ? undefined : head;
}

const LEAD_IN =
  /^(?:(?:ok(?:ey)?|vale|oye|mira|ojo|bueno|pues|por cierto|para que (?:lo )?sepas|ademas|también|tambien|y|recordatorio|for the record)(?:[\s,:.!-]+(?:que|q)(?=\s))?[\s,:.!-]+)+/iu;
const REMEMBER =
  /^(?:por favor,?\s+)?(?:recuerda|recordá|recorda|acuérdate(?: de)?|acuerdate(?: de)?|acordate(?: de)?|no (?:te )?olvides de|ten en cuenta|toma nota de)(?:\s+(?:esto|lo siguiente))?(?:\s*[:,-]\s*|\s+(?:que|q)\s+|\s+)/iu;

/** The statement without its lead-in ("oye, recuerda que ..."), capitalised and closed. */
export function normalizeSpanish(sentence: string): string {
  let t = sentence.trim();
  for (let pass = 0; pass < 3; pass++) {
    const before = t;
    t = t.replace(LEAD_IN, '').replace(REMEMBER, '').trim();
    if (t === before) break;
  }
  // Laughter at the end ("ni en pintura jaja") is the chat's tone, not the statement.
  t = t.replace(/[\s,;:]+(?:ja(?:ja)+|je(?:je)+|xd)[\s!.]*$/iu, '').replace(/[\s,;:]+$/, '');
  t = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}
