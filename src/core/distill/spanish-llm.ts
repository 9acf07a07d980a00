import type { AdmissionReason } from './admission.js';
import { fold, looksSpanish } from './spanish.js';

/**
 * Extractor output in Spanish. The extraction prompt asks for memories "in the language of the
 * conversation", so a Spanish chat yields "El usuario prefiere respuestas cortas.", "Marta vive en
 * Lima." or "El usuario pidió revisar el PR." The gate's other detectors read English (and
 * Chinese): they reject the first two as verbless or without content and let the third through.
 * Here the same questions are asked of Spanish third-person statements: who is the subject, is
 * the verb an event of this conversation, a request for the task at hand, a state that passes, a
 * textbook definition, or a standing fact.
 */

const L = String.raw`(?<![\p{L}\p{N}])`;
const R = String.raw`(?![\p{L}\p{N}])`;

/** The subjects extractors write, on folded text: the user, their things, the team or the project. */
const FIXED_SUBJECT =
  /^(?:(?:el|la|al|a la) (?:usuari[oa]|cliente|equipo|proyecto|empresa|repo|repositorio|app|aplicacion|servicio|backend|frontend|api)|(?:su|sus) [\p{L}-]+(?: [\p{L}-]+)?)(?=\s)/u;
/** Or a person's name: a capitalised word that is not a Spanish function word ("Marta", "Yhon Pérez"). */
const NAME = /^[\p{Lu}][\p{L}.-]+(?: [\p{Lu}][\p{L}.-]+)?(?=\s)/u;
const NOT_A_NAME =
  /^(?:el|la|los|las|un|una|unos|unas|este|esta|estos|estas|ese|esa|eso|esto|en|para|con|por|mi|mis|tu|tus|su|sus|hay|se|lo|le|les|no|si|ya|que|como|cuando|del|al|y|o|nunca|siempre|todo|todos|cada|luego|despues|manana|hoy|ayer|proximo|gracias|vale|jaja|prefiere|usa|tiene|trabaja|vive)$/;
/** Or no subject at all: "Prefiere pytest a unittest.", "Le gustan las series de misterio." */
const VERB_FIRST =
  /^(?:no )?(?:prefiere|le gustan?|le encantan?|odia|detesta|usa|utiliza|trabaja|vive|tiene|es|esta|suele|evita|come|bebe|toma|juega|corre|entrena|estudia)(?![\p{L}])/u;

function subjectOf(text: string): string | undefined {
  const folded = fold(text);
  const fixed = FIXED_SUBJECT.exec(folded)?.[0];
  if (fixed !== undefined) return fixed;
  const name = NAME.exec(text)?.[0];
  if (name !== undefined && !NOT_A_NAME.test(fold(name.split(' ')[0]!))) return fold(name);
  return VERB_FIRST.test(folded) ? '' : undefined;
}

/** What the agent did: "El asistente instaló pandas", "Claude corrigió el import". */
const AGENT =
  /^(?:el (?:asistente|agente|bot|modelo)|la (?:ia|asistente)|claude(?: code)?|codex|copilot|chatgpt|gpt)(?! del? )(?: [\p{L}]+)?? (?:(?:ya|tambien|luego|despues|le|les|lo|la|se) )*(?!(?:no|solo|tampoco|pero|como|cuando)(?![\p{L}]))(?:[\p{L}]+(?:o|io|aron|ieron)|(?:ha|han) [\p{L}]+(?:ado|ido))(?![\p{L}])/u;
/** A thing made or changed in this session, told in the passive: "Se creó el archivo utils/dates.py". */
const MADE =
  /^se (?:le |les )?(?:creo|crearon|borro|borraron|anadio|anadieron|agrego|agregaron|instalo|instalaron|actualizo|actualizaron|corrigio|arreglo|subio|ejecuto|genero|modifico|elimino|renombro|commiteo|pusheo|exporto|exportaron|agendo|agendaron|programo|reservo|mando|mandaron|envio|enviaron|leyo|leyeron|propuso|reviso|probo|calculo|calcularon|explico|explicaron|resolvio|resolvieron|comparo|compararon|reemplazo|reemplazaron|bajo|bajaron|habilito|deshabilito|activo|desactivo|ajusto|reinicio)(?![\p{L}])/u;
/**
 * A to-do written as a memory, opening on the infinitive or a reminder: "Escribir a Rocío por
 * WhatsApp", "Borrar el test del plazo", "Recordatorio el 9 de octubre", "Mensaje corto a Lucía".
 */
const TO_DO_ES =
  /^(?:recordatorio|recordar|llamar|escribir|mandar|enviar|preguntar|pedir|comprar|pagar|reservar|cambiar|borrar|eliminar|agregar|anadir|avisar|apuntar|renovar|cancelar|mensaje (?:corto )?(?:a|para))(?![\p{L}])(?!.*(?<![\p{L}])(?:siempre|nunca|todos|todas|cada|en vez de|antes de|despues de)(?![\p{L}]))/u;
/** Said in a chat: thanks, laughter, an okay. */
const CHATTER =
  /^(?:gracias|muchas gracias|jaja\w*|jeje\w*|vale|ok|okey|perfecto|genial|bueno|de acuerdo|listo|dale|buenisimo)(?![\p{L}])/u;
/** A reaction to this moment ("le gustó cómo quedó"), not a standing taste ("le gusta"). */
const REACTION =
  /(?<![\p{L}])(?:le|les) (?:gusto|gustaron|encanto|encantaron|parecio|parecieron|sirvio|convencio)(?![\p{L}])|(?<![\p{L}])(?:esta|estan) de acuerdo(?![\p{L}])/u;
/** Pointing into the conversation: "ese enfoque", "la segunda opción", "la función de arriba", "línea 42". */
const POINTING =
  /^(?:ese|esa|eso|esto|aquel|aquella|lo del|lo de)(?![\p{L}])|(?<![\p{L}])(?:(?:la|el) (?:primer[ao]?|segund[ao]|tercer[ao]?|ultim[ao]) (?:opcion|propuesta|version|alternativa)|(?:alternativa|opcion|propuesta) [a-d1-3]|(?:este|esta) (?:cambio|prueba|tarea|pr|ticket|rama|commit|mezcla|version|borrador|ejecucion)|no esta$|de arriba|de abajo|(?:el|la) anterior|que (?:pego|mando|compartio|le recomende|le pase|le envie)|linea \d+)(?![\p{L}])/u;
/** Plans and next steps: "va a llamar al fontanero mañana", "Próximo paso: ...", "Después hay que ...". */
const PLAN =
  /^(?:manana|luego|despues|mas tarde|proximo paso|siguiente paso|pendiente)(?![\p{L}])|(?<![\p{L}])(?:va a|van a|piensa|planea|tiene pensado)(?![\p{L}]).{0,60}(?<![\p{L}])(?:manana|luego|despues|la semana que viene|la proxima semana|el mes que viene|el proximo mes|el proximo (?:lunes|martes|miercoles|jueves|viernes|sabado|domingo)|esta (?:tarde|noche)|hoy|el (?:lunes|martes|miercoles|jueves|viernes|sabado|domingo))(?![\p{L}])|(?<![\p{L}])no sabe si(?![\p{L}])/u;

/**
 * A plan told with its subject, no day needed: "Valentina va a rotar el token", "Manolo jugará el
 * torneo". The future is read with its accent ("jugará"; "era" is the past).
 */
/** The memory's subject: the user, or a named person ("Valentina", "Manolo García"). */
const PLAN_SUBJECT = String.raw`^(?:[Ee]l usuario|[Ll]a usuaria|\p{Lu}\p{L}+(?: \p{Lu}\p{L}+)?) `;
const SUBJECT_PLAN = new RegExp(String.raw`${PLAN_SUBJECT}(?:va a|van a|planea|piensa|tiene pensado) \p{L}+(?:ar|er|ir)(?!\p{L})`, 'u');
const SUBJECT_FUTURE = new RegExp(String.raw`${PLAN_SUBJECT}(?:no )?\p{L}{2,}(?:ará|erá|irá|arán|erán|irán)(?!\p{L})`, 'u');

/** A plan by its tense: "mandará las cotizaciones el lunes", "tiene que terminar la mezcla antes del viernes". */
const DAY = String.raw`(?:lunes|martes|miercoles|jueves|viernes|sabado|domingo|fin de semana)`;
const PLAN_AHEAD = new RegExp(
  String.raw`^(?:el )?(?:siguiente|proximo) paso${R}|${L}(?:tiene que|tienen que|hay que|debe) .{0,60}${L}antes del ${DAY}${R}`,
  'u',
);
/** A time ahead that a plan is pinned to (folded): tomorrow (not "la mañana"), this weekend, next Tuesday, a month. */
const AHEAD_ES = String.raw`(?:(?<!(?:la|las|por la|de la|cada) )manana|este finde|este fin de semana|el ${DAY}(?! de cada)|la semana que viene|la proxima semana|el mes que viene|el proximo mes|en (?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre))`;
/**
 * An intention or a duty pinned to a time ahead ("quiere revisar mañana el endpoint", "tiene reunión con
 * finanzas el jueves", "Llamar el lunes al 138"), work still missing ("Falta elegir veterinario"), or a
 * time set for one occasion ("Recogen a Trufa el sábado a las 11").
 */
const INTENT_AHEAD = new RegExp(
  String.raw`${L}(?<!no )(?:quiere|quieren|tiene que|tienen que|hay que|debe|deben|necesita|se va|se van|tiene (?:reunion|cita|turno|consulta|examen|parcial|entrevista|vuelo)|tienen (?:reunion|cita|turno|consulta|vuelo))${R}.{0,80}${L}${AHEAD_ES}${R}|^[a-z]+(?:ar|er|ir)(?:le|les|lo|la|se)?${R}.{0,80}${L}${AHEAD_ES}${R}|^faltan? [a-z]+(?:ar|er|ir)${R}|${L}el ${DAY} a las \d`,
  'u',
);
/** A worry, a mood or a thing broken now; a run's figure; money or time left. */
const NOW_ES =
  /(?<![\p{L}])(?:esta|estan|anda|andan) (?:muy |bastante |un poco )?(?:agobiad|estresad|malograd|descompuest|averiad|preocupad|nervios|cansad)[oa]s?(?![\p{L}])|(?<![\p{L}])(?:le|les) preocupa(?![\p{L}])|(?<![\p{L}])quedo en (?:tramite|conflicto|revision|pausa|espera)(?![\p{L}])|(?<![\p{L}])(?:aun|todavia) (?:quedan?|faltan?)(?![\p{L}])|(?<![\p{L}])(?:tiene|tienen) (?:el|la) [a-z]+ rot[oa](?![\p{L}])|(?<![\p{L}])(?:le|les) quedan? \d|(?<![\p{L}])fallan? con ['"`]|(?<![\p{L}])(?:llego a|escaneo|tardo) \d/u;

/** The future tense, read with its accent ("mandará", not "primera"), pinned to a day ahead. */
const FUTURE_AHEAD = new RegExp(
  String.raw`${L}\p{L}{2,}(?:ará|erá|irá|arán|erán|irán)${R}.{0,60}${L}(?:mañana|el (?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo|fin de semana)|la semana que viene|el mes que viene)${R}`,
  'u',
);
/** The agent telling its next step: "Voy a revisar primero ...", "Ahora corro los tests". */
const NARRATION =
  /^(?:voy a|vamos a|ahora (?:corro|reviso|pruebo|ejecuto|miro|veo|compruebo|lanzo)|primero (?:se leyo|leo|reviso|miro))(?![\p{L}])/u;
/** The host's own rules restated: "Según la política del sistema, el asistente no puede ...". */
const HOST_RULES = /(?<![\p{L}])(?:politica del sistema|prompt del sistema|herramientas disponibles|no inventar)(?![\p{L}])/u;
/** Going through something now: "en plena migración", "en época de finales", "anda muy estresado". */
const IN_THE_MIDDLE =
  /(?<![\p{L}])(?:en plena? [\p{L}]+|en epoca de|esta en el taller|anda (?:muy |bastante |un poco )?(?:estresad|cansad|liad|ocupad|enferm)[oa]s?)(?![\p{L}])/u;

/** What someone did in this conversation: asked, said, wrote, thanked, pasted, ran. */
const EVENT_VERB_RAW = String.raw`(?:ya |tambien |luego |despues |otra vez )?(?:pidio|pregunto|dijo|escribio|comento|respondio|contesto|agradecio|dio las gracias|saludo|mando|envio|pego|compartio|subio|adjunto|confirmo|acepto|rechazo|aprobo|menciono|conto|explico|se quejo|mostro|reporto|indico|solicito|consulto|quiso saber|probo|reviso|ejecuto|corrio|abrio|cerro|borro|intento|selecciono|eligio la opcion|reinicio|cancelo la tarea|interrumpio|insistio|repitio|volvio a preguntar|aclaro|corrigio al asistente|busco|encontro|descargo|instalo|configuro|arreglo|resolvio|habilito|deshabilito|quito|agrego|anadio|hizo (?:merge|commit|push|deploy|rebase|pull))${R}`;

/** A request for the task at hand: "pidió revisar", "quiere que el asistente arregle", "necesita ayuda con". */
const REQUEST_VERB = String.raw`(?:pide|pidio|solicita|solicito|encarga|encargo|quiere que (?:el|la) (?:asistente|agente|bot|ia|modelo)|quiere que (?:le|se) |necesita que (?:el|la|le|se) |necesita ayuda (?:con|para)|quiere ayuda (?:con|para)|quiere saber|esta pidiendo|busca ayuda)`;

/** After the subject: a request or an event ("le pidió", "se quejó"). */
const REQUEST = new RegExp(`^(?:le |les )?${REQUEST_VERB}`, 'u');
const EVENT = new RegExp(`^(?:le |les |se |lo |la )?${EVENT_VERB_RAW}`, 'u');

/** What lasts: "siempre", "nunca", "a partir de ahora", "por defecto", "cada vez que". */
const DURABLE = new RegExp(
  String.raw`${L}(?:siempre|nunca|jamas|a partir de ahora|de ahora en adelante|en adelante|desde ahora|por defecto|cada vez que|en general|como norma|todas? (?:los|las) (?:dias|semanas|mananas|noches|lunes|martes|miercoles|jueves|viernes|sabados|domingos))${R}`,
  'u',
);

/** True today, not next week: now, today, this session, a progressive form. */
const PASSING = new RegExp(
  String.raw`${L}(?:ahora mismo|ahorita|en este momento|de momento|por ahora|por el momento|hoy|ayer|anoche|esta manana|esta tarde|esta noche|esta semana|este fin de semana|en esta sesion|en la sesion|en esta conversacion|todavia no|aun no|esta (?:en una reunion|en el (?:dentista|medico|hospital|trabajo|gimnasio)|esperando|de camino|conduciendo)|(?:esta|estan|estaba|estaban) [a-z]+(?:ando|iendo)|(?:esta|estan) (?:rot|caid)[oa]s?|(?:el|la|los|las) [a-z]+ que hay que)${R}`,
  'u',
);

/** A result of this run: tests pass, build fails, it compiles, it was deployed, it is fixed. */
const OUTCOME = new RegExp(
  String.raw`${L}(?:(?:los |las |el |la )?(?:tests?|pruebas?|build|compilacion|pipeline|ci|lint|deploy|despliegue)(?: [\p{L}-]+){0,3} (?:pasan|pasa|fallan|falla|ya funciona|funcionan|quedo|quedaron|esta(?:n)? en verde|esta(?:n)? en rojo|compila|compilan)${R}.{0,40}(?:despues|tras|ahora|ya|con el cambio|del cambio)|(?:se|fue|fueron|quedo|quedaron|ha sido|han sido) (?:corregid|arreglad|desplegad|subid|mergead|commitead|pushead|instalad|actualizad|creado|creada|creados|creadas|borrad|eliminad)[oa]s?${R}|ya esta(?:n)? (?:listo|lista|listos|listas|arreglad[oa]s?|corregid[oa]s?|desplegad[oa]s?|subid[oa]s?|hecho|hecha)|(?:esta|estan) en (?:rojo|verde)|quedo en \d|tiene(?:n)? conflictos|en esta ejecucion|(?:hay|tiene) \d+ [\p{L}-]+ (?:abiert[oa]s|pendientes|sin leer)|con \d+ minutos de retraso|\d+ (?:tests?|pruebas?|checks?) (?:en verde|en rojo|fallan|fallidos?|fallidas?)|fallan \d+ (?:tests?|pruebas?)|(?:quedaron|quedo) (?:todos )?en verde|devolvio \d+|saca \d+ de|saco un \d+|quedo en -?\d)`,
  'u',
);

const CONDITION = /(?<![\p{L}])(?:si|cuando|porque|siempre que|salvo que|a menos que)(?![\p{L}])/u;

/**
 * What makes an agent's Spanish words worth keeping: a standing word, a condition or a cause, a
 * rule ("hay que", "debe"), a limit ("no soporta", "solo acepta"). Used for memories only the agent said.
 */
const LESSON_ES = new RegExp(
  String.raw`${L}(?:la causa|el motivo|se debe a|significa|no (?:soporta|admite|acepta|es compatible|funciona con)|solo (?:acepta|admite|soporta|funciona)|hay que|debe(?:n|mos)?|requiere(?:n)?|necesita(?:n)? (?:que|siempre)|conviene|por convencion)${R}`,
  'u',
);

export function statesSpanishLesson(text: string): boolean {
  const t = fold(text.trim());
  return DURABLE.test(t) || CONDITION.test(t) || LESSON_ES.test(t);
}

/** A textbook definition: "PostgreSQL es una base de datos relacional ..." about no one of theirs. */
const DEFINITION = new RegExp(
  String.raw`^[\p{L}\p{N}.+#/ -]{1,40}? (?:es|son) (?:un|una|unos|unas) (?:[\p{L}-]+ ){0,3}(?:de|que|para|con|basad[oa]|orientad[oa]|escrit[oa]|open ?source|de codigo abierto)${R}`,
  'u',
);
/** What ties a definition to the user: "su", "nuestro", "el usuario", "el equipo", "en el proyecto". */
const THEIRS = new RegExp(
  String.raw`${L}(?:su|sus|nuestr[oa]s?|mi|mis|usuari[oa]|equipo|proyecto|empresa|repo|repositorio|lo usa|la usa|los usa|las usa|usan|usamos)${R}`,
  'u',
);

/** A finite verb a Spanish statement cannot do without (third person, present or past, or a copula). */
const VERB = new RegExp(
  String.raw`${L}(?:es|son|era|eran|fue|fueron|esta|estan|tiene|tienen|hay|se llama|se llaman|le gustan?|le encantan?|[a-z]{2,}(?:a|e|an|en|o|io|aron|ieron|aba|aban|ia|ian)|[a-z]{3,}(?:ara|era|ira)n?)${R}`,
  'u',
);

const SPANISH_VERB =
  /(?<![\p{L}])(?:prefiere|prefieren|bebe|come|vive|viven|trabaja|trabajan|tiene|tienen|usa|usan|utiliza|odia|detesta|suele|juega|habla|entrena|estudia|le gustan?|le encantan?|se llama|es (?:alergic|vegetarian|vegan|celiac|diabetic)[oa])(?![\p{L}])/u;
const ENGLISH = /(?<![\p{L}])(?:the|and|is|are|to|of|with|uses?|prefers?|has|have|user)(?![\p{L}])/u;

export interface SpanishLlmJudgement {
  reason?: AdmissionReason;
  detail?: string;
  /** A standing statement with its verb: the English "no verb" and "no content" checks do not apply. */
  statement: boolean;
}

/**
 * The gate's reading of a Spanish memory an extractor wrote; undefined when the text is not Spanish.
 * A rejection names its reason; otherwise `statement` says whether it reads as a standing fact.
 */
export function judgeSpanishMemory(text: string): SpanishLlmJudgement | undefined {
  const trimmed = text.trim();
  const t = fold(trimmed);
  // "Fernando no bebe alcohol.": too short for the function-word count, the verb says it is Spanish.
  if (!looksSpanish(trimmed) && !(SPANISH_VERB.test(t) && !ENGLISH.test(t))) return undefined;
  const durable = DURABLE.test(t);
  const subject = subjectOf(trimmed);
  const reject = (reason: AdmissionReason, detail?: string): SpanishLlmJudgement => ({
    reason,
    ...(detail ? { detail } : {}),
    statement: false,
  });
  if (CHATTER.test(t)) return reject('chatter');
  if (HOST_RULES.test(t)) return reject('restated-instruction');
  if (NARRATION.test(t)) return reject('process-narration');
  if (AGENT.test(t)) return reject('process-narration');
  if (MADE.test(t)) return reject('session-event');
  if (subject) {
    const after = t.slice(subject.length).trimStart();
    if (!durable && REQUEST.test(after)) return reject('task-request');
    if (!durable && EVENT.test(after)) return reject('session-event');
  }
  if (REACTION.test(t)) return reject('chatter', 'reaction');
  if (POINTING.test(t)) return reject('context-dependent');
  if (
    !durable &&
    (PLAN.test(t) ||
      PLAN_AHEAD.test(t) ||
      INTENT_AHEAD.test(t) ||
      FUTURE_AHEAD.test(trimmed.toLowerCase()) ||
      SUBJECT_PLAN.test(trimmed) ||
      SUBJECT_FUTURE.test(trimmed))
  )
    return reject('passing-state', 'plan');
  if (!durable && TO_DO_ES.test(t)) return reject('task-request', 'to-do');
  if (!durable && NOW_ES.test(t)) return reject('passing-state');
  // "Corrió ruff --fix sobre src/", "Pidió una receta sin lácteos": what was done, with no subject (the verb is no name).
  if (!durable && EVENT.test(t) && !/(?:19|20)\d{2}/.test(t)) return reject('session-event');
  if (!durable && IN_THE_MIDDLE.test(t)) return reject('passing-state');
  if (!durable && PASSING.test(t)) return reject('passing-state');
  // "fallan si el puerto ya está ocupado": a condition makes a result a lesson.
  if (OUTCOME.test(t) && !CONDITION.test(t)) return reject('status-noise', 'run-outcome');
  if (DEFINITION.test(t) && !THEIRS.test(t)) return reject('common-knowledge');
  return { statement: subject !== undefined && VERB.test(t) };
}
