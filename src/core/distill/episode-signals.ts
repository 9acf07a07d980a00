import { hasCjk } from './signals.js';
import { hasDurableMarker } from './task-signals.js';

/**
 * Mistakes an LLM extractor makes that read like facts: what someone is doing right now ("The user
 * is debugging the login page", "The next step is to update the docs"), this run's outcome ("Lint
 * and tests all pass", "Work on the ticket is complete"), a reaction to this session's result ("The
 * user was happy with the new theme"), an artefact event in the passive ("A pull request was
 * opened"), a research brief meant for a subagent ("Search the codebase for X and report back"),
 * and textbook knowledge with nothing of the user in it ("DNS translates domain names into IP
 * addresses"). Each yields to a durable marker (always, never, prefers, 以后 ...).
 */

const ACTIVITY =
  /^(?:the )?(?:user|assistant|agent|team|developer|we|i)\s+(?:is|are|am|was|were)\s+(?:still\s+|currently\s+|now\s+|just\s+)?(?:debugging|trying|fixing|investigating|looking|testing|working on|refactoring|implementing|reviewing|adding|updating|building|writing|setting up|migrating|troubleshooting|exploring|considering|planning|waiting|figuring|checking|deciding|wondering|attempting|about to|in the middle of)\b/i;
const NEXT_STEP =
  /^(?:the )?(?:current|next|immediate|remaining|pending|open)\s+(?:task|step|goal|todo|priority|action|item|thing)s?\s+(?:is|are|was|were|will be)\b|^(?:the )?(?:assistant|agent|ai|model|claude(?: code)?|codex)\s+(?:should|will|needs to|has to|is going to)\s+(?:next|now|then|still)\b|^(?:next|then),?\s+the (?:assistant|agent|user)\b/i;
const ACTIVITY_ZH = /^(?:用户|助手|助理|我们|团队)(?:目前|现在|还)?正在|^(?:下一步|接下来)(?:是|要|需要)|^当前(?:的)?(?:任务|目标|步骤)是/;

/** What someone is doing, or will do next, in this session. */
export function isOngoingActivity(text: string): boolean {
  const t = text.trim();
  if (hasDurableMarker(t)) return false;
  return ACTIVITY.test(t) || NEXT_STEP.test(t) || ACTIVITY_ZH.test(t);
}

const CHECKS =
  '(?:tests?|test suite|specs?|lint(?:ing|er)?|type ?checks?|check-types|checks|builds?|ci|pipeline|compil(?:ation|er)|credo|dialyzer|typecheck)';
const OUTCOME = new RegExp(
  `^(?:the |all |both )?${CHECKS}\\b[\\w\\s,/-]{0,50}?\\b(?:all\\s+|now\\s+|still\\s+)?(?:pass|passes|passed|passing|are green|is green|are red|is red|succeed(?:s|ed)?|fail(?:s|ed|ing)?|are clean|is clean|went through)\\b[^,;]{0,30}$|^(?:the )?build (?:succeeded|failed|is (?:green|red|broken|passing|failing))\\b|^(?:the )?(?:work|task|ticket|bead|issue|feature|migration|change|refactor|fix|pr|pull request)s?\\b[^.]{0,50}\\b(?:is|are|was|were|has been)\\s+(?:now\\s+)?(?:complete|completed|done|finished|ready|merged|closed|resolved)\\b[.!]?$|\\b(?:was|were|has been|have been)\\s+(?:\\w+ed|built|run|set up)\\s+successfully\\b|\\bsuccessfully\\s+(?:\\w+ed|built|ran|set up)\\b`,
  'i',
);
const REACTION =
  /^(?:the )?user\s+(?:was|seemed|felt|is|got)\s+(?:very\s+|really\s+|quite\s+)?(?:happy|pleased|satisfied|glad|content|frustrated|annoyed|upset|angry|furious|fed up|thrilled|delighted|excited|unhappy|irritated|impressed|confused|surprised|disappointed|relieved)\s+(?:with|about|by|at|that|once|when|after)\b/i;
const REACTION_ZH =
  /(?:对|觉得)[^。]{0,20}(?:表示)?(?:很|非常|十分)?(?:满意|不满|失望|高兴|开心|恼火|生气|不爽|愤怒|沮丧)|表示(?:满意|感谢|不满)/;
const ARTEFACT_EVENT =
  /^(?:a|an|the|this|that)\s+(?:new\s+)?(?:[\w.\x60-]+\s+){0,2}(?:pull request|pr|commit|branch|tag|release|issue|ticket|bead|tool call|file|test file|script|migration|plan|draft|patch)\b[^.;]{0,50}?\b(?:was|were|has been|have been|got)\s+(?:opened|created|merged|pushed|closed|committed|deleted|added|run|reverted|filed|tagged|published|released|approved|rejected|cancell?ed|drafted|written|generated|applied|updated|changed|modified|edited|renamed|moved|rewritten)\b(?![^.]{0,60}\b(?:so that|because|since)\b)/i;

/**
 * A short verdict on the state of the work: "All 59 existing tests pass.", "SessionLive compiles
 * clean.", "Everything is clean and pushed.", "The docs are up to date!", "All 3 subtasks closed.".
 * Short only: a longer sentence that says what something is up to date with carries a fact.
 */
const VERDICT = new RegExp(
  [
    `^(?:all|both)\\s+(?:\\d+\\s+)?(?:\\w+\\s+)?${CHECKS}\\s+(?:now\\s+|still\\s+)?(?:pass|passed|passing|succeed(?:ed)?|are green)\\b`,
    String.raw`^[\w.\x60-]+\s+(?:now\s+)?(?:compiles?|builds?)\s+(?:clean(?:ly)?|fine|successfully|without (?:errors|warnings))\b`,
    String.raw`^(?:everything|it all|all of it)(?:'s|\s+is|\s+was|\s+looks|\s+seems)?\s+(?:now\s+|all\s+)?(?:working|works|clean|done|green|good|great|fine|set|ready|pushed|committed|in place|up to date|passing|fixed)\b`,
    String.raw`^(?:the\s+)?[\w\x60.-]+(?:\s+[\w\x60.-]+)?\s+(?:is|are)\s+(?:now\s+|all\s+)?(?:up to date|there|in place|clean|green|working(?: (?:now|again|fine|correctly))?)\s*[.!]*$`,
    String.raw`^all\s+\d+\s+\w+\s+(?:are\s+|were\s+|now\s+)?(?:closed|done|merged|fixed|pushed|resolved|complete[d]?)\b`,
    String.raw`^(?:task|ticket|bead|issue|step|phase)\s+\S+\s+(?:is|was)\s+(?:now\s+)?(?:done|complete[d]?|closed|finished)\b`,
  ].join('|'),
  'i',
);

/**
 * Where any piece of work stands, whatever it is called: "The NavUser fix is done and verified.", "README.md and
 * CHANGELOG.md are up to date.", "ready for a release", "The scan passed with 277 findings". The state ends the
 * sentence; "Tickets are closed with the CLI" says how, and a state in a condition ("before a task is closed") is a rule.
 */
const WORK_STATE =
  /\b(?:is|are)\s+(?:now\s+|all\s+)?(?:done|closed|finished|complete|completed|merged|resolved|fixed|verified|green|up[ -]to[ -]date)(?:\s+and\s+(?:done|closed|finished|complete|completed|merged|resolved|fixed|verified|tested|pushed|green))?[.!]?$|\b(?:is|are)\s+(?:now\s+)?ready\s+(?:for|to)\s+(?:a\s+|the\s+)?(?:release|review|merge|ship|commit|push|deploy)|\b(?:scan|tests?|build|lint(?:ing)?|ci|checks?|suite|pipeline)\s+(?:passed|failed|succeeded)\s+(?:with|on|after)\b/i;
const CONDITION = /\b(?:must|should|always|never|before|after|until|once|when|whenever|if|unless)\b/i;

/** "Compile error: …", "Lint warning: …", "Scan results: …", "Suggested PR title: …", "Ready work: …". */
const RUN_LABEL =
  /^(?:compile|compilation|lint|type ?check|build|test|runtime|dialyzer|credo)\s+(?:errors?|warnings?|failures?)\s*:|^(?:[\w-]+\s+)?(?:scan|test|lint|build|search)\s+results?\s*:|^suggested\s+(?:[\w-]+\s+)?(?:title|name|message)\s*:|^ready work\s*:/i;

/** This run's outcome, or how someone felt about it. */
export function isRunOutcome(text: string): boolean {
  const t = text.trim();
  if (RUN_LABEL.test(t)) return true;
  if (hasDurableMarker(t)) return false;
  if (t.length <= 90 && VERDICT.test(t)) return true;
  if (WORK_STATE.test(t) && !CONDITION.test(t)) return true;
  return OUTCOME.test(t) || REACTION.test(t) || REACTION_ZH.test(t) || ARTEFACT_EVENT.test(t);
}

const RESEARCH_BRIEF =
  /^(?:please\s+)?(?:search|explore|find|investigate|analy[sz]e|look (?:for|into|through|at)|grep|scan|locate|identify|list|enumerate|map out|inspect|examine|audit|trace|survey|go through|dig into)\b/i;

/** What a brief asks the subagent to hand back: "report back", "return the FULL content — don't summarize". */
const BRIEF_RETURN =
  /\b(?:report back|return (?:the |their )?(?:full|complete|exact|entire) (?:content|contents|text|paths?|list)|don'?t summari[sz]e)\b/i;

/** An instruction to research something, as a parent agent writes for a subagent. */
export function isResearchBrief(text: string): boolean {
  const t = text.trim();
  return (RESEARCH_BRIEF.test(t) && !hasDurableMarker(t)) || BRIEF_RETURN.test(t);
}

/**
 * Widely known technologies and concepts: a sentence about one of them with no user, project or
 * concrete detail in it is what any manual says, not something to remember about this user.
 */
const COMMON_SUBJECT = new RegExp(
  `^(?:the\\s+)?(?:${[
    'git',
    'github',
    'gitlab',
    'dns',
    'ssh',
    'tls',
    'ssl',
    'https?',
    'tcp',
    'udp',
    'ip',
    'vpn',
    'dhcp',
    'nat',
    'json',
    'yaml',
    'xml',
    'html',
    'css',
    'sql',
    'graphql',
    'rest',
    'api',
    'apis',
    'javascript',
    'typescript',
    'python',
    'java',
    'kotlin',
    'swift',
    'go',
    'golang',
    'rust',
    'ruby',
    'php',
    'c\\+\\+',
    'c#',
    'elixir',
    'erlang',
    'haskell',
    'scala',
    'bash',
    'zsh',
    'powershell',
    'node(?:\\.js|js)?',
    'deno',
    'bun',
    'npm',
    'pnpm',
    'yarn',
    'pip',
    'react',
    'react query',
    'tanstack query',
    'vue',
    'angular',
    'svelte',
    'next\\.?js',
    'redux',
    'zustand',
    'tailwind(?: css)?',
    'webpack',
    'vite',
    'babel',
    'eslint',
    'prettier',
    'jest',
    'vitest',
    'docker',
    'kubernetes',
    'k8s',
    'linux',
    'windows',
    'macos',
    'unix',
    'postgres(?:ql)?',
    'mysql',
    'sqlite',
    'redis',
    'mongodb',
    'prisma',
    'orms?',
    'oauth',
    'jwt',
    'cors',
    'http/2',
    'websockets?',
    'the beam',
    'phoenix',
    'liveview',
    'rails',
    'django',
    'flask',
    'fastapi',
    'spring',
    'aws',
    'azure',
    'gcp',
    'terraform',
    'ansible',
    'nginx',
    'apache',
    'vim',
    'neovim',
    'emacs',
    'vs code',
    'vscode',
    'gpg',
    'pgp',
    'unicode',
    'utf-8',
    'markdown',
    'regex(?:es)?',
    'regular expressions',
    'llms?',
    'large language models',
    'machine learning',
    'a (?:cache|database|compiler|router|proxy|firewall|hash|queue|mutex|thread|process|container|virtual machine|vm)',
    'caches',
    'databases',
    'compilers',
    'routers',
    'containers',
    'hash maps?',
    'unit tests',
    'version control',
  ].join('|')})\\b`,
  'i',
);
/** Something of this user or this project: a person, a possessive, a place in the code, a figure. */
const ANCHOR_WORD =
  /\b(?:user|users'|we|our|us|my|i|me|you|your|project|repo|repository|codebase|team|company|app|here|local|locally|this|these|that|those|config|setup|workspace)\b/i;
/** Code and proper names: digits, paths, punctuation of code, `camelCase`, `Acme-Web`. */
const ANCHOR_SHAPE = /[\d/\\`#@_()[\]{}:=<>]|\.\w|\b[a-z]+[A-Z]|\b[A-Z]\w*-[A-Z]/;

/**
 * What a manual says of a public technology, whatever its name: "Credo is a static analysis tool for
 * Elixir" (a kind of public artefact, not "an app" or "a project", which are someone's own), "Optimistic
 * updates make a UI feel faster by ...", "X lets you ...".
 */
const PUBLIC_KIND = String.raw`(?:tool|library|framework|protocol|language|format|standard|runtime|package manager|orm|linter|formatter|compiler|interpreter|superset|subset|specification|utility|algorithm|data structure|design pattern|technique)`;
const DEFINITION = new RegExp(
  String.raw`^(?:the\s+)?[\w.+#-]+(?:\s+[\w.+#-]+){0,2}\s+(?:is|are)\s+(?:a|an)\s+(?:[\w.+#-]+\s+){0,4}${PUBLIC_KIND}s?\b`,
  'i',
);
const CAPABILITY = /^(?:the\s+)?[\w.+#-]+(?:\s+[\w.+#-]+){0,2}\s+(?:lets? you|allows? you|make (?:a|an|the)\b[^.]{1,60}\bby\s+\w+ing)\b/i;

/**
 * The same manual voice in Chinese and Spanish: a public tool named by its Latin name and defined
 * ("Prisma 是一个 TypeScript ORM", "OpenWrt 是面向路由器的 Linux 发行版") or its default told ("Blocky
 * 默认不保存查询"), a generality ("一般来说", "en Python las listas son mutables", "Git es un sistema de
 * control de versiones", "dormir 8 horas es lo recomendable"), with nobody of this conversation in it.
 */
const COMMON_ZH = /^[A-Za-z][\w.+#-]*(?:\s+[A-Za-z][\w.+#-]*){0,2}\s*(?:是(?:一[个种款]|面向)|默认)|一般来说|一般而言|通常来说/;
const ANCHOR_ZH = /用户|我们|我的|该项目|本项目|这个项目|此项目|仓库|团队|公司|他们|他|她/;
const COMMON_ES =
  /^(?:en (?:python|javascript|typescript|java|go|rust|sql|general)(?![\p{L}])|por lo general|generalmente|normalmente)|(?<![\p{L}])(?:es|son) (?:un|una) (?:lenguaje|herramienta|librer[ií]a|biblioteca|framework|protocolo|formato|est[aá]ndar|sistema|t[eé]cnica|gestor|orm)(?![\p{L}])|(?<![\p{L}])lo (?:recomendable|recomendado)(?![\p{L}])/iu;
const ANCHOR_ES =
  /(?<![\p{L}])(?:usuari[oa]s?|nuestr[oa]s?|equipo|proyecto|repo|repositorio|empresa|su|sus|mi|mis|le|les|nos|[a-z]{2,}(?:amos|emos|imos))(?![\p{L}])/iu;

/**
 * Textbook knowledge about a well-known technology, with nothing of this user in it. A person who
 * names a tool in a plain sentence ("python services use poetry") tells their set-up; only a
 * definition or a capability reads as a manual from them.
 */
export function isCommonKnowledge(text: string, options: { fromUser?: boolean } = {}): boolean {
  const t = text.trim();
  if (hasCjk(t)) return !ANCHOR_ZH.test(t) && COMMON_ZH.test(t);
  if (COMMON_ES.test(t) && !ANCHOR_ES.test(t)) return true;
  if (hasDurableMarker(t)) return false;
  if (t.split(/\s+/).length > 24) return false;
  // Manuals speak in a timeless present; a past event or an advice is about someone's work.
  if (
    /\b(?:should|must|need to|needs?|requires?|otherwise|fails?|breaks?|avoid|do not|don't|cannot|can't|won't|only|was|were|had|did|has been|have been)\b/i.test(
      t,
    )
  )
    return false;
  const body = t.replace(/[.!]$/, '');
  // "lets you", and a relative "that" ("a tool for Elixir that focuses on ..."), point at nobody.
  const unanchored = body.replace(/\b(?:lets?|allows?) you\b/i, '').replace(/\b(?:that|which)\s+(?=[a-z]+s\b)/gi, '');
  // "Node.js", "Next.js": public names with a dot, not a file of this project.
  if (ANCHOR_WORD.test(unanchored) || ANCHOR_SHAPE.test(body.replace(/\b(?:node|next|nuxt|vue|three|express|socket\.io|d3)\.js\b/gi, 'js')))
    return false;
  return (!options.fromUser && COMMON_SUBJECT.test(t)) || DEFINITION.test(t) || CAPABILITY.test(t);
}

/**
 * What an extractor writes when it recaps the session rather than the person: a problem met in it
 * ("The user encountered a type error ...", "needs help with ..."), or what the conversation was about
 * ("The discussion covered caching").
 */
const PROBLEM = String.raw`(?:an?|the|some|another|several|two|three|\d{3})?\s*(?:[\w-]+\s+){0,3}?(?:errors?|warnings?|conflicts?|exceptions?|failures?|problems?|issues?|bugs?|crash(?:es)?|timeouts?)`;
const TROUBLE = new RegExp(
  String.raw`^(?:the )?user\s+(?:has\s+|had\s+)?(?:(?:encountered|hit|received|got|saw|faced|experienced|ran into|is running into|was running into)\s+${PROBLEM}\b|(?:had trouble|is having trouble|was having trouble|is struggling|struggled|needs help|needed help|wants help|is unsure|was unsure|is not sure|was not sure|isn't sure|wasn't sure|is confused|was confused|does(?:n't| not) know how|did(?:n't| not) know how)\b)`,
  'i',
);
const RECAP =
  /^(?:the|this|that)\s+(?:conversation|session|discussion|chat|exchange|thread|interaction|dialogue)\s+(?:was about|is about|was mostly about|focused on|focuses on|covered|covers|centered on|centred on|revolved around|dealt with|involved|concerned|touched on)\b/i;
const RECAP_ZH =
  /^用户(?:刚才|刚刚)?(?:遇到|碰到|收到|看到)了?|^(?:这次|本次|这段)?(?:对话|会话|讨论|聊天)(?:主要)?(?:是关于|关于|围绕|讨论了|涉及)/;

/**
 * A recap of this session. A dated plan ("moves to Berlin next month") is not one: it is worth
 * remembering, and the extractor resolves the date.
 */
export function isSessionRecap(text: string): boolean {
  const t = text.trim();
  if (hasDurableMarker(t)) return false;
  return TROUBLE.test(t) || RECAP.test(t) || RECAP_ZH.test(t);
}
