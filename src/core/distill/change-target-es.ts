/**
 * The Spanish words of offline supersession (change-target.ts reads English with them): how a
 * Spanish speaker says something changed ("ya no usamos Jenkins", "nos pasamos de Heroku a Render",
 * "cambiamos Slack por Teams", "chau Jira"), what was dropped, and what adds a second thing instead
 * ("también", "otro"). Every pattern here reads accent-folded, lower-cased text: people type
 * "cambie" as often as "cambié".
 */

import { CHANGED_VERB_ES } from './spanish-verbs.js';

/** Accent-folded and lower-cased, as the patterns below expect (the fold spanish.ts matches with). */
export { fold as foldEs } from './spanish.js';

const W = (source: string, flags = 'u'): RegExp => new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${source})(?![\p{L}\p{N}])`, flags);

/** Spanish function and change words: never the subject of a statement. */
export const STOP_ES = (
  'el la los las lo le les un una unos unas de del al a en con por para y e o u ni pero que se me te nos mi mis tu tus su sus ' +
  'dos tres cuatro cinco seis siete ocho nueve diez ' +
  'nuestro nuestra nuestros nuestras es son fue era eran ser estar esta estan estamos estoy soy somos hay ya ahora hoy ayer no nunca ' +
  'mas muy tambien tampoco solo todo todos toda todas otro otra otros otras este estos estas ese esa eso esos esas desde hasta sobre ' +
  'entre sin como cuando porque pq xq q tb tmb asi entonces aca aqui alla ahi uso usamos usa usan usar utilizo utilizamos prefiero ' +
  'preferimos cambie cambiamos cambio cambiaron pase pasamos paso dejamos deje dejo vez lugar nuevo nueva nuevos nuevas viejo vieja ' +
  'cualquier semana mes dia finalmente final tenemos tengo tiene tienen vamos voy va van hace hacemos hago porfa gracias bueno dale che po pues ' +
  'ha han he has hemos habia sido estado ido pasado pasada hecho dicho vale oye mira fyi contexto recordatorio pa pal si'
).split(/\s+/);

/**
 * Set phrases whose noun names no subject: "los sacamos a mano" is not about a hand, "lo dimos de
 * baja" not about "baja" ("cuando baja el sol"), "a veces" not about times. Read folded.
 */
export const IDIOMS_ES = W(
  String.raw`a mano|a pie|a veces|a menudo|a tiempo|a full|al toque|de baja|de alta|de nuevo|de vez en cuando|en cuenta|en serio|en general|por suerte|por cierto|de hecho|a la vez|a lo sumo|al menos`,
  'gu',
);

/** A crude Spanish plural fold: "decisiones" -> "decision", "dependencias" -> "dependencia". */
export function stemEs(word: string): string {
  if (/^(?:lunes|martes|miercoles|jueves|viernes)$/.test(word)) return word;
  if (word.length > 5 && /(?:ion|or|al|el|il|ad|ud|ar|er)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 4 && /[aeiou]s$/.test(word)) return word.slice(0, -1);
  // Loanwords keep their English plural: "mocks", "builds", "tests".
  if (word.length > 3 && /[^aeiouns]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/** What follows one of these was replaced: "ya no usamos X", "dejamos X", "nos pasamos de X", "cambiamos X por". */
export const REPLACED_BEFORE_ES = W(
  String.raw`(?:ya no (?:hay|usamos|uso|usan|usa|utilizamos|utilizo|tenemos|tengo|pagamos|pago|trabajo (?:en|con|para)|trabajamos (?:en|con|para)|vamos a|voy a|vivo en|vivimos en|estamos (?:en|con)|estoy (?:en|con)|corremos|como|tomo)|dej(?:e|o|amos|aron|ar)(?: de (?:usar|ir a|ir al|tomar|pagar|comer))?|larg(?:o|ue|amos|aron)|(?:le |les )?borr(?:o|e|amos|aron)|(?:nos|me) (?:cambiamos|cambie|pasamos|pase|mudamos|mude|fuimos|fui|bajamos|baje|borramos|borre|deshicimos|deshice) de|(?:migramos|movimos|mudamos) (?:[\p{L}\p{N}.-]+ ){0,2}de|en (?:vez|lugar) de|chau|chao|adios(?: a)?|sacamos|quitamos|eliminamos|borramos|matamos|jubilamos|abandonamos|tiramos|vendi|vendimos|cerramos|regale|cancel(?:e|amos)|(?:di|dimos|(?:me|nos) (?:he|hemos) dado) de baja de|(?:di|dimos) de baja|(?:nos |me )?(?:hemos|he|han|ha) (?:quitado|sacado|apagado|eliminado|dejado|cancelado|jubilado|abandonado|vendido|desinstalado|archivado|retirado))\s+(?:(?:el|la|los|las|un|una|mi|mis|nuestro|nuestra|nuestros|nuestras|al|a)\s+)?([\p{L}\p{N}][\p{L}\p{N}.+#/-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}.+#/-]*){0,2})`,
  'gu',
);

/** "cambiamos slack por teams", "hemos cambiado eslint y prettier por biome": what comes before "por" was replaced. */
export const REPLACED_BY_ES = W(
  String.raw`(?:cambi(?:amos|e|aron|o)|(?:hemos|he|han|ha) (?:cambiado|reemplazado|sustituido)|reemplazamos|sustituimos)\s+(?:(?:el|la|los|las|mi|mis|nuestr[oa]s?)\s+)?([\p{L}\p{N}][\p{L}\p{N}.+#/-]*(?:\s+(?:y|e)\s+[\p{L}\p{N}][\p{L}\p{N}.+#/-]*)?)\s+(?:por|con)(?=\s)`,
  'gu',
);

/** What precedes one of these was replaced: "jenkins ya no va", "el excel quedo atras", "heroku murio". */
export const REPLACED_AFTER_ES = W(
  String.raw`([\p{L}\p{N}][\p{L}\p{N}.+#/-]*)\s+(?:ya no (?:es|son|va|esta|existe|corre|se usa|funciona|sirve|se paga)|quedo (?:atras|obsolet[oa]|deprecad[oa]|archivad[oa]|muert[oa]|en el pasado)|(?:esta|fue|quedo) (?:deprecad[oa]|archivad[oa]|apagad[oa]|dad[oa] de baja|cancelad[oa]|eliminad[oa]|borrad[oa])|se fue|(?:se )?murio|se (?:apago|apagaron)|se acabo|paso a la historia|fuera(?=\s*(?:[,.;!]|$))|ya fue|ya (?:lo|la|los|las) (?:cerramos|cancelamos|vendimos|vendi|dimos de baja))`,
  'gu',
);

/** The object told first, then dropped: "lo de cruz roja lo he dejado", "filmin lo he cancelado". */
export const DROPPED_FIRST_ES = W(
  String.raw`(?:^|lo de |(?:el|la|los|las) )([\p{L}\p{N}][\p{L}\p{N}.+#/-]*(?: [\p{L}\p{N}][\p{L}\p{N}.+#/-]*){0,2}) (?:lo|la|los|las) (?:(?:he|hemos|ha|han) )?(?:dejado|deje|dejamos|cancelado|cancele|cancelamos|quitado|quitamos|apagado|apagamos|vendido|vendi|vendimos)`,
  'gu',
);

/** Words that end a replaced name: "dejamos jenkins porque ..." names jenkins. */
export const NAME_END_ES = /^(?:a|al|de|del|por|para|con|y|e|o|pero|en|porque|pq|xq|ya|ahora|que|desde|hace|se|nos|me|hoy|ayer)$/;

/**
 * The change verbs of spanish-verbs.ts in every person and tense ("cancelé", "adoptamos", "he vendido"):
 * read only in Spanish text, where "archive" and "retire" are not English words.
 */
export const CHANGED_VERB_RE_ES = W(CHANGED_VERB_ES);

/** The statement says the situation is new. */
export const CHANGE_ES = W(
  String.raw`se (?:apago|apagaron)|ahora|ya no|ya es|ya son|ya (?:esta|estan|estamos) en|(?:hemos|he|han|ha) (?:movido|cambiado|migrado|pasado a|subido a|vuelto a)|(?:hemos|he|han|ha) (?:pasado|movido|subido|bajado) (?:el|la|los|las|mi|mis|nuestr[oa]s?)|(?:me|nos) (?:he|hemos|ha|han) dado de baja|movieron|pase|movi|(?:nos|me) (?:pasamos|pase|bajamos|baje|subimos|subi|mudamos|mude|fuimos|fui) a|volvi(?:mos)? a|desde (?:hoy|ahora|ayer|el|la|este|esta|que|hace)|a partir de|de ahora en adelante|en adelante|cambi(?:amos|e|aron)|(?:se|lo|la|los|las|le|les|me|nos) cambio|nos pasamos|me pase|pasamos|migramos|movimos|se movio|se mudo|nos mudamos|me mude|dejamos|deje|en (?:vez|lugar) de|reemplazamos|sustituimos|nuev[oa]s?|ya no mas|chau|adios|por fin|se acabo|quedo atras|sacamos|quitamos|eliminamos|cancel(?:e|amos)|(?:di|dimos) de baja|paso a|pasaron a|subimos|subi|tiramos|abandonamos|vendi|vendimos|cerramos|terminamos la (?:migracion|mudanza)|me he puesto|nos hemos puesto|me reasignaron|me trasladaron|pasaron al|pasaron a la|larg(?:o|ue|amos|aron)|(?:le |les )?borr(?:o|e|amos|aron) (?:el|la|los|las)|se fue a|(?:subio|bajo) a|(?:decidimos|vamos a|hay que) (?:dejar|migrar|pasar)|ya fue|fuera(?=\s*(?:[,.;!]|$))`,
);

/** An outright change: one shared word with a single memory is enough. */
export const STRONG_CHANGE_ES = W(
  String.raw`ya (?:esta|estan|estamos) en|se acabo|volvi(?:mos)? a|(?:hemos|he|han|ha) (?:movido|cambiado|migrado|pasado a)|(?:nos|me) (?:pasamos|pase|bajamos|baje|subimos|subi|mudamos|mude) a|cambi(?:amos|e|aron)|(?:se|lo|la|los|las|le|les|me|nos) cambio|movimos|se movio|paso a|pasamos|nos pasamos|me pase|ahora|ya no|en (?:vez|lugar) de|migramos|reemplazamos|sustituimos|nuev[oa]|movi|subimos|subi|vendi|abandonamos|tiramos|(?:me|le|nos|les|lo|la|los|las) (?:movieron|cambiaron|pasaron|subieron|bajaron)|(?:hemos|he|han|ha) (?:subido|bajado|aumentado|reducido|pasado (?:el|la|los|las))|partimos|dividimos|unificamos|dado de baja`,
);

/** A second thing beside the first: "también usamos redis", "otro repo", "además". */
export const ADDITIVE_ES = W(
  // "se fue a otra empresa", "chocaba con otro proceso": after a preposition, "otro" is where or why, not a second thing.
  String.raw`tambien|tb|tmb|ademas|aparte|(?<!(?:a|al|de|del|con|por|en|para) )otr[oa]s?|un segundo|una segunda|por separado|sumamos|agregamos|anadimos`,
);
