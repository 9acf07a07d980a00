import { core, hasCjk, hasExplanation, hasRuleMarker, hasSelfDisclosure, weightedLength } from './signals.js';

/**
 * Detectors for the families of text that are not memories, English and Chinese: tool output,
 * chatter, status lines, assistant narration, restated instructions, questions and text that only
 * makes sense next to what it points at. Patterns describe families, never particular sentences.
 */

// ---------------------------------------------------------------- tool output

/** Unmistakable tool output, whatever the surrounding words. */
const TOOL_STRONG: RegExp[] = [
  /```/,
  /^\s+at [\w.$<>[\]]+ \(?[^()\n]*:\d+:\d+\)?\s*$/m, // JS stack frame
  /\bat [\w.$<>[\]]+ \([^()\s]*:\d+:\d+\)/, // JS stack frame run into a sentence ("... at renderList (List.tsx:42:18)")
  /Traceback \(most recent call last\)|^\s*File "[^"]+", line \d+/m,
  /^(?:\+\+\+ |--- a\/|@@ -\d+|diff --git )/m,
  /<\/?\s*(?:tool_call|tool_result|tool_use|function_calls?|function_results?|invoke|observation)\b[^>]*>/i,
  /\btool_call_id\b|"(?:role|type)"\s*:\s*"(?:tool|function|tool_result|tool_use)"/,
  /^[dl-][rwx-]{9}[.@+]?\s+\d+\s/m, // ls -l
  /^\s*[\w.-]+@[\w.-]+:[~/][^$#\n]*[$#]\s/m, // shell prompt user@host:~$
];

const SHELL =
  /^(?:[$>#%]\s*)?(?:sudo\s+)?(?:npm|npx|pnpm|yarn|bun|git|cd|ls|ll|cat|less|grep|rg|find|make(?! sure\b| it\b| the\b| a\b| an\b)|docker|docker-compose|kubectl|curl|wget|pip3?|python3?|node|deno|cargo|rustc|go|mkdir|rm|cp|mv|echo|export|source|ssh|scp|rsync|tail|head|chmod|chown|brew|apt|apt-get|yum|systemctl|journalctl|psql|mysql|redis-cli|terraform|helm|aws|gcloud|az|tsc|vitest|jest|pytest|eslint|prettier|uv|poetry)\s+[-\w./~:@="'$]/;

/** Tool output that a sentence around it could turn into a lesson. */
const TOOL_WEAK: RegExp[] = [
  /\bnpm ERR!|\berror TS\d{3,5}\b|\b(?:ENOENT|EACCES|EADDRINUSE|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPERM)\b|\b(?:SyntaxError|TypeError|ReferenceError|RangeError|ModuleNotFoundError|ImportError|KeyError|ValueError|NullPointerException|panicked at)\b/,
  /^(?:Error|error|Exception|Fatal|fatal|FATAL|Warning|warning|WARN|panic|Killed|Aborted|Uncaught \w+)(?: \[[\w-]+\])?:\s|\bRequire stack:|^(?:Segmentation fault|Bus error)\b/m,
  /^HTTP\/\d(?:\.\d)? \d{3}\b/m,
  /^\s*(?:➜|→|❯|›|✖|⚠|ℹ)\s/m,
  /^(?:Cloning into|remote: |Receiving objects|Resolving deltas|Already up to date|Switched to (?:a new )?branch|On branch |Your branch is|Compiled (?:successfully|with warnings)|Failed to compile)|^\s*Line \d+:\d+:/m,
  /^(?:Successfully (?:installed|built|tagged|created|uninstalled|compiled)|Collecting \S|Downloading \S|Installing collected packages|added \d+ packages?|up to date, audited|removed \d+ packages?)/m,
  /\bexit(?:ed)? (?:with )?(?:code|status)[: ]+\d+|\bcommand not found\b|\bNo such file or directory\b|\bPermission denied\b|\bSegmentation fault\b/i,
  /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?/m,
  /^\s*\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\]?[:\s]/m,
  /^\s*(?:✓|✗|✔|✘|×|PASS|FAIL)\s+\S/m,
  /\bTests?:?\s+\d+ (?:passed|failed)|\b\d+ (?:passing|failing)\b/i,
  /\b[\w./-]+\.(?:ts|tsx|js|jsx|mjs|py|go|rs|java|rb|c|cpp|h):\d+(?::\d+)?\b/,
  /^\s*(?:tool|function|observation|output|stdout|stderr|result)\s*[:：]/im,
  /^(?:\s*\S+\.(?:ts|tsx|js|json|md|py|go|rs|yaml|yml|toml|lock|txt|css|html)\s*\n){2,}/m,
];

/**
 * Share of code punctuation; prose rarely passes 10 %. Backticks, slashes and dots are not counted,
 * and neither is code quoted in backticks inside a sentence ("`run()` returns `{ ok, error }`").
 */
function codeDensity(text: string): number {
  const prose = text.replace(/`[^`\n]+`/g, 'code');
  const symbols = prose.match(/[{}[\]();=<>|\\$&]/g)?.length ?? 0;
  return symbols >= 4 ? symbols / prose.length : 0;
}

/**
 * A sentence about a command rather than a command line: "terraform apply needs the state bucket
 * in eu-west-1." starts like a shell line but has no flags or pipes, ends like a sentence and has a
 * finite verb after the command.
 */
const FINITE_AFTER_COMMAND =
  /^\S+\s+(?:\S+\s+)?(?:is|are|was|needs|requires|expects|fails|breaks|hangs|works|runs|reads|writes|uses|creates|ignores|skips|signs|builds|installs|returns|prints|needs|only|always|never|does(?:n't| not)|won't|will not|can(?:'t|not))\b|^\S+\s+[a-z]+s\s+(?:use|run|live|need|go|get|are)\b/i;
function isProseAboutCommand(text: string): boolean {
  const t = text.trim();
  return (
    !t.includes('\n') &&
    // Typed without a full stop, a sentence still reads as one when it has no quotes or brackets.
    (/[.!]$/.test(t) || !/[`'"=<>{}()[\]]/.test(t)) &&
    t.split(/\s+/).length >= 6 &&
    !/\s--?[\w-]|[|;$]|&&|\s>\s?\S/.test(t) &&
    FINITE_AFTER_COMMAND.test(t)
  );
}

/**
 * A tool's name opening a sentence about it: "python is my main language", "node on this machine is
 * 18 LTS", "node 20 now", "head of data is priya", "source of truth for prices is the erp". A command
 * line's next word is a subcommand, a flag or a path, never a copula, a preposition or a version
 * followed by more prose; and it carries no flag, pipe or redirect.
 */
const TOOL_AS_NOUN =
  /^(?:\S+)\s+(?:(?:v?\d+(?:\.\d+)*|lts)(?:\s+lts)?\s*,?\s+(?:now|is|was|on|with|for|and|only|here|everywhere|across|in|stays|still|lts|from|until|because|since)\b|(?:is|are|was|were|has|had|on|in|for|with|of|as|and|or|at|from|via|over|instead|here|there|stays|keeps|still|only|everywhere|across|versions?)\b(?![-=/.]))/i;
function isToolNamedInProse(text: string): boolean {
  const t = text.trim();
  // Code quoted inside the sentence ("uv for dependencies (`uv add --dev`)") is not the line's own flags.
  const prose = t.replace(/`[^`\n]*`/g, 'code');
  return !t.includes('\n') && t.split(/\s+/).length >= 3 && !/\s--?[\w-]|[|$`]|&&|\s>\s?\S/.test(prose) && TOOL_AS_NOUN.test(t);
}

function looksLikeJson(text: string): boolean {
  const t = text.trim();
  return (/^[{[]/.test(t) && /[}\]]$/.test(t)) || (t.match(/"[\w-]+"\s*:/g)?.length ?? 0) >= 2;
}

/** One sentence that starts like prose and talks about an error, rather than being the error. */
function isProseAboutOutput(text: string): boolean {
  const t = text.trim();
  return (
    !t.includes('\n') &&
    t.split(/\s+/).length >= 8 &&
    /^(?:the|a|an|our|my|we|i|it|this|that|when|if|on|in|after|before|running|using)\b/i.test(t)
  );
}

export function toolNoiseKind(text: string, options: { lenient: boolean }): 'strong' | 'weak' | undefined {
  if (TOOL_STRONG.some((re) => re.test(text)) || looksLikeJson(text)) return 'strong';
  const weakSignal = TOOL_WEAK.some((re) => re.test(text));
  // Three or more lines with an output signal are a pasted log, whatever words it contains.
  if (weakSignal && text.split('\n').filter((l) => l.trim()).length >= 3) return 'strong';
  if (options.lenient || isProseAboutOutput(text) || isProseAboutCommand(text)) return undefined;
  if ((SHELL.test(text.trim()) && !isToolNamedInProse(text)) || weakSignal || codeDensity(text) > 0.1) return 'weak';
  const lines = text.split('\n').filter((l) => l.trim());
  // Several short lines without sentence punctuation: a listing or a table dump.
  if (
    lines.length >= 4 &&
    lines.filter((l) => l.length < 60 && !/[.!?。！？]$/.test(l.trim())).length >= lines.length - 1 &&
    !hasCjk(text)
  ) {
    return 'weak';
  }
  return undefined;
}

// ---------------------------------------------------------------- chatter

const CHATTER_WORDS = new Set(
  (
    'ok okay okey k kk sure yes yeah yea yep yup ya no nope nah thanks thank you thx ty tysm thnx so much very a lot lots ' +
    'great good nice cool awesome perfect excellent amazing wonderful fantastic brilliant sweet neat fine alright all right ' +
    'correct exactly indeed agreed agree true got it i see understood understand makes sense noted will do done hi hello hey heya ' +
    'yo morning afternoon evening night gm gn bye goodbye cya later lol lmao haha hahaha hehe wow whoa oh ah oops hmm hm huh ugh meh ' +
    'yay cheers please pls plz continue go ahead on proceed keep going carry next do again try retry let lets us go sounds ' +
    'works work that this is looks lgtm me to for the thats its s really just well now then cool beans np problem worries nice one ' +
    'much appreciated appreciate awesome sauce man dude bro guys buddy mate sir love gotcha roger copy yes sir of course course ' +
    'fair enough interesting question questions one more same here too keep going carry on absolutely definitely totally certainly wonderful super ace ty awesome bravo kudos congrats congratulations welcome'
  ).split(' '),
);

const CHATTER_EN: RegExp[] = [
  /^(?:this|that|it)(?:'s| is)? (?:still )?(?:not working|broken|wrong|useless|worse|not what i (?:asked|wanted))\b/i,
  /^(?:you(?:'re| are)) (?:wrong|not listening|confused|hallucinating|making (?:this|it) up|useless)\b/i,
  /^(?:never ?mind|nvm|forget it|whatever|one sec(?:ond)?|hold on|wait|brb|be right back|let me think|give me a (?:sec|second|minute|moment)|hang on)\b/i,
  /^(?:good|great|nice|excellent) (?:job|work|catch|point|idea|question|call|stuff)\b/i,
  /^(?:that|this|it)(?:'s| is| was| looks| sounds| seems) (?:so |really |much |very |exactly |pretty |super )?(?:great|perfect|better|awesome|helpful|good|fine|nice|cool|amazing|right|correct|clear|interesting|funny|weird|strange|annoying|frustrating|what i (?:wanted|needed|meant))\b.{0,30}$/i,
  /^(?:thanks|thank you|thx|cheers)\b.{0,50}$/i,
  /^(?:lol|lmao|haha|hehe|omg|wtf|ugh|argh)\b/i,
  /^(?:how are you|how's it going|what's up|sup)\b/i,
  /^(?:it |that |this )?(?:works|worked)(?: (?:like a charm|perfectly|great|fine|now|for me|again))*[.!]*$/i,
  /^(?:not (?:quite|really|exactly|yet)|nope|not what i meant)\b.{0,20}$/i,
  /^(?:i )?(?:didn't|did not) know (?:that|this)[.!]*$|^good to know\b.{0,20}$|^(?:that )?makes sense\b.{0,20}$/i,
  /^(?:let me know if|feel free to|hope (?:this|that) helps|happy to help|glad (?:i could|to) help|anything else)\b/i,
];

/** Passing moods: true now, useless tomorrow ("so tired today", "今天好累"). */
const TRANSIENT_MOOD =
  /^(?:i'm|i am|i feel|feeling|today is|today was|it's been|this (?:morning|week) is)\s+(?:so |really |a bit |kind of |pretty |very |super )?(?:tired|busy|hectic|bored|hungry|sleepy|stressed|exhausted|sick|sad|happy|grumpy|excited|cold|hot|long|crazy|rough|slow|confused|lost|stuck|annoyed|frustrated)\b(?: (?:today|tonight|right now|now|atm|this morning|this week))?[.!]*$/i;
const TRANSIENT_MOOD_ZH =
  /^(?:今天|现在|最近|这会儿)?(?:好|真|有点|太|特别|挺)?(?:累|忙|困|饿|烦|无聊|热|冷|开心|难受)(?:啊|了|呀|死了)?$|^今天(?:天气)?(?:真|挺|很|不错|好)/;

const CHATTER_ZH_UNIT =
  '好的呢|好滴|好的|好吧|好啊|好嘞|好呀|好|嗯+|恩+|哦+|噢|喔|啊|呀|吧|呢|了|啦|嘛|哈+|呵呵|嘿嘿|谢谢你?|谢了|多谢|感谢|辛苦(?:你)?了?|收到|明白(?:了)?|了解|知道(?:了)?|懂(?:了)?|可以|行|没问题|没事|不客气|继续|接着(?:来)?|下一步|开始(?:吧)?|来吧|走吧|对的?|是的?|不是|不对|没错|当然|太棒了|真棒|棒|不错|很好|非常好|厉害|牛|完美|漂亮|赞|你好|您好|早上好|早安|午安|晚上好|晚安|再见|拜拜|等一下|稍等|等等|试试|再试一次|算了|随便|就这样|这样就行|不用了|不用|有意思|有趣|好玩|是吗|这样啊|也行|还行|凑合|这样|就行|挺好|ok|okay|行吧|嗯嗯|哈哈|哇|真的|确实|同意|好主意|太好了|学到了|有道理|原来如此|原来是这样|明白了|你真棒|你真好|很有帮助|有用|帮大忙了|太感谢了|非常感谢|谢谢啦';
const CHATTER_ZH = new RegExp(`^(?:${CHATTER_ZH_UNIT}|\\s)+$`);
const FRUSTRATION_ZH =
  /^(?:还是|又|怎么又|怎么还)(?:不行|报错|错了|失败|没用|不对)|^(?:不对不对|不行不行|你错了|你说错了|这不对|这不是我要的)|^(?:你)?(?:又|还)(?:搞错|弄错|错)了/;

export function isChatter(text: string): boolean {
  const c = core(text);
  if (c === '') return true; // emoji or punctuation only
  if (hasCjk(text)) {
    const compact = c.replace(/\s+/g, '');
    if (CHATTER_ZH.test(compact) || (TRANSIENT_MOOD_ZH.test(compact) && compact.length <= 12)) return true;
    return FRUSTRATION_ZH.test(compact) && !hasRuleMarker(text);
  }
  const words = c.replace(/'/g, '').split(' ');
  if (words.length <= 10 && words.every((w) => CHATTER_WORDS.has(w))) return true;
  const body = text
    .trim()
    .replace(/^(?:(?:hmm+|um+|uh+|oh|ah|well|ok(?:ay)?|so|yeah|right|awesome|great|perfect|nice|cool|wow|thanks)[,.!]*\s+)+/i, '');
  if (TRANSIENT_MOOD.test(body) && body.length <= 60) return true;
  return CHATTER_EN.some((re) => re.test(body) || re.test(text.trim())) && !hasRuleMarker(text) && !hasSelfDisclosure(text);
}

// ---------------------------------------------------------------- status lines

const STATUS: RegExp[] = [
  // The poll's tokens are upper case; "HEARTBEAT.md: check X daily" or "Heartbeat tasks run …" is configuration.
  /^\s*(?:HEARTBEAT(?:_OK)?(?![\w.])|NO_REPLY\b)/,
  /^\s*(?:PING|PONG|ACK)\b/i,
  /^\s*\[(?:cron|heartbeat|status|progress)[:\]]/i,
  /^\W*(?:build|compil\w*|deploy\w*|tests?|lint\w*|type-?check\w*|install\w*|download\w*|upload\w*|sync\w*|migration\w*|job|task|step|pipeline|ci|checks?|backup|indexing|import|export|server)\b.{0,50}\b(?:passed|failed|succeeded|successful(?:ly)?|complete[d]?|done|finished|started|running|in progress|queued|pending|ok|green|red|skipped|timed out|\d{1,3}\s?%)\b.{0,30}$/i,
  /^\W*(?:done|finished|completed?|success|succeeded|all (?:set|done|good|green|tests? pass(?:ed|ing)?)|working on it|still (?:running|working|loading)|in progress|loading|running|processing|compiling|building|deploying|installing|waiting|retrying|starting|restarting|almost (?:done|there))\b.{0,40}$/i,
  /^\W*[A-Za-z]+ing\b[^.!?\n]{0,40}(?:please wait|\(\d+\/\d+\)|\d+\s?%|\.\.\.|…)\W*$/i,
  /^\W*\d{1,3}\s?% (?:complete|done|finished)|^\W*(?:step|stage|phase) \d+\s*(?:\/|of)\s*\d+|^\W*\[\d+\/\d+\]/i,
];
const STATUS_ZH =
  /^\W*(?:正在|处理中|加载中|运行中|执行中|编译中|构建中|部署中|安装中|等待中|重试中|已完成|完成了?|搞定了?|好了|成功了?|失败了?|构建(?:成功|失败|完成)|编译(?:成功|失败|通过)|部署(?:成功|失败|完成)|测试(?:通过|失败|全部通过)|全部通过|任务(?:完成|已完成|失败)|进度)/;

export function isStatusNoise(text: string): boolean {
  const t = text.trim();
  if (/^[\u4e00-\u9fff]{2,4}中(?:…+|\.{3}|。)*$/.test(t)) return true; // 上传中……, 同步中
  if (/^\s*(?:HEARTBEAT(?:_OK)?(?![\w.])|NO_REPLY\b)|^\s*\[cron:/.test(t)) return true;
  if (hasRuleMarker(t) || hasExplanation(t) || t.length > 120) return false;
  return STATUS.some((re) => re.test(t)) || (STATUS_ZH.test(t) && weightedLength(t) <= 40);
}

// ---------------------------------------------------------------- assistant process narration

const NARRATION_EN =
  /^(?:(?:ok(?:ay)?|alright|sure|great|now|first|next|then|so|perfect|good),?\s+)*(?:i'll|i will|let me|let's see|i'm going to|i am going to|i've|i have|i'm now|i am now|we'll|now i'll|i just|i went ahead and)\s+(?:now\s+|first\s+|go ahead and\s+|also\s+|quickly\s+|just\s+|successfully\s+)?(?:check|look|run|read|open|search|update|fix|create|add|write|start|try|implement|investigate|examine|inspect|review|analy[sz]e|modify|edit|change|refactor|install|test|verify|make|see|take a look|dig|continue|proceed|begin|explore|scan|grep|find|fetch|load|call|apply|debug|summari[sz]e|explain|updated|fixed|created|added|written|wrote|implemented|ran|made|changed|refactored|completed|finished|found|removed|deleted|renamed|moved|pushed|committed|reverted|restarted|rerun|re-run|rebuilt)\b/i;
const NARRATION_EN_2: RegExp[] = [
  /^here(?:'s| is| are) (?:the|a|an|your|my|what|how|some)\b/i,
  /^(?:below is|below are|the following is|following is|this is) [^.!?\n]{0,60}:\s*$/i,
  /^(?:sure|certainly|of course|absolutely|no problem|great question|good question)[,!.:]\s/i,
  /^(?:the|this|that|your) (?:file|function|code|test|tests|build|error|change|changes|fix|patch|pr|commit|component|module|config|script) (?:has been|have been|was|were|is now|are now) (?:updated|created|fixed|modified|deleted|added|merged|pushed|refactored|renamed|moved|resolved)\b/i,
  /^(?:i (?:can|could) (?:help|see|do)|i understand|i apologi[sz]e|sorry for|my apologies|you're right|you are right|good catch)\b/i,
];
const NARRATION_ZH: RegExp[] = [
  /^(?:以下是|下面是|这是|这里是|如下)[^。，,]{0,16}[:：]\s*$/,
  /^(?:好的?[，,！!]?\s*)?(?:我来|让我|我先|我将|我会|我这就|我现在|下面我|接下来我|我已经(?:把|将|帮你)?|我已|我刚刚?)(?:先|再|来|去|马上|立刻|这就|继续)?(?:帮你|为你|给你)?(?:来|去)?(?:看|查|检查|修改|修复|运行|执行|创建|添加|更新|写|实现|分析|处理|搜索|打开|读取|尝试|试|调整|重构|删除|整理|总结|完成|改|跑|生成|编写|部署|安装|重新)/,
  /^(?:以下是|下面是|这是)(?:修改|更新|修复|优化|重构|生成)?(?:后|过)?的?(?:代码|结果|内容|方案|总结|文件|步骤|答案|回答|翻译|建议)/,
  /^(?:已(?:经)?(?:为你|帮你|给你)?(?:修改|更新|修复|创建|添加|删除|完成|处理|提交|重构|生成|编写|写好|整理|优化|部署|安装|配置|运行))/,
  /^(?:好的?|没问题|当然)[，,！!]\s*(?:我|让我|这就|马上)/,
  /^(?:抱歉|对不起|不好意思)[，,]?(?:我|刚才)/,
];

export function isNarration(text: string): boolean {
  const t = text.trim();
  return NARRATION_EN.test(t) || NARRATION_EN_2.some((re) => re.test(t)) || NARRATION_ZH.some((re) => re.test(t));
}

// ---------------------------------------------------------------- restated instructions

const PROMPT_RESTATE: RegExp[] = [
  /^(?:you are|you're) (?:a|an|the) (?:[\w-]+ ){0,4}(?:assistant|agent|engineer|developer|expert|model|bot|tutor|writer|translator|reviewer|analyst|copilot|helper)\b/i,
  /^(?:you are|you're|act as|pretend to be) (?:a|an) (?:[\w-]+ ){0,4}[\w-]+[.,;:] *\S/i,
  /^你是(?:一[个名位]|个)[^，。,.]{1,16}[，。,.]\s*(?:请|帮|你要|你需要)/,
  /^as an? (?:ai|language model|large language model|assistant)\b/i,
  /^(?:act as|pretend to be|roleplay as|play the role of|you will act as|imagine you are) (?:a|an|the|my)\b/i,
  /\byour (?:task|job|role|goal|objective|mission|purpose) (?:is|will be) to\b/i,
  /^(?:instructions?|task|system|objective|goal|context)\s*[:：]/i,
  /\b(?:respond|reply|answer|output) (?:only )?(?:in|with|using) (?:valid )?(?:json|yaml|markdown|the following format)\b/i,
  /\byou (?:have access to|can use|may use|can call) (?:the following|these|several) tools\b/i,
  /^(?:follow|obey|adhere to) (?:these|the following|the instructions)\b/i,
  // Codex's environment context and Claude Code's local-command caveat, restated by an extractor.
  /\bsandbox\b[^.\n]{0,60}\bapproval policy\b|\bapproval policy\b[^.\n]{0,60}\bsandbox\b|沙箱[^。\n]{0,30}审批策略|审批策略[^。\n]{0,30}沙箱/i,
  /\blocal[- ]command caveat\b/i,
  // Claude Code's system reminder on every file read, restated by an extractor as a rule.
  /\bwhether (?:it|the file|the code|a file)\b[^.]{0,30}\b(?:is|would be considered|looks like) malware\b/i,
  /^(?:user|human|assistant|ai|bot|system)\s*[:：]/i,
  /^你是(?:一[个名位])?[^，。,.]{0,16}(?:助手|助理|专家|工程师|机器人|顾问|模型|老师|翻译)/,
  /你的(?:任务|工作|职责|目标|角色)(?:是|就是)/,
  /^(?:请)?(?:按照|遵循|根据)以下/,
  /^(?:指令|任务|系统|背景|要求)\s*[:：]/,
];

const REQUEST_EN =
  /^(?:(?:ok(?:ay)?|now|so|also|and|then|please|pls|kindly|hey|hi|right|alright|next|first|great|cool|thanks|yes|yeah|yep|no|nope|dude|my dude|hm+|hmm+|well|actually|wait|just|at this point|in that case),?\s+)*(?:(?:can|could|would|will) you(?: please| quickly| also)?\s+|help me(?: to)?\s+|i (?:need|want|would like|'d like) you to\s+|go ahead and\s+|let'?s\s+|(?:please|pls)\s+|try (?:to\s+)?)?(?:write|fix|create|add|implement|refactor|run|rerun|build|generate|explain|summari[sz]e|translate|show|list|find|check|look(?: at| into)?|update|delete|remove|rename|debug|review|make|draft|rewrite|convert|install|deploy|open|read|search|compare|analy[sz]e|test|change|modify|set up|setup|configure|clean up|move|split|merge|commit|push|revert|format|optimi[sz]e|document|tell me|give me|send|print|plot|calculate|compute|scaffold|bump|upgrade|downgrade|investigate|profile|benchmark|paste|copy|download|upload|restart|stop|kill|start|add|save|cycle|sleep|harden|organi[sz]e|sync|summeri[sz]e|scrub|purge|sanitize|perform|trace|traceroute|research|enable|disable|import|export|port|redo|undo|reda|wire|verify|evaluate|simplify|speed up|resume|retry|tackle|close|finish|continue with|proceed with|fetch|pull|rebase|tag|release|publish|bump|think|say|write|wrie|show me|walk me through|keep going with)\b/i;
/** A request verb that is the noun of a statement: "deploy freeze is every friday", "release branches are cut from develop". */
const NOT_STATE_OF_WORK = String.raw`^(?![^.]*\b(?:again|stuck|still|keeps?|hanging|failing|flaky|erroring|crashing|timing out)\b)`;
const NOT_A_REQUEST_VERB = String.raw`(?!(?:check|verify|ensure|confirm|make|see|test|tell|show|explain|find)\b)`;
/** With a plural noun after it, even "test" and "commit" are nouns: "test ids follow ...", "commit msgs in this repo are ...". */
const VERB_AS_NOUN = new RegExp(
  NOT_STATE_OF_WORK +
    String.raw`(?:${NOT_A_REQUEST_VERB}[a-z]+(?:\s+[\w.:-]+)?\s+(?:is|are|was|were|happens|starts|ends|lives|live)\s+(?!(?:still|not|broken|failing|down|slow|wrong|weird|done|ready|fixed)\b)` +
    String.raw`|[a-z]+\s+[a-z-]+s(?:\s(?!to\b)[\w/-]+){0,4}\s(?:are|follow|use|need|go|get|live|run|stay|must|should)\s)`,
  'i',
);
/** An imperative about something in the current context ("use the attached CSV") is a one-off. */
const DEICTIC_REQUEST =
  /^(?:please\s+)?(?:use|take|see|check|open|read|look at|go through|based on)\s+(?:the attached|this|these|that|those|the above|the following|the below|my attached|the (?:file|csv|pdf|image|screenshot|doc|document|spreadsheet|link) (?:i|we) (?:sent|shared|attached|uploaded))\b/i;
const REQUEST_ZH_BA =
  /^(?:(?:好的?|那|那么|现在|然后|接下来|再|也|嗯)[，,]?\s*)*(?:请你?|帮我|麻烦你?|你(?:能|可以)|能不能|可以)*\s*(?:给|把|将|替)[^，。,.]{1,20}?(?:加上|加个|加一个|添加|改成|改为|换成|删掉|删除|去掉|翻译成|转成|转换成|重写|优化|修复|修改|补上|补充|整理成|拆成|合并)/;
// A verb that heads a noun (测试环境, 部署脚本, 更新日志) names a thing, not a request; "比较结果：" stays this task's result.
const REQUEST_ZH =
  /^(?:(?:好的?|那|那么|现在|然后|接下来|再|也|嗯)[，,]?\s*)*(?:请你?|帮我|麻烦你?|你(?:能|可以)(?:不能)?(?:帮我)?|能不能(?:帮我)?|可以帮我|给我|替我|试着)*\s*(?:写|修复|修改|修一下|修|改一下|改成|改|创建|新建|添加|加一个|加个|实现|重构|运行|跑一下|跑|生成|解释|总结|翻译|看看|看一下|查一下|查看|检查|更新|删除|删掉|部署|安装|优化|分析|列出|找一下|找到|搜索|打开|读一下|测试|提交|合并|回滚|格式化|重启|整理|画|计算|比较|对比)(?!环境|服务器|服|库|集|用例|数据|账号|脚本|记录|日志|包|流程|工具|配置|版本|分支|时|的)/;

/** "make sure / ensure <thing> is|stays|uses ...": a requirement on a lasting state, not an action. */
export const STATE_REQUIREMENT =
  /^(?:please\s+)?(?:make sure|ensure)\s+(?!to\b|you\b|that you\b)(?:that\s+)?[\w.@/-]+(?:\s+[\w.@/-]+){0,3}\s+(?:is|are|stays?|remains?|uses?|runs?|never|always)\b/i;

/** A system-prompt style instruction ("You are a helpful assistant ...", "Respond in JSON"). */
export function isPromptRestatement(text: string): boolean {
  const t = text.trim();
  return PROMPT_RESTATE.some((re) => re.test(t));
}

/** "main was clean; fix the issues": a closing clause that asks for work on what the conversation points at. */
const TRAILING_REQUEST =
  /[;:]\s*(?:please\s+)?(?:fix|address|handle|resolve|solve|clean up|sort out|look into|tackle|redo|finish)\s+(?:the|these|those|them|it|this|that|all)\b[^;:]{0,30}$/i;

/** A request for the task at hand ("fix the build", "帮我写个排序"); a rule marker makes it a standing rule. */
export function isTaskRequest(text: string): boolean {
  const t = text.trim();
  if (hasRuleMarker(t)) return false; // "Always run the linter before committing" is a rule, not a one-off request
  if (STATE_REQUIREMENT.test(t)) return false; // "make sure gitleaks is set to max strict" asks for a lasting state
  if (DEICTIC_REQUEST.test(t) || TRAILING_REQUEST.test(t)) return true;
  if (VERB_AS_NOUN.test(t)) return false;
  return REQUEST_EN.test(t) || REQUEST_ZH.test(t) || REQUEST_ZH_BA.test(t);
}

export function isRestatedInstruction(text: string): boolean {
  return isPromptRestatement(text) || isTaskRequest(text);
}

// ---------------------------------------------------------------- questions and context-bound text

/** Markers strong enough to make even a question a standing rule ("Can you always cite sources?"). */
const STRONG_RULE =
  /\b(?:always|never(?! ?mind)|from now on|going forward|in (?:the )?future|every ?time|whenever|remember)\b|以后|今后|总是|永远|记住|每次|从现在(?:开始|起)/i;

export function isQuestion(text: string): boolean {
  const t = text.trim();
  if (STRONG_RULE.test(t)) return false;
  const bare = t.replace(/(["'`‘“])[^"'`’”\n]{0,40}[’”"'`]/g, 'value');
  if (/[?？]\s*\W*$/.test(bare)) return true;
  if (hasCjk(t))
    return /(?:吗|么|呢)[。.]?$/.test(t) || /^(?:为什么|为啥|怎么|如何|什么|哪[里个些]|谁|是不是|能不能|可不可以|有没有)/.test(t);
  // Without a question mark, a wh-word counts only when inverted ("what is", "how do"): "When I say X,
  // I mean Y" and "What I want: ..." are statements.
  if (/^(?:any idea|anyone know|does anyone know|do you know|i wonder|wondering|not sure (?:why|if|whether|how))\b/i.test(t)) return true;
  if (
    /^(?:(?:what|why|how|when|where|who|which)(?:'s| (?:is|are|was|were|do|does|did|can|could|would|should|will|has|have)\b)|how (?:many|much|far|long|often|old|big)\b|(?:is|are) there\b|(?:do|does|did|can|could|would|should) (?:you|i|we|it)\b)/i.test(
      t,
    )
  )
    return true;
  // "what cache settings should i use for it", "which node version do we need": the thing asked
  // about, then the inverted verb. "What we use is X" puts no verb before its subject.
  return /^(?:what|which)\s+(?!(?:i|we|you|they|he|she|it)\b)(?:[\w.-]+\s+){1,3}(?:should|do|does|did|can|could|would|will|is|are)\s+(?:i|we|you|they|he|she|it)\b/i.test(
    t,
  );
}

const DEICTIC_EN =
  /^(?:it|this|that|these|those|they|the same|same here|this one|that one)(?:'s|'re| is| are| was| were| work| works| worked| look| looks| seem| seems| should| do| does| did| don't| doesn't| didn't| won't| can't| isn't| aren't| wasn't| fixed| broke| helped| failed)\b/i;
const DEICTIC_ZH = /^(?:这个|那个|这些|那些|这样|那样|这里|那里|它|他们|这次|刚才那个|上面那个|这一版)/;

const PRONOUN_RULE = /^(?:it|this|that|they|these|those)\s+(?:should|must|needs? to|has to|have to)\b/i;

/**
 * A choice among what the conversation offered: "went with the recommended option", "picked option 2",
 * "the second approach". Without the list it points into, the choice says nothing.
 */
const OFFERED_CHOICE =
  /\bthe (?:recommended|suggested|proposed|above|following|previous|preceding|first|second|third|last|latter|former|other) (?:option|approach|fix|solution|plan|suggestion|idea|version|answer|choice|alternative)s?\b|\boption (?:[1-9]|one|two|three|[a-d])\b/i;

const OPENS_WITH_CHOICE = /^(?:the\s+)?(?:option|choice|approach|alternative)\s+(?:[1-9]|one|two|three|[a-d])\b/i;

/** Short text that only makes sense next to what it points at ("That fixed it", "这个不对"). */
export function isContextDependent(text: string): boolean {
  const t = text.trim();
  // "It should use the username instead": a rule about a thing it does not name is no rule.
  if (weightedLength(t) <= 70 && PRONOUN_RULE.test(t)) return true;
  // Opening with the menu item ("Option 2 makes more sense - …") answers the menu, whatever rule follows.
  if (OPENS_WITH_CHOICE.test(t) || (weightedLength(t) <= 120 && OFFERED_CHOICE.test(t) && !hasRuleMarker(t))) return true;
  if (weightedLength(t) > 70 || hasRuleMarker(t) || hasSelfDisclosure(t)) return false;
  return DEICTIC_EN.test(t) || DEICTIC_ZH.test(t);
}
