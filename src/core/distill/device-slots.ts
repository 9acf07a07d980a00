/**
 * The speaker's own phone, car and computer: one of each at a time, so "got an iPhone 15" after
 * "my phone is a Pixel 7", "me compré un samsung a34" after "tengo un moto g52" and "sold the car"
 * after "I drive a 2016 ford fiesta" end the old memory although the two share no word. A device is
 * known by its model ("pixel 7", "galaxy a52", "macbook air", "honda civic", "tengo un corolla"),
 * and counts only when it is the speaker's: a first-person cue in the statement, no other owner
 * ("my wife's car") and no test device, emulator or simulator in its clause ("our low-end test
 * phone", "el emulador de un pixel 7"). Like home and manager (personal-slots.ts), a second value
 * replaces the first only when the statement says it is new: bought, given, upgraded, sold, now.
 */
import { fold } from './spanish.js';

export type DeviceKind = 'phone' | 'car' | 'computer';

export interface DeviceSlot {
  slot: DeviceKind;
  value: string;
  /** The statement says the device is new or gone ("got", "me compré", "died", "now"). */
  change: boolean;
  /** "work laptop", "la notebook de la pega": whose use the device is for, when the statement says. */
  use?: 'work' | 'home';
}

const CAR_MAKES =
  'toyota|honda|ford|kia|hyundai|nissan|volkswagen|vw|renault|peugeot|citroen|fiat|chevrolet|chevy|tesla|bmw|audi|mazda|subaru|skoda|opel|vauxhall|volvo|suzuki|mitsubishi|dacia|byd|lexus|cupra';
/**
 * Models named without their make ("tengo un Corolla"). Words that are also common nouns are left
 * out (focus, jazz, swift, polo, golf, fiesta, leaf, punto, gol): their make names them.
 */
const CAR_MODELS =
  'civic|corolla|yaris|prius|avensis|auris|rav4|camry|hilux|mondeo|passat|tiguan|gol trend|ibiza|clio|megane|sandero|duster|micra|qashqai|niro|ev6|sportage|picanto|ioniq|tucson|outback|impreza|octavia|fabia|corsa|onix|cruze|model [3sxy]|mx-5';

/** The word after a make, when it is a model: not a verb, article, preposition ("my honda is", "a ford for"). */
const MODEL = String.raw`(?:\s(?!(?:is|are|was|has|had|with|for|from|to|in|on|at|of|and|or|that|which|so|but|running|es|era|con|de|del|y|o|para|que|q|pero|en|le|me|se|lo|la)(?![\p{L}\p{N}]))[a-z0-9][a-z0-9-]*)`;
/** Seat, Mini and Mercedes are words and names too: only with one of their models or "benz". */
const WORD_MAKES = String.raw`seat\s(?:ibiza|leon|arona|ateca|toledo|cordoba|altea|mii)|mini\s(?:cooper|countryman|clubman)|mercedes[\s-]benz`;
const DEVICES: ReadonlyArray<{ kind: DeviceKind; re: RegExp }> = [
  {
    kind: 'phone',
    re: new RegExp(
      String.raw`(?<![\p{L}\p{N}])(iphone(?:\s?(?:\d{1,2}|xr|xs|x|se))?(?:\s(?:pro max|pro|max|plus|mini))?|pixel\s\d{1,2}a?(?:\s(?:pro|xl))?|(?<=\b(?:the|an?)\s)1\d\s(?:pro max|pro|plus|mini)|(?:samsung\s)?galaxy\s[a-z]{1,2}\d{1,3}\+?|samsung\s[asmzf]\d{1,3}\+?|(?:motorola\s)?moto\s(?:g|e|edge)\s?\d{1,3}|motorola(?:\s(?:g|e|edge|one)\s?\d{0,3})?|(?:xiaomi\s)?redmi(?:\snote)?(?:\s\d{1,2})?|oneplus\s?\d{1,2}|tecno(?:\s(?:camon|spark|pova|phantom)\s?\d{1,2})?|huawei\s(?:p|mate|nova)\s?\d{1,2}|nokia(?:\s\d{3,4})?|blackberry)(?![\p{L}\p{N}])`,
      'gu',
    ),
  },
  {
    kind: 'computer',
    re: new RegExp(
      String.raw`(?<![\p{L}\p{N}])((?:m[1-4]\s)?macbook(?:\s(?:air|pro))?(?:\s(?:m[1-4](?:\s(?:pro|max))?|intel))?|(?<=\b(?:an?|un|una)\s)m[1-4]\s(?:pro|max)|thinkpad(?:\s[a-z]\d{1,3})?|(?:dell\s)?xps(?:\s\d{2})?|surface\s(?:pro|laptop|book)(?:\s\d)?|chromebook|imac|mac\s(?:mini|studio))(?![\p{L}\p{N}])`,
      'gu',
    ),
  },
  {
    kind: 'car',
    re: new RegExp(
      String.raw`(?<![\p{L}\p{N}])(${WORD_MAKES}|(?:${CAR_MAKES})(?!\s(?:shares|stock|stocks|acciones|share|dealership|dealer))${MODEL}?|(?<=\b(?:drive|drives|driving|tengo|manejo|maneja|un|una|el|the|a|an)\s(?:(?:19|20)\d\d\s|used\s|old\s)?)(?:${CAR_MODELS}))(?![\p{L}\p{N}])`,
      'gu',
    ),
  },
];

/** The nouns a statement drops a device by: "sold the car", "vendí el auto", "sold my phone". */
const DEVICE_NOUNS: Record<DeviceKind, RegExp> = {
  phone: /^(?:phone|cellphone|mobile|cell|celu|celular|movil|telefono)$/,
  car: /^(?:car|auto|coche|carro)$/,
  computer: /^(?:laptop|notebook|lap|portatil|compu|computadora|ordenador)$/,
};

/** The speaker, or someone speaking of them ("the user's phone", "they drive"): the device is theirs. */
const OWNER =
  /(?<![\p{L}])(?:i|i'm|im|my|me|we|we're|our|us|the user|the user's|they|their|mi|mis|nos|tengo|tenemos|manejo|trabajo|ando|compre|compramos|vendi|vendimos|cambie|cambiamos)(?![\p{L}])|^(?:(?:just|finally|also)\s+)?(?:phone|finally|got|bought|upgraded|switched|traded|sold|replaced|picked)\b/u;
/** Someone else's device: "my wife's car", "el celu de mi hija". */
const RELATIVE_EN = 'wife|husband|partner|son|daughter|kid|mum|mom|dad|brother|sister|friend|boss|colleague|girlfriend|boyfriend';
const RELATIVE_ES =
  'hij[oa]|yerno|nuera|espos[oa]|marido|mujer|novi[oa]|pareja|madre|padre|mama|papa|herman[oa]|niet[oa]|sobrin[oa]|tio|tia|abuel[oa]|amig[oa]|jef[ea]|suegr[oa]|cunad[oa]';
const OTHER_OWNER = new RegExp(
  String.raw`\b(?:${RELATIVE_EN})'s\s(?:\w+\s)?(?:car|phone|laptop|iphone|mac)|\bmy (?:${RELATIVE_EN})\s(?:[a-z]+\s)?(?:(?:just|finally|also)\s)?(?:has|drives|uses|owns|is on|got|gets|bought|buys|upgraded|switched|picked up|traded|sold)\b|(?:celu|celular|movil|auto|coche|carro|notebook|laptop)\s(?:de|del)\s(?:mi|su|la|el)\s|(?<![\p{L}])(?:mi|su|tu)\s(?:${RELATIVE_ES})(?:[\s,]+[\p{L}]+){0,5}?[\s,]+(?:tiene|conduce|maneja|usa|anda)(?![\p{L}])`,
  'u',
);
/** A device kept for testing, not the one the speaker lives with. */
const TEST_DEVICE =
  /(?<![\p{L}])(?:test|testing|tests|emulator|emulador|simulator|simulador|sims?|avd|api\s\d+|screenshots?|reference device|prueba|pruebas|probar|pruebo|build|builds|ci|server|servidor)(?![\p{L}])/u;
const WORK_USE =
  /(?<![\p{L}])(?:work|trabajo|pega|laburo|office|oficina)\s(?:laptop|phone|machine|mac)|(?:laptop|notebook|lap|compu|celu|movil)\s(?:del?|de la)\s(?:trabajo|pega|laburo|oficina)(?![\p{L}])/u;
const HOME_USE = /(?<![\p{L}])(?:at home|en casa|for family|personal|own machine)(?![\p{L}])/u;

/** Bought, given, upgraded, gone, or now: the device is news. */
const NEWS =
  /(?<![\p{L}])(?:got|get|bought|buy|picked up|upgraded|switched|replaced|traded|new|now|finally|gave me|handed me|issued|coughed up|died|broke|sold|compre|compramos|comprado|regalo|regalado|regalaron|entregaron|dieron|llego|cambie|cambiamos|estrene|nuevo|nueva|ahora|vendi|jubilado|por fin)(?![\p{L}])/u;

const CLAUSE = /[,;.!?()]\s*|\s(?:so|because|but|porque|pero|asi que|y)\s/gu;

/** The speaker's own devices a statement names, the last one named first: "cambié el redmi por un pixel 7a" is a pixel 7a. */
export function deviceSlotsOf(text: string): DeviceSlot[] {
  const folded = fold(text).replace(/[’]/g, "'");
  if (!OWNER.test(folded) || OTHER_OWNER.test(folded)) return [];
  const found: Array<{ slot: DeviceKind; value: string; at: number }> = [];
  for (const { kind, re } of DEVICES)
    for (const m of folded.matchAll(re)) {
      const clause = clauseAt(folded, m.index);
      if (!TEST_DEVICE.test(clause)) found.push({ slot: kind, value: m[1]!.replace(/\s+/g, ' '), at: m.index });
    }
  const change = NEWS.test(folded);
  const use = WORK_USE.test(folded) ? 'work' : HOME_USE.test(folded) ? 'home' : undefined;
  const seen = new Set<DeviceKind>();
  return found
    .sort((a, b) => b.at - a.at)
    .filter((d) => !seen.has(d.slot) && seen.add(d.slot))
    .map((d) => ({ slot: d.slot, value: d.value, change, ...(use ? { use } : {}) }));
}

/** The clause of `text` around position `at`: between the clause breaks either side of it. */
function clauseAt(text: string, at: number): string {
  let start = 0;
  for (const m of text.matchAll(CLAUSE)) {
    if (m.index >= at) return text.slice(start, m.index);
    start = m.index + m[0].length;
  }
  return text.slice(start);
}

export function isDeviceSlot(slot: string): slot is DeviceKind {
  return slot === 'phone' || slot === 'car' || slot === 'computer';
}

/** The kind of device a dropped name is the plain noun of ("car", "el auto"), if any. */
export function deviceKindOfNoun(name: string): DeviceKind | undefined {
  const word = fold(name).replace(/^(?:the|my|our|el|la|mi)\s+/, '');
  return (Object.keys(DEVICE_NOUNS) as DeviceKind[]).find((kind) => DEVICE_NOUNS[kind].test(word));
}
