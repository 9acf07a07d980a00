/**
 * Offline reconciliation of single-valued preferences: "which editor", "which package manager".
 * Without an LLM, a restated preference ("My editor of choice is Vim" after "I use Vim as my
 * editor") must not become a second memory, and a change ("I switched to Helix") must supersede
 * the old one. A statement's slot comes from the noun it names ("as my editor", "our package
 * manager is") or, failing that, from the category of a well-known tool it names; its value is
 * the tool. Slots are the common developer choices (editor, shell, terminal, package manager,
 * database, browser, OS, language, theme, font, CI, APM, error tracker), where one lives and whom
 * one reports to (personal-slots.ts), and the speaker's phone, car and computer (device-slots.ts);
 * anything else is left to the LLM path.
 */
import { deviceSlotsOf, isDeviceSlot } from './device-slots.js';
import { isPersonalSlot, personalSlotOf } from './personal-slots.js';

export interface Slot {
  slot: string;
  /** Normalised tool or value name. */
  value: string;
  /** The statement says the value is new or gone (the speaker's devices, device-slots.ts). */
  change?: boolean;
}

const TOOLS: Record<string, string[]> = {
  editor: [
    'vim',
    'neovim',
    'nvim',
    'emacs',
    'helix',
    'vscode',
    'vs code',
    'visual studio code',
    'sublime',
    'sublime text',
    'zed',
    'intellij',
    'webstorm',
    'pycharm',
    'goland',
    'rider',
    'cursor',
    'windsurf',
    'nano',
    'kakoune',
    'atom',
    'textmate',
    'notepad++',
    'xcode',
    'android studio',
    'eclipse',
    'micro',
  ],
  shell: ['bash', 'zsh', 'fish', 'nushell', 'powershell', 'pwsh', 'tcsh', 'ksh', 'elvish', 'xonsh'],
  terminal: [
    'iterm',
    'iterm2',
    'alacritty',
    'kitty',
    'wezterm',
    'ghostty',
    'warp',
    'hyper',
    'windows terminal',
    'konsole',
    'gnome terminal',
    'tmux',
    'zellij',
  ],
  'package manager': ['npm', 'pnpm', 'yarn', 'bun', 'deno', 'pip', 'poetry', 'uv', 'pipenv', 'conda', 'cargo', 'homebrew', 'brew'],
  database: [
    'postgres',
    'postgresql',
    'mysql',
    'mariadb',
    'sqlite',
    'mongodb',
    'redis',
    'dynamodb',
    'cockroachdb',
    'supabase',
    'planetscale',
    'duckdb',
    'clickhouse',
  ],
  browser: ['chrome', 'firefox', 'safari', 'arc', 'brave', 'edge', 'opera', 'vivaldi', 'zen', 'helium'],
  os: ['macos', 'linux', 'windows', 'ubuntu', 'arch', 'fedora', 'debian', 'nixos', 'cachyos'],
  ci: [
    'circleci',
    'circle ci',
    'github actions',
    'gitlab ci',
    'jenkins',
    'travis',
    'travis ci',
    'buildkite',
    'teamcity',
    'azure pipelines',
    'bitbucket pipelines',
    'codebuild',
    'bitrise',
    'codemagic',
    'appveyor',
    'gocd',
    'tekton',
  ],
  apm: [
    'datadog',
    'new relic',
    'newrelic',
    'dynatrace',
    'honeycomb',
    'appdynamics',
    'signoz',
    'lightstep',
    'instana',
    'appsignal',
    'skywalking',
  ],
  'error tracker': [
    'sentry',
    'bugsnag',
    'rollbar',
    'honeybadger',
    'raygun',
    'crashlytics',
    'firebase crashlytics',
    'glitchtip',
    'airbrake',
  ],
};
const SLOT_NOUNS: Record<string, RegExp> = {
  editor: /\b(?:editor|ide|text editor|code editor|editor de (?:código|codigo|texto))\b|编辑器/i,
  shell: /\bshell\b/i,
  terminal: /\bterminal(?: emulator)?\b|终端/i,
  'package manager': /\bpackage manager\b|\bgestor de paquetes\b|包管理器/i,
  database: /\b(?:database|db|base de datos)\b|数据库/i,
  browser: /\b(?:browser|navegador)\b|浏览器/i,
  os: /\b(?:os|operating system|distro|sistema operativo)\b|操作系统/i,
  theme: /\b(?:theme|colou?r ?scheme|tema)\b|主题/i,
  font: /\b(?:font|fuente|tipograf[ií]a)\b|字体/i,
  language: /\b(?:programming )?language\b|\blenguaje(?: de programación)?\b|编程语言/i,
  timezone: /\btime ?zone\b|\bzona horaria\b|时区/i,
};

/** Slots known only by the tools they name: "a CI badge" or "monitoring alerts" name no tool. */
const BY_NAME_ONLY = new Set(['ci', 'apm', 'error tracker']);

const ALIASES: Record<string, string> = {
  nvim: 'neovim',
  'vs code': 'vscode',
  'visual studio code': 'vscode',
  postgresql: 'postgres',
  iterm2: 'iterm',
  pwsh: 'powershell',
  brew: 'homebrew',
  'circle ci': 'circleci',
  'travis ci': 'travis',
  newrelic: 'new relic',
  'firebase crashlytics': 'crashlytics',
};

const TOOL_RE = new Map<string, RegExp>(
  Object.entries(TOOLS).map(([slot, names]) => [
    slot,
    new RegExp(`(?<![\\w.-])(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w-])`, 'gi'),
  ]),
);

function canonical(name: string): string {
  const lower = name.toLowerCase();
  return ALIASES[lower] ?? lower;
}

/** The single-valued choice a statement is about, if it names one. */
export function slotOf(text: string): Slot | undefined {
  return slotsOf(text)[0];
}

/**
 * Every single-valued choice a statement names, the first the one it is mostly about: "work gave
 * me a macbook, so macos now, brew instead of apt" changes the OS and the package manager.
 */
export function slotsOf(text: string, options: { dropped?: (name: string) => boolean } = {}): Slot[] {
  const personal = personalSlotOf(text);
  if (personal) return [{ slot: personal.slot, value: personal.value }];
  const nouns = Object.entries(SLOT_NOUNS)
    .filter(([, re]) => re.test(text))
    .map(([slot]) => slot);
  const slots: Slot[] = [];
  for (const [slot, re] of TOOL_RE) {
    const named = [...text.matchAll(re)].map((m) => canonical(m[1]!));
    if (named.length === 0) continue;
    // "went full neovim, uninstalled vscode": the tool the statement drops is not its choice.
    const kept = named.filter((n) => !options.dropped?.(n));
    const names = kept.length > 0 ? kept : named;
    // "my editor is vim": a slot noun says which slot the tools named are for; a CI or monitoring
    // tool is that whatever noun stands beside it ("the build db runs on jenkins").
    if (nouns.length > 0 && !nouns.includes(slot) && !BY_NAME_ONLY.has(slot)) continue;
    // "switched from Vim to Helix": the value is what follows "to"; else the last tool named.
    const to = new RegExp(
      `(?:\\b(?:to|now use|use|with|a|al|por|uso|usamos|utilizo)|为|到|成)\\s+(?:the\\s+)?${'(' + TOOLS[slot]!.join('|').replace(/[.+]/g, '\\$&') + ')'}`,
      'i',
    ).exec(text);
    const chosen = to?.[1] && !options.dropped?.(canonical(to[1])) ? to[1] : names[names.length - 1]!;
    slots.push({ slot, value: canonical(chosen) });
  }
  // The speaker's phone, car or computer, after the tools ("work gave me a macbook, so macos now").
  const devices = deviceSlotsOf(text)
    .filter((d) => !options.dropped?.(d.value))
    .map((d) => ({ slot: d.slot, value: d.value, change: d.change }));
  if (slots.length > 0) return [...slots, ...devices];
  // A slot noun and a capitalised name: "My theme is Dracula", "our timezone is Europe/Berlin".
  const slot = nouns[0];
  if (!slot) return devices;
  const value = /(?:\bis|\bare|:|是|用)\s*(?:the\s+)?([A-Z][\w/+.-]*(?:\s+[A-Z][\w/+.-]*)*|[\u3400-\u9fff\w/+.-]{2,})/.exec(text)?.[1];
  return value ? [{ slot, value: value.toLowerCase() }, ...devices] : devices;
}

/** "me cambié a X", "ahora uso X", "ya no uso Y", "dejé de usar", "en vez de". */
const SPANISH_CHANGE =
  /(?<![\p{L}])(?:(?:me|nos) (?:(?:he|hemos) )?(?:cambi[eé]|cambiamos|cambiado|pas[eé]|pasamos|pasado) (?:de \S+(?: \S+)? )?a|cambiamos \S+(?: \S+)? por|ahora (?:solo )?(?:uso|usamos|utilizo)|ya no (?:uso|usamos|utilizo)|dej[eé] de usar|dejamos de usar|en (?:vez|lugar) de)(?![\p{L}])/iu;

/** "I switched to X", "now use X", "no longer use Y", 改用: the statement replaces an earlier choice. */
export function isChangeStatement(text: string): boolean {
  if (SPANISH_CHANGE.test(text) || personalSlotOf(text)?.change) return true;
  return /\b(?:switched|swapped|moved|migrated|changed|went|converted)\s+(?:over\s+)?(?:from\s+\S+(?:\s+\S+)?\s+)?to\b|\bnow (?:uses?|prefers?)\b|\buses?\s+\S+(?:\s+\S+)?\s+now\b|\bno longer\b|\bstopped using\b|\breplaced\b|\binstead of\b|\bnot\s+\S+\s+anymore\b|改用|换成|换到|切换到|不再用|现在用/i.test(
    text,
  );
}

/** A statement of a preference or choice (not merely a mention of the tool). */
export function isChoiceStatement(text: string): boolean {
  return (
    isChangeStatement(text) ||
    /\b(?:prefers?|preferred|favou?rite|of choice|go-to|uses?|is|are|likes?|loves?|sticks? with)\b|喜欢|偏好|用|是/i.test(text) ||
    /(?<![\p{L}])(?:uso|usamos|utilizo|prefiero|preferimos|me gusta|es|son|favorit[oa])(?![\p{L}])/iu.test(text)
  );
}

const FILLER = new Set(
  (
    "the a an user user's users their they them i me my we our us you your is are was were be been am has have had do does did to of in on at for with as by and or " +
    'it this that now from no longer not anymore just also really very much still always usually mostly generally ' +
    'use uses used using prefer prefers preferred preference like likes love loves enjoy favourite favorite choice go-to stick sticks ' +
    'switch switched switching move moved migrate migrated change changed went go over instead rather than replaced stopped new old ' +
    'editor ide shell terminal package manager database db browser os operating system theme font language timezone time zone code coding everything all ' +
    'ci cd apm monitoring observability error tracking tracker reporting crash crashes ' +
    // Spanish, accents as typed or not.
    'el la los las un una mi mis nuestro nuestra es son como de del al a en con por para y o ya ahora siempre uso usamos utilizo prefiero gusta me ' +
    'cambié cambie cambiamos pasé pase pasamos dejé deje dejamos usar vez lugar favorito favorita cierto gestor paquetes base datos navegador sistema operativo tema fuente lenguaje todo'
  ).split(/\s+/),
);

function contextWords(text: string, slot: Slot): Set<string> {
  const tools = new Set(
    Object.values(TOOLS)
      .flat()
      .flatMap((n) => n.split(' ')),
  );
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}'+#-]+/u)
      .filter((w) => w.length > 0 && !FILLER.has(w) && !tools.has(w) && w !== slot.value),
  );
}

/** What a preposition puts a choice in: "in project 1", "for work", "at home". */
function placedWords(text: string, slot: Slot): Set<string> {
  const placed = [...text.matchAll(CONTEXT_PHRASE)].map((m) => m[1]!).join(' ');
  return contextWords(placed, slot);
}

const CONTEXT_PHRASE = /(?<![\p{L}])(?:in|for|at|on|inside|within|en|para)\s+((?:[\p{L}\p{N}'+#-]+\s*){1,3})/giu;

/**
 * Whether two statements about the same slot speak of the same context: "in project 1" and "in
 * project 2" are two facts, "I use Vim" and "My editor of choice is Vim" are one.
 */
export function sameContext(a: string, b: string, slot: Slot): boolean {
  // One home and one manager at a time, whatever else each statement says.
  if (isPersonalSlot(slot.slot)) return true;
  // One phone, car and computer at a time, unless one is said to be for work and the other for home.
  if (isDeviceSlot(slot.slot)) {
    const use = (text: string) => deviceSlotsOf(text).find((d) => d.slot === slot.slot)?.use;
    const [x, y] = [use(a), use(b)];
    return x === undefined || y === undefined || x === y;
  }
  // "finally caved and switched to zed" after "my editor is sublime, so tips for that": a change
  // placed nowhere in particular is about the choice placed nowhere in particular.
  if (isChangeStatement(a) && placedWords(a, slot).size === 0 && placedWords(b, slot).size === 0) return true;
  const x = contextWords(a, slot);
  const y = contextWords(b, slot);
  if (x.size === 0 || y.size === 0) return true;
  const shared = [...x].filter((w) => y.has(w)).length;
  return (
    shared / Math.min(x.size, y.size) >= 0.5 &&
    [...x].every((w) => y.has(w) || !/\d/.test(w)) &&
    [...y].every((w) => x.has(w) || !/\d/.test(w))
  );
}
