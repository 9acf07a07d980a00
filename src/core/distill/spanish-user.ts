import { firstVeto, type Veto, type VetoTable } from './veto.js';

/**
 * More of how Spanish speakers type to an agent, read on accent-folded, lower-cased text with chat
 * shorthand spelt out (spanish.ts `foldChatEs`): what they learned, decided, live with and do for
 * fun, and the shapes of talk about the moment that look like standing statements.
 */
const W = (source: string): RegExp => new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${source})(?![\p{L}\p{N}])`, 'u');

/**
 * Chat shorthand spelt out: "aprendi q ...", "xq", "tb", "x ahora" read as "aprendí que", "porque",
 * "también", "por ahora", so the patterns below see the words they are written for.
 */
const CHAT_ES: Array<[RegExp, string]> = [
  [/(?<![\p{L}\p{N}])q(?![\p{L}\p{N}'’])/gu, 'que'],
  [/(?<![\p{L}\p{N}])Q(?![\p{L}\p{N}'’])/gu, 'Que'],
  [/(?<![\p{L}\p{N}])(?:xq|pq|porq)(?![\p{L}\p{N}])/giu, 'porque'],
  [/(?<![\p{L}\p{N}])(?:tb|tmb|tbn)(?![\p{L}\p{N}])/giu, 'también'],
  // "x" before an article or a time word is "por" ("x ahora", "x la tarde"); "2 x 3", "x86", "la variable x" are not.
  [
    /(?<![\p{L}\p{N}])x(?=\s+(?:ahora|el|la|los|las|un|una|eso|esto|favor|fa|mes|dia|día|semana|hora|ejemplo|lo|mi|mis|su|sus|si|suerte|cierto|culpa|fin|ciento|persona)(?![\p{L}]))/gu,
    'por',
  ],
  [/(?<![\p{L}\p{N}])X(?=\s+(?:ahora|el|la|los|las|un|una|eso|esto|favor|fa|ejemplo|lo|mi|si|suerte|cierto|fin)(?![\p{L}]))/gu, 'Por'],
];

export function foldChatEs(text: string): string {
  let out = text;
  for (const [pattern, to] of CHAT_ES) out = out.replace(pattern, to);
  return out;
}

/** "aprendí que con avianca conviene pagar la maleta al comprar", "me di cuenta de que ...", "lo comprobé dos temporadas". */
export const LESSON_ES = W(
  String.raw`(?:aprendi|aprendimos|descubri|descubrimos|comprobe|comprobamos) (?:que|a)|me di cuenta (?:de )?que|nos dimos cuenta (?:de )?que|la leccion (?:es|fue)|lo aprendi|lo (?:comprobe|comprobamos)|ya se que (?:no )?conviene`,
);

/** "decidí sacar la tele del cuarto", "decidí que este año no uso más la tarjeta". */
export const DECIDED_ES = W(String.raw`decidi|me propuse|me puse como regla`);

/**
 * A standing fact of a person: a condition and its medicine, an instrument, a sport, a course, a
 * goal, how they learn; and a team rule with "ningún X puede ...".
 */
export const PERSON_ES = W(
  String.raw`tengo (?:[a-z]+(?:ismo|itis|emia|osis|algia|patia)|asma|migranas?|celiaquia|anemia|endometriosis|tdah|ansiedad|insomnio|tinnitus|escoliosis|hernia [a-z]+)|tomo [a-z]+ (?:en ayunas|cada \d+|todas las|por las|antes de|despues de|con las comidas)|toco (?:el|la) (?:bajo|guitarra|piano|bateria|violin|ukelele|saxo|trompeta|flauta|cello|charango|cajon)|(?:juego|jugamos) (?:al|a la) (?:futbol|padel|tenis|basquet|voley|rugby|hockey|golf|ajedrez)|corro (?:medias? )?maratones|(?:estoy preparando|me estoy preparando para|rindo) (?:el|la) [a-z]+|entiendo (?:mucho )?mejor con|aprendo (?:mucho )?mejor con|me cuesta (?:un monton |mucho |bastante )?(?:leer|entender|seguir)|ningun[oa]? [\p{L}\p{N}]+(?: [\p{L}]+)? (?:puede|debe|pasa|se mergea)|no compro (?:nada|nunca) (?:en|de)`,
);

// ---------------------------------------------------------------- talk about the moment

/**
 * Someone else's opinion: "mi jefe dice que ...", "mi amiga vale jura que ...", "leí en twitter que ...".
 * What a doctor "me dijo" is advice the user lives by, so only opinion verbs count.
 */
const REPORTED_ES = W(
  String.raw`^(?:(?:che|oye|bueno|y|pues|jaja)[,\s]+)*(?:mi|mis|el|la|los|las|un|una|unos) (?:[\p{L}\p{N}]+ ){0,5}?(?:dice|dicen|jura|juran|cree|creen|opina|opinan|asegura|aseguran|piensa|piensan|comenta|insiste) (?:que|en que)|^(?:lei|vi|escuche) en [\p{L}\p{N}]+(?: [\p{L}]+)? que|^dicen que`,
);
/** "imaginate que tengo un local", "y si usamos websockets": a supposition, not the user's life. */
const SUPPOSE_ES = W(
  String.raw`^(?:imaginate|imagina|imaginemos|supongamos|suponete|supone|pongamos|pongale|digamos) (?:que|q)|^y si|^que tal si|^si (?:algun dia|fuera por mi|yo fuera|tuviera|tuvieramos|pudiera|pudieramos)(?![\p{L}])|^si [a-z]+(?:amos|emos|imos)(?![\p{L}])[^,;]*$`,
);
/** "a partir de ahora nos enfocamos en el bug del login": the work to turn to, not a rule. */
const FOCUS_ES = W(
  String.raw`(?:a partir de ahora|de ahora en (?:adelante|mas)|desde ahora|por ahora),? (?:nos (?:enfocamos|centramos|dedicamos|ponemos con)|seguimos con|vamos con|vamos a (?:ver|arreglar|hacer|probar|terminar|seguir|trabajar)|sigamos con|pasemos a|arranquemos con|empecemos con|probemos|revisa|revisas|revisame|mira|mirame|arregla|arreglame)|^(?:(?:bueno|ok|dale|ahora)[,\s]+)*probemos (?:con|a|de)`,
);
/** This task, this PR, this file: "para esta tarea usá python nomás", "en este pr revisá solo pagos". */
const THIS_TASK_ES = W(
  String.raw`(?:en|para|de|todo|toda|durante) (?:este|esta) (?:tarea|pr|archivo|ticket|commit|rama|issue|script|funcion|test|paso|ejercicio|caso|sprint|lista|tabla|pantalla|vista|pagina|componente|endpoint|consulta|notebook)`,
);
/** "nunca entendí bien cómo funciona el aguinaldo": a question in the form of a confession. */
const NOT_UNDERSTOOD_ES = W(
  String.raw`(?:nunca|no|todavia no|aun no) (?:entendi|entiendo|supe|se|capte|cacho) (?:bien |muy bien |del todo )?(?:como|que|por que|porque|cual|cuando|para que)`,
);
/** "nunca había visto un error tan raro", "nunca me imaginé que ...": an exclamation about the past, not a rule. */
const NEVER_BEFORE_ES = W(String.raw`nunca (?:habia|hubiera|me (?:imagine|espere|esperaba)|pense|crei|vi)`);
/** A question typed without its mark: "si tiene fiebre q hago", "xq será". */
const ASKS_TAG_ES = W(String.raw`(?:que|q) (?:hago|hacemos)[\s.!]*$|(?:porque|por que|xq) sera[\s.!]*$|sera asi[\s.!]*$`);
/**
 * "cómo subo los símbolos de dart ofuscado", "dónde pongo el .env": how or where the speaker does
 * something, asked without a mark, one clause long. "Como no como carne, ..." gives a reason, and
 * its clause is read without the "como" (cause-clause.ts); "donde vivo no hay fibra" says where, and
 * "como tengo auto no uso el bus" gives a reason before its main clause.
 */
const HOW_DO_I_ES = W(
  String.raw`^(?:(?:y|pero|entonces|bueno)\s+)?(?:como|donde) (?:(?:le|lo|la|los|las|me|se|te)\s+)?(?!(?:no|todo|toda|todos|todas|siempre|ya|yo|mucho|poco|nuevo|tampoco|vivo|trabajo|estudio|laburo|curro)(?![\p{L}]))[\p{L}]{2,}o(?![\p{L}])(?![^,;]*\s(?:no|nunca|siempre|ya)\s)[^,;]*$`,
);
/** Points back at the conversation: "ese no me gusta", "la misma estructura que en el archivo anterior". */
const POINTS_BACK_ES = W(
  String.raw`^(?:ese|esa|esos|esas|eso)(?: [\p{L}]+)? (?:no|si|me|es|son|esta|estan|queda|va|anda)|^(?:este|esta|estos|estas) no (?:me )?(?:gusta|gustan|sirve|sirven|va|anda)|(?:el|la|los|las) (?:archivo|opcion|version|mensaje|paso|ejemplo|codigo|respuesta|propuesta|diseno)s? (?:anterior|de antes|de arriba|que me pasaste|que mandaste)|(?:la|el) mism[oa] [\p{L}]+ (?:que|como) (?:en|el|la|antes)|prefiero (?:ese|esa|este|esta|eso|esto)(?![\p{L}])|(?:que|q) te (?:pase|mande|di|dije|mostre)(?: (?:arriba|antes|recien|ayer))?(?![\p{L}])|opcion (?:[a-e]|[1-5]|uno|dos|tres)(?![\p{L}\p{N}])`,
);
/** A plan or a state of the work: "dejé el endpoint a medias, mañana lo sigo". */
const PLAN_ES = W(
  String.raw`(?:manana|despues|luego|mas tarde|el lunes) lo (?:sigo|termino|veo|retomo)|lo (?:sigo|termino|retomo) (?:manana|despues|luego|mas tarde)|a medias|^(?:manana|pasado manana|esta (?:tarde|noche)) (?:llevo|voy|tengo|paso|hago|vamos|salgo|viajo)(?![\p{L}])|(?:despues|luego|mas tarde|ahora) te (?:paso|mando|digo|confirmo|aviso)|a ver (?:que|q|si) (?:pasa|sale|anda|funciona)`,
);
/** Something misbehaving or the state of the work: "se queda colgado en el paso 4", "no anda el wifi", "staging está caído", "mi rama tiene conflictos". */
const MISBEHAVING_ES = W(
  String.raw`se (?:queda|quedo) (?:colgad[oa]|trabad[oa]|pegad[oa])|se (?:cuelga|traba|tilda|congela|reinicia solo)|tira (?:un )?error|(?:no|nunca) (?:me )?anda|(?<!no )se rompe|sigue (?:corriendo|cargando|compilando|bajando|subiendo|instalando)|ya van \d+|me (?:tiene|tienen) (?:loc[oa]|hart[oa]|podrid[oa]|frit[oa])|(?:que|q) onda[\s!.]*$|(?:esta|estan) caid[oa]s?|sin bateria|mi (?:rama|branch|pr) (?:tiene|esta)|tiene(?:n)? conflictos`,
);

/** Checked in this order. */
const MOMENT_ES: VetoTable = [
  [REPORTED_ES, { reason: 'context-dependent', detail: 'reported speech' }],
  [SUPPOSE_ES, { reason: 'question', detail: 'supposition' }],
  [FOCUS_ES, { reason: 'task-request', detail: 'the work to turn to' }],
  [THIS_TASK_ES, { reason: 'passing-state', detail: 'this task' }],
  [NOT_UNDERSTOOD_ES, { reason: 'question', detail: 'not understood' }],
  [NEVER_BEFORE_ES, { reason: 'chatter', detail: 'never before' }],
  [ASKS_TAG_ES, { reason: 'question', detail: 'asks without a mark' }],
  [HOW_DO_I_ES, { reason: 'question', detail: 'how or where, without a mark' }],
  [POINTS_BACK_ES, { reason: 'context-dependent', detail: 'points back' }],
  [PLAN_ES, { reason: 'passing-state', detail: 'plan' }],
  [MISBEHAVING_ES, { reason: 'passing-state', detail: 'misbehaving' }],
];

/** Why a Spanish user sentence is talk about the moment however it is worded, or undefined. Folded text. */
export function spanishMomentKind(folded: string): Veto | undefined {
  return firstVeto(folded, MOMENT_ES);
}
