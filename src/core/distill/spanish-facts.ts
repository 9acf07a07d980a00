import { CHANGED_VERB_ES } from './spanish-verbs.js';

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
  String.raw`(?:lo|la|los|las) (?:desplegamos|deployamos|definimos|sacamos|miramos|vemos|llevamos|guardamos|gestionamos|pagamos|usamos|tenemos|hacemos|corremos|levantamos|manejamos|subimos|compilamos|escribimos|programamos|testeamos|hosteamos) (?:con|en|de|por|desde|a|via)|(?:sumamos|agregamos|incorporamos|le sumamos|le agregamos) [\p{L}\p{N}]|sigue(?:n)? siendo |(?:lo|la|los|las) (?:revisa|revisan|aprueba|aprueban|mantiene|mantienen|lleva|llevan|maneja|manejan) [\p{L}]|(?:activamos|desactivamos|habilitamos|deshabilitamos|tenemos (?:habilitad|activad|desactivad|configurad|instalad)[oa]s?) [\p{L}\p{N}]|(?:usamos|usan|utilizamos|utilizan|desplegamos|deployamos|definimos|gestionamos|llevamos|hosteamos|levantamos|compilamos|manejamos|trabajamos con|tiramos de|corremos|indentamos|formateamos|testeamos|escribimos|programamos|seguimos) [\p{L}\p{N}]|somos (?:\d+|dos|tres|cuatro|cinco|seis|siete|ocho)(?![\p{L}\p{N}])|(?:compila|compilan|levanta|levantan|despliega|despliegan|corre|corren|vive|viven) (?:con|en|sobre|desde) |(?:nos |me |les )?llegan? (?:por|a|via) |pasan? por [\p{L}\p{N}]|se (?:pagan?|despliegan?|guardan?|gestionan?|hacen?) (?:con|en|por|dentro|antes|cada|los|el|la|desde)`,
);

/** What the user does as a standing fact: a medicine, a payment, who they report to, their job, their diet, their duty. */
export const SELF_ES = W(
  String.raw`tomo [\p{L}\p{N}]+ (?:de )?\d|pago [\p{L}\p{N}]+|(?:le |se lo |se la )?pago (?:por|con|el|la|los|las) |reporto a|(?:laburo|curro|trabajo) (?:en|de|como|para|desde)|estoy de guardia|me toca (?:guardia|la guardia)|no (?:como|tomo|bebo|tenemos|tengo) [\p{L}]+|soy (?:celiac[oa]|diabetic[oa]|intolerante|hipertens[oa]|alergic[oa])|soy (?:hincha|fan|soci[oa]|abonad[oa]) de|soy (?:enfermer[oa]|medic[oa]|doctor[a]?|profe(?:sor[a]?)?|maestr[oa]|ingenier[oa]|abogad[oa]|contador[a]?|estudiante|jubilad[oa]|programador[a]?|desarrollador[a]?|disenador[a]?|periodista|arquitect[oa]|cociner[oa]|repartidor[a]?|freelance)(?![\p{L}])|tomo [\p{L}]+ (?:para|por) |estoy suscrit[oa] a|tengo (?:suscripcion|cuenta) (?:a|en|de)|(?:vivimos|vivo) en|tenemos (?:un[oa]? |dos |tres |\d )?[\p{L}]+ (?:\d|familiar|de \d|para|en|con)|tengo (?:una?|el|la) [\p{L}]+ (?:[\p{L}]+ )?(?:para|en casa|de)|me (?:mido|tomo|controlo|pongo|inyecto) (?:el|la|los|las) [\p{L}]+ (?:[\p{L}]+ )?(?:con|en casa|cada|todos|todas|dos|tres|una vez)|(?:grupo sanguineo|soy|es) (?:del? )?(?:a|b|ab|0|o)(?: |\+|-)?(?:positivo|negativo|\+|-)(?![\p{L}])|calz(?:o|a|amos) (?:un |el )?\d|trabaje (?:\d+|muchos|casi \d+) anos (?:de|como|en)|me jubile (?:de|en|como|hace)|(?:[\p{L}]+ )?no (?:lo |la |los |las )?(?:puedo (?:tomar|comer|beber)|pruebo|como|tomo|bebo)(?![\p{L}])|estoy en el (?:squad|equipo|area|team|departamento|coro|grupo|turno) de|tengo (?:seguro|fibra|internet|contrato|tarifa|plan|linea)(?: [\p{L}]+)? (?:con|de|en)|tengo [\p{L}]+ en el (?:movil|celu|celular|telefono)|estoy con [\p{L}]+ \d|estoy en (?:zsh|bash|fish|ubuntu|fedora|arch|wsl|windows|mac|linux)(?![\p{L}])|(?:pruebo|probamos|testeo|testeamos) (?:en|con|sobre) (?:el|la|un|una) |(?:como|estoy comiendo|comemos) sin (?:tacc|gluten|lactosa|sal|azucar)|(?:necesitan?|requieren?|piden?|exigen?) (?:minimo |al menos )?(?:\d+|una|dos|tres) (?:aprobacion|aprobaciones|approvals?|reviews?|revisiones)`,
);

/**
 * How someone lives, first person present: "tengo un iphone 12", "tengo dos gatos", "voy al gym de la
 * esquina", "al laburo voy en subte", "trabajo 100% remoto", "leo todo en un kindle", "el café lo tomo
 * con leche", "comparto piso con andrés", "estoy aprendiendo francés", "mi banco es bbva".
 */
export const LIFE_ES = W(
  String.raw`tengo (?:el|la|los|las) [\p{L}\p{N}.+# ]{1,30}? instalad[oa]s? |manejo (?:las|los|el|la|un|una|mi|mis) [\p{L}\p{N}]|me muevo en [\p{L}]|tengo (?!(?:una?|el|la) (?:error|problema|bug|duda|pregunta|tema|issue|examen|reunion|turno|cita|call|llamada)(?![\p{L}]))(?:una?|dos|tres|cuatro|\d+) [\p{L}\p{N}]|voy (?:al|a la|en|con) [\p{L}\p{N}]|(?:trabajo|laburo|curro) (?:\d+ ?%|remoto|en remoto|a distancia|desde casa|medio tiempo|full|part)|leo (?:todo )?(?:en|con) |(?:lo|la) tomo (?:con|sin|solo)|tomo (?:el )?cafe|me suscribi a|no puedo (?:comer|tomar|beber)|me (?:levanto|acuesto|despierto) a las|mi (?:otr[oa] )?(?:gat[oa]|perr[oa]|hij[oa]|herman[oa]|mama|papa|madre|padre|pareja|mujer|marido|novi[oa]|jefe|jefa|abuel[oa]) (?:[\p{L}]+ )?(?:es|son|se llama|come|trabaja|vive|tiene|va|hace|cumple|toma) |comparto (?:piso|depa|departamento|casa) con|vivo con |tengo (?:cinco|seis|siete|ocho|nueve|diez) [\p{L}]|estoy (?:aprendiendo|estudiando|haciendo (?:dieta|keto|ayuno)|entrenando para|ahorrando para)|mi (?:banco|medico|dentista|gimnasio|gym|proveedor|compania|operador|seguro|obra social|prepaga) (?:es|son|se llama)(?![\p{L}])|en casa tengo |en (?:el|la|mi) [\p{L} ]{1,30} tengo (?!(?:un|una|el|la|que|q|mucho|mucha|poco|dudas?|problemas?|tiempo|ganas|hambre|sueno|frio|calor)(?![\p{L}]))[\p{L}\p{N}]|voy a (?:clases?|cursos?|yoga|pilates|natacion|terapia|misa|fisio|rehabilitacion|aquagym) |(?:canto|toco|juego) en (?:el|la|un|una) |llevo [^,.;]{1,40} desde hace |^[\p{L}]+, (?:el|la) (?:mujer|marido|novi[oa]|pareja|hij[oa]|herman[oa]|madre|padre|suegr[oa]|cunad[oa]|yerno|nuera) de mi |mi (?:yerno|nuera|suegr[oa]|cunad[oa]|niet[oa]|sobrin[oa]|vecin[oa])(?:,[^,]{1,30},)? (?:[\p{L}]+ )?(?:es|son|se llama|vive|trabaja|tiene|conduce|maneja|usa|lleva) `,
);

/**
 * The object told first and taken up again by a pronoun, the way Spanish states how something is
 * handled: "el audio del juego lo integramos con fmod", "la api la levanto en local en el 3000",
 * "a la canela la llevo a la vete de la colonia", "el front lo estoy haciendo en react". What is
 * said of it must say where, with what or how often (a place or tool after the verb) or the value
 * a team gives it ("las ramas las nombramos feature/MOB-123-..."), and not when this once ("los tests
 * de hoy los dejamos para la tarde" is a plan for today).
 */
export const TOPIC_ES = new RegExp(
  String.raw`^(?![^.]*(?<![\p{L}])(?:hoy|manana|luego|ahora|despues|esta (?:tarde|noche|semana)|para (?:la tarde|la noche|el finde))(?![\p{L}]))(?:(?:che|oye|ojo|bueno|pues|y|mira)[,:]? )?(?:a )?(?:el|la|los|las|al|mi|mis|nuestr[oa]s?|todo|todos) (?!que )[^,.;:?]{1,45}? (?:lo|la|los|las|le|les) (?:(?:estoy|estamos) [a-z]+(?:ando|iendo)|[a-z]{2,}(?:o|oy|e|amos|emos|imos)) (?:(?:siempre |solo |todo |todos |directo |)(?:en|con|a|al|a la|por|desde|via|cada|para|de)(?![\p{L}])|(?<=(?:amos|emos|imos) )[\p{L}\p{N}]*[\d/_][\p{L}\p{N}/_.-]*)|^(?:a )?(?:el|la|los|las|al|mi|mis|nuestr[oa]s?) [^,.;:?]{1,45}? (?:lo|la|los|las|le|les) (?:esta haciendo|[a-z]{3,}(?:a|e|an|en)) (?:el|la|un|una|mi|nuestr[oa]|don|dona|otro|otra)(?![\p{L}])`,
  'u',
);

/** A process the team runs, in the impersonal "se": "los logs se envían a cloudwatch", "los datos se enmascaran antes de ...". */
export const PROCESS_ES = W(
  String.raw`se (?:envian?|mandan?|guardan?|almacenan?|orquestan?|enmascaran?|anonimizan?|cifran?|ejecutan?|procesan?|publican?|versionan?|aprueban?|revisan?|renuevan?|respaldan?|sincronizan?|programan?|monitorean?|registran?|exportan?|importan?|archivan?|rotan?|firman?|compilan?|empaquetan?|generan?|validan?|cargan?|definen?|documentan?) (?:con|en|a|al|por|antes|despues|cada|desde|todos|todas|via|automaticamente|dentro|fuera|mediante|usando)(?![\p{L}])`,
);

/** A routine on named days: "voy al gym lunes miércoles y viernes", "de lunes a viernes", "semana por medio". */
export const ROUTINE_ES = W(
  String.raw`${DAY}(?:,? (?:y |e )?${DAY})+|de ${DAY} a ${DAY}|semana por medio|\d+ veces (?:por|x|a la|cada) semana|una semana de cada [\p{L}\d]+|cada (?:dos|tres|cuatro|\d) semanas|(?:por|a) las mananas|a la (?:manana|noche|tarde) (?:antes|despues)|(?:entreno|laburo|trabajo|doy clases|entro|salgo|me levanto|me despierto|me acuesto|ceno|almuerzo|desayuno|corro|nado|camino|recojo|llevo|busco|voy al (?:gym|gimnasio|trabajo|laburo|club))(?![\p{L}])[^,.;?]{0,40}?(?<![\p{L}])(?:a las (?:\d|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce)|a la (?:manana|tarde|noche)|de (?:manana|tarde|noche)|temprano)`,
);

/**
 * More changes as people tell them: "vendí el corolla", "me compré un pixel 8", "reemplazamos jest
 * por vitest", "tiramos black", "capistrano ya fue", "renuncié al café", "me trasladaron", "auth pasó
 * a manos de lucía", "nueva convención acordada", "ahora ruff hace todo", "ahora deployamos con ...".
 */
const CHANGE_MORE_ES = String.raw`^(?:(?:fyi|ojo|ok|bueno)[:,]? )?[\p{L}\p{N}.@/+-]+ ahora(?:[.!]?$| (?:en|con|para) )|(?:vendi|vendimos|regale|me compre|nos compramos|me cambie (?:de|el|la)|cambie (?:el|la|de)|renuncie|renunciamos|reemplazamos|reemplace|tiramos|juntamos|movi|movimos|terminamos la mudanza|me trasladaron|nos trasladaron|se me rompio|se mudo a|se mudaron a|pasamos (?:todo )?a) |(?:sacaron|cambiaron|movieron|pasaron) (?:el|la|los|las|al|a la) |paso a manos de|[\p{L}\p{N}.+-]+ ya fue(?![\p{L}])|nuev[oa] (?:regla|convencion|norma|politica|horario|jefe|jefa|manager) |ahora (?:[\p{L}\p{N}.+-]+ ){0,2}(?:hace|hacen|corre|corren|cae|caen|vive|viven|lleva|llevan|maneja|revisa|usa|usan) |ahora (?!vamos )(?:[a-z]+amos|[a-z]+emos|[a-z]+imos|todo (?:en|con|por)) `;

/**
 * A change told in the past tense or with "ahora": what replaced what, who moved where. The past-tense
 * verbs end at a word's end ("reescribí", not "deberíamos reescribir"); "le cambió la vida" is an idiom.
 */
export const CHANGE_ES_TOLD = W(
  String.raw`(?:hemos|he|han|ha) (?:subido|migrado|movido|cambiado|pasado|vuelto|quitado|apagado|dejado|reescrito|sacado|matado|eliminado|jubilado|cancelado|terminado la migracion)|(?:migramos|movimos|quitamos|apagamos|sacamos|eliminamos|subimos|volvimos a|reescribi|reescribimos|pasamos (?:de|a)|nos bajamos a|nos mudamos|me mude|me di de baja|me borre|cancele|cancelamos|dimos de baja|arranque en|volvi a|me pase a|nos pasamos a|terminamos la migracion)(?![\p{L}])|(?:me|le|les|nos|lo|la|los) (?:cambio|cambiaron|pasaron|movieron|subieron|bajaron) (?:el|la|los|las|al|a la|de) (?!vida(?![\p{L}]))|(?:se ha ido|se fue) (?:a|de)|quedo atras|se acabo|ya no hay|dejo de (?!(?:funcionar|andar|responder|servir|cargar|compilar|arrancar|existir)(?![\p{L}]))[\p{L}]+|(?:^|[,;] ?)(?:chau|adios) [\p{L}\p{N}]|ahora (?:el|la|los|las|mi|mis|nuestr[oa]s?|todos?|todas?|cada|a [\p{L}]+) [^,.;]{1,40}(?: es | son | esta | estan | va | van | viene | vienen | pasea | entrena | lleva | tiene | tienen )|ahora (?:entreno|voy|pido|uso|usamos|hago|reporto|trabajo|laburo|vivimos|vivo|estamos|estoy|tomo|pago|como)|ya (?:esta|estamos|estan) en [\p{L}\p{N}]|ahora que (?:estamos|usamos|tenemos|somos|estoy|uso|tengo) |ya todo [^,.;]{1,30} (?:esta|estan) en |pasamos (?:el|la|los|las|todo) [^,.;]{1,30} a [\p{L}\p{N}]|ahora (?:cobro|cobramos|ando con|estoy con) |ahora (?:salen|sale|van|va|llegan|llega) (?:por|a|con|en) |me (?:reasignaron|trasladaron|pasaron|movieron) a |le (?:borro|borre|borramos) (?:el|la) [\p{L}]+|(?:largo|largue|largamos) (?:el|la|los|las) |(?:despues de|desde|tras) la (?:reestructuracion|reorganizacion|reorg|migracion|mudanza|fusion)|me (?:llego|dieron|entregaron) (?:el|la|mi) [\p{L}]+ nuev[oa]|(?:me he|nos hemos|se ha) dado de baja|(?:he|hemos) (?:cogido|contratado)|(?:hicimos|hicieron|hizo) el (?:upgrade|update|cambio|paso|salto) (?:de [^,.;]{1,30} )?a |(?:lo|la|los|las) dejamos en \d|(?:el|la|los|las) [\p{L}\p{N} -]{1,30} quedo en [\p{L}\p{N}]|matamos|ahora (?:lo|la|los|las) (?:tengo|tenemos|llevo|llevamos|hago|hacemos|pago|pagamos|uso|usamos) |ahora (?:recojo|compro|cojo|llevo|busco|estudio|canto|juego|nado|corro|camino|desayuno|ceno|almuerzo|cocino|conduzco|manejo|exigen|exige|requieren|requiere|necesitan) |ahora (?:somos|soy|esta|estan|viene|vienen|salgo|salimos|piden|pide) |${CHANGED_VERB_ES}|${CHANGE_MORE_ES}`,
);
