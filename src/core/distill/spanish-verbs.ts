/**
 * Spanish changes told in the past, in every person a chat uses: "cancelé netflix", "adoptamos
 * poetry", "he vendido el ibiza", "valen dejó natación", "se mudaron a rosario". Listing each form by
 * hand left most of them out, so the forms are made from the verbs that say something was taken up,
 * dropped or replaced: the preterite (yo, nosotros, ellos; él only when written with its accent, since
 * folded "dejo" is also the present "I leave") and the perfect with any auxiliary, with or without a
 * clitic ("me he comprado", "nos hemos mudado"). Verbs of everyday work ("borré", "agregué", "subí")
 * name a change only with a new value after them ("subí el plan a 1 giga"), so they are read that way.
 */

/** Stems of -ar verbs of taking up, dropping or replacing; the yo preterite respells c/g/z before e. */
const AR = [
  'cambi',
  'migr',
  'mud',
  'cancel',
  'adopt',
  'abandon',
  'reemplaz',
  'estandariz',
  'contrat',
  'renunci',
  'desinstal',
  'jubil',
  'retir',
  'archiv',
  'unific',
  'apunt',
  'traslad',
  'pas',
];
/** "dejó natación": "dejamos" alone is as often "los dejamos para la tarde", so only the accented form is read here. */
const AR_ACCENTED_ONLY = ['dej'];
/** Stems of -er / -ir verbs of the same kind, with their participle when it is irregular. */
const ER: Array<[stem: string, participle?: string]> = [['vend'], ['volv', 'vuelto'], ['sustitu'], ['mov']];
/** Verbs told with what they take up after "a": "pasamos a pnpm", "volví a kong", "me cambié al gym de la uni". */
const WITH_A = new Set(['pas', 'volv', 'mov', 'cambi']);

/** The yo preterite of an -ar stem, folded: "cancel" → "cancele", "unific" → "unifique", "estandariz" → "estandarice". */
function yoAr(stem: string): string {
  if (stem.endsWith('c')) return `${stem.slice(0, -1)}que`;
  if (stem.endsWith('g')) return `${stem}ue`;
  if (stem.endsWith('z')) return `${stem.slice(0, -1)}ce`;
  return `${stem}e`;
}

const alt = (forms: string[]): string => `(?:${forms.join('|')})`;

/** Folded preterite and perfect forms of one stem. */
function forms(stem: string, kind: 'ar' | 'er', participle?: string): string[] {
  const preterite = kind === 'ar' ? [yoAr(stem), `${stem}amos`, `${stem}aron`] : [`${stem}i`, `${stem}imos`, `${stem}ieron`, `${stem}io`];
  const done = participle ?? (kind === 'ar' ? `${stem}ado` : `${stem}ido`);
  return [...preterite, `(?:he|hemos|ha|han|has) ${done}`];
}

const withA = (stem: string, form: string): string => (WITH_A.has(stem) ? `${form} (?:a|al|a la)` : form);
const told = (stem: string, kind: 'ar' | 'er', participle?: string): string => withA(stem, alt(forms(stem, kind, participle)));

const CLITIC = String.raw`(?:(?:me|nos|se|le|les|lo|la|los|las) )?`;

/** The change verbs above, in the folded text (spanish-facts.ts `CHANGE_ES_TOLD`); "me compré" and "nos compramos" only reflexive. */
export const CHANGED_VERB_ES = String.raw`${CLITIC}${alt([
  ...AR.map((s) => told(s, 'ar')),
  ...ER.map(([s, p]) => told(s, 'er', p)),
  String.raw`(?:me|nos) (?:compre|compramos|(?:he|hemos) comprado)`,
  // Everyday work verbs name a change with the new value after them: "subí el plan a 1 giga", "actualizamos el repo a python 3.11".
  String.raw`${alt(['subi', 'subimos', 'baje', 'bajamos', 'actualice', 'actualizamos', '(?:he|hemos|han) (?:subido|bajado|actualizado)'])} (?:[\p{L}\p{N}.+#-]+ ){0,5}?a (?:(?:la|las|el|los|[\p{L}]+) )?\d+`,
])}(?![\p{L}\p{N}])`;

/** The él / ella preterite, only as written with its accent: "dejó", "vendió", "se mudó". Read on lower-cased, unfolded text. */
export const CHANGED_VERB_ES_ACCENTED = new RegExp(
  String.raw`(?<![\p{L}\p{N}])${CLITIC}${alt([...[...AR, ...AR_ACCENTED_ONLY].map((s) => withA(s, `${s}ó`)), ...ER.map(([s]) => withA(s, `${s}ió`))])}(?![\p{L}\p{N}])(?! de (?:funcionar|andar|responder|servir|cargar|compilar|arrancar|existir))`,
  'u',
);
