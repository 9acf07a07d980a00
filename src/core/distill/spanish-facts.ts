/**
 * Spanish statements of how things are and how they changed, beyond the explicit phrases of
 * spanish.ts: the set-up of a team ("los servicios los desplegamos con argo cd", "payments-service
 * compila con maven", "las alertas nos llegan por pagerduty"), a household's routine ("tomi entrena
 * martes y jueves a las 18", "pago 350 lucas de alquiler"), and a change said in the past tense or
 * with "ahora" ("hemos apagado jenkins del todo", "le cambiaron los días", "ahora la tech lead es
 * marta"). Patterns read accent-folded, lower-cased text, with letters as word edges.
 */
// Only the start is a word edge: many patterns end inside the next word ("usamos f...").
const W = (source: string): RegExp => new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${source})`, 'u');

const DAY = String.raw`(?:lunes|martes|miercoles|jueves|viernes|sabados?|domingos?)`;

/** A team's set-up, with the object first or after: "la infra la definimos con cloudformation", "usamos fastify". */
export const SETUP_ES = W(
  String.raw`(?:lo|la|los|las) (?:desplegamos|definimos|sacamos|miramos|llevamos|guardamos|gestionamos|pagamos|usamos|tenemos|hacemos|corremos|levantamos|manejamos|subimos|compilamos) (?:con|en|de|por|desde|a|via)|(?:usamos|usan|utilizamos|utilizan|desplegamos|definimos|gestionamos|llevamos|hosteamos|levantamos|compilamos|manejamos|trabajamos con|tiramos de) [\p{L}\p{N}]|(?:compila|compilan|levanta|levantan|despliega|despliegan|corre|corren|vive|viven) (?:con|en|sobre|desde) |(?:nos |me |les )?llegan? (?:por|a|via) |pasan? por [\p{L}\p{N}]|se (?:pagan?|despliegan?|guardan?|gestionan?|hacen?) (?:con|en|por|dentro|antes|cada|los|el|la|desde)`,
);

/** What the user does as a standing fact: a medicine, a payment, who they report to, their job, their diet, their duty. */
export const SELF_ES = W(
  String.raw`tomo [\p{L}\p{N}]+ (?:de )?\d|pago [\p{L}\p{N}]+|(?:le |se lo |se la )?pago (?:por|con|el|la|los|las) |reporto a|(?:laburo|curro|trabajo) (?:en|de|como|para|desde)|estoy de guardia|me toca (?:guardia|la guardia)|no (?:como|tomo|bebo|tenemos|tengo) [\p{L}]+|soy (?:celiac[oa]|diabetic[oa]|intolerante|hipertens[oa]|alergic[oa])|(?:vivimos|vivo) en|tenemos (?:un[oa]? |dos |tres |\d )?[\p{L}]+ (?:\d|familiar|de \d|para|en|con)|tengo (?:una?|el|la) [\p{L}]+ (?:[\p{L}]+ )?(?:para|en casa|de)`,
);

/** A routine on named days: "voy al gym lunes miércoles y viernes", "de lunes a viernes", "semana por medio". */
export const ROUTINE_ES = W(
  String.raw`${DAY}(?:,? (?:y |e )?${DAY})+|de ${DAY} a ${DAY}|semana por medio|una semana de cada [\p{L}\d]+|cada (?:dos|tres|cuatro|\d) semanas|(?:por|a) las mananas|a la (?:manana|noche|tarde) (?:antes|despues)`,
);

/** A change told in the past tense or with "ahora": what replaced what, who moved where. */
export const CHANGE_ES_TOLD = W(
  String.raw`(?:hemos|he|han|ha) (?:subido|migrado|movido|cambiado|pasado|vuelto|quitado|apagado|dejado|reescrito|sacado|matado|eliminado|jubilado|cancelado|terminado la migracion)|(?:migramos|movimos|quitamos|apagamos|sacamos|eliminamos|subimos|volvimos a|reescribi|reescribimos|pasamos (?:de|a)|nos bajamos a|nos mudamos|me mude|me di de baja|me borre|cancele|cancelamos|dimos de baja|arranque en|volvi a|me pase a|nos pasamos a|terminamos la migracion)|(?:me|le|les|nos|lo|la|los) (?:cambio|cambiaron|pasaron|movieron|subieron|bajaron) (?:el|la|los|las|al|a la|de) |(?:se ha ido|se fue) (?:a|de)|quedo atras|se acabo|ya no hay|dejo de [\p{L}]+|(?:^|[,;] ?)(?:chau|adios) [\p{L}\p{N}]|ahora (?:el|la|los|las|mi|mis|nuestr[oa]s?|todo|a [\p{L}]+) [^,.;]{1,40}(?: es | son | esta | estan | va | van | viene | vienen | pasea | entrena | lleva)|ahora (?:entreno|voy|pido|uso|usamos|hago|reporto|trabajo|laburo|vivimos|vivo|estamos|estoy|tomo|pago|como)|ya (?:esta|estamos|estan) en [\p{L}\p{N}]`,
);
