import { hasCjk } from './signals.js';

/**
 * Detectors for text that is true only inside the conversation it came from: requests for the task
 * at hand (in any voice: "fix the build", "The user asked the assistant to fix the build",
 * 用户让助手修复构建), events of the session ("The user approved the force push", "The assistant
 * created briefing.js"), and passing state ("There are uncommitted changes", "All 7 tests passed",
 * "size reduced from 9.0M to 784K"). A durable marker (always, never, from now on, every, prefer,
 * 以后, 总是 ...) turns any of them into a standing statement, so each detector yields to it.
 */

/** Marks a statement meant to last, whoever states it and in whatever voice. */
const DURABLE_EN =
  /\b(?:always|never(?! ?mind)|from now on|going forward|from here on|in (?:the )?future|by default|every ?(?:time|day|morning|week|commit|release|session|pr|deploy)|each time|whenever|all (?:replies|answers|responses|commits|messages|future)|prefers?|preferred|preference|dislikes?|favou?rite|usually|habitually|as a rule|policy|convention|must(?:n't)?|not allowed|forbidden|daily|weekly|nightly|anywhere|everywhere|wherever)\b|\b(?:user|i|we|they|he|she)\s+(?:really\s+)?(?:likes?|loves?|hates?|enjoys?|can't stand)\b/i;
const DURABLE_ZH =
  /以后|今后|往后|从现在(?:开始|起)|总是|永远|始终|每次|每天|每周|每当|所有(?:的)?(?:回复|回答|答复|消息|输出|提交|代码|项目|仓库|新)|一律|默认|必须|务必|不要|别再|不许|禁止|绝不|绝对不|决不|不能|不可以|只能|一定要|之前先|偏好|喜欢|讨厌|不喜欢|习惯|一直/;

export function hasDurableMarker(text: string): boolean {
  return DURABLE_EN.test(text) || DURABLE_ZH.test(text);
}

// ---------------------------------------------------------------- requests for the task at hand

// Extractors drop the article too: "Assistant suggested ...".
const AGENT = '(?:(?:the )?assistant|(?:the )?agent|the ai|the model|claude(?: code)?|codex|copilot|gpt|charbi|pi|you|me|it|him|her|them)';
/** "The user asked (the assistant) to ...", "The user wants the assistant to ...", "User requested that ...". */
const THIRD_PERSON_REQUEST = new RegExp(
  `^(?:the )?user\\s+(?:has\\s+|had\\s+)?(?:asked|asks|requested|requests|wants|wanted|would like|'d like|needs|needed|told|tells|instructed|instructs|directed|commanded|had|got|made|requires|required|is asking|was asking)\\s+(?:(?:${AGENT})\\s+)?(?:to|that)\\b|^(?:the )?user\\s+(?:requested|asked|asks|requests)\\s*:`,
  'i',
);
/** "The user wants the TeamSheet refactored", "The user wants a plan": a want about an artefact of this task. */
const THIRD_PERSON_WANT_TASK =
  /^(?:the )?user\s+(?:wants|wanted|would like|needs|asked for|requested)\s+(?:(?:a|an|the|this|that|some|more)\s+[\w\s-]{0,40}?\b(?:plan|fix|refactor|review|summary|report|test|script|pr|pull request|branch|commit|change|update|version|list|answer|explanation|example|draft|rewrite|theme|file|screenshot)s?\b(?:\s+(?:for|of|to|about|on)\b.*)?[.!]?$|(?:a|an|the|this|that|these|those|its|their)\s+\S+(?:\s+\S+){0,4}\s+(?:refactored|fixed|created|rewritten|opened|deleted|removed|committed|pushed|renamed|moved|reverted|run|tested|implemented|written|added|updated|reviewed|merged|deployed|built)\b)/i;
/**
 * "The user would like the menu to stop saying Guest", "The user wants getInitials to handle
 * usernames too", "The user wants the diff colours toned down": a want about one named thing of
 * this task (a definite article or a code name), with what should happen to it. "The user wants
 * commit messages to follow Conventional Commits" names a kind of thing, not one, and is kept.
 */
const WANT_SPECIFIC =
  /^(?:[Tt]he )?[Uu]ser\s+(?:wants|wanted|would like|'d like|needs|asked for)\s+(?:(?:the|this|that|these|those)\s+[\w\x60.'-]+(?:\s+[\w\x60.'-]+){0,5}?|[\w\x60.-]*(?:[a-z][A-Z]|\.[a-z]{1,4}\b)[\w\x60.-]*(?:\s+[\w\x60.-]+){0,2}?)\s+(?:to\s+(?:be\s+|stop\s+|start\s+)?[a-z]+|[a-z]+ed(?:\s+(?:down|up|out|back|to|in))?)\b/;
/** Product names spelled in camel case: words of a sentence, not identifiers of this task's code. */
const BRAND_CAMEL =
  /\b(?:macOS|iOS|iPadOS|watchOS|iPhone|iPad|iCloud|iTerm2?|GitHub|GitLab|JavaScript|TypeScript|PowerShell|YouTube|WordPress|PostgreSQL|MySQL|MongoDB|LinkedIn|OpenAI|OpenWrt|DevOps|WhatsApp|PayPal|FreeBSD|NixOS|ChromeOS|IntelliJ|PyCharm|WebStorm|FileVault|OneDrive|SharePoint|DynamoDB|BigQuery|GraphQL|NodeJS|NextJS)\b/g;
/** 用户希望把/将/给 X ...: the 把 construction asks for one change. */
const ZH_WANT_CHANGE = /^用户(?:希望|想要|想|要求|需要)(?:把|将|给)/;
/** 用户让/请/叫 助手 ..., 用户要求助手 ..., 用户希望助手 ...: a request to the agent for this task. */
const ZH_REQUEST =
  /^用户(?:让|请|叫|要|要求|希望|想要|想让|需要|请求)\s*(?:助手|你|我|ai|模型|它|助理|codex|claude(?: code)?|gpt|copilot)/i;
const ZH_TASK_VERB = /^用户(?:让|请|叫)/;

/** A request for the current task phrased in the third person (what an extractor writes). */
export function isThirdPersonRequest(text: string): boolean {
  const t = text.trim();
  // 一直 is "always" in a habit and "keeps on" in a symptom ("pod 一直 CrashLoopBackOff"): no rule in a request.
  if (hasDurableMarker(t.replace(/一直/g, ''))) return false;
  if (THIRD_PERSON_REQUEST.test(t) || THIRD_PERSON_WANT_TASK.test(t) || WANT_SPECIFIC.test(t.replace(BRAND_CAMEL, 'product'))) return true;
  return ZH_REQUEST.test(t) || ZH_TASK_VERB.test(t) || ZH_WANT_CHANGE.test(t);
}

// ---------------------------------------------------------------- events of the session

const USER_EVENT =
  /^(?:the )?user\s+(?:just\s+|then\s+|also\s+|again\s+)?(?:asked|said|says|told|typed|wrote|replied|answered|responded|reported|mentioned|shared|uploaded|attached|pasted|sent|approved|confirmed|agreed|accepted|rejected|declined|chose|selected|picked|clicked|opened|closed|ran|started|stopped|restarted|interrupted|cancell?ed|undid|reverted|deleted|removed|thanked|greeted|swore|complained|noticed|saw|tried|tested|checked|looked|pointed out|asked about|is working|was working|is testing|wants to know|wanted to know|wonders|is asking|was asking)\b/i;
const AGENT_EVENT = new RegExp(
  `^(?:${AGENT.replace('|you|me|it|him|her|them', '')})\\s+(?:has\\s+|have\\s+|had\\s+|then\\s+|also\\s+|successfully\\s+|just\\s+|first\\s+|later\\s+|finally\\s+|initially\\s+|eventually\\s+|again\\s+)?(?:\\w+ed|ran|made|wrote|built|found|gave|took|sent|told|set|put|did|began|chose|read|kept|got|left|will|is going to|plans to|offered|asked)\\b`,
  'i',
);
const ZH_EVENT =
  /^(?:用户|助手|助理|ai|模型|claude(?: code)?|codex)\s*(?:刚才|刚刚|已经|已|又|也|还|先后|先|然后|随后|接着|最后)?(?:把|将|改成|改了|切换|询问|问|说(?!话)|解释|回答|回复|上传|分享|发送|发了|打了|粘贴|同意|批准|确认|选择|选了|点击|打开|关闭|运行|启动|停止|中断|撤销|删除|感谢|谢谢|说了声|对助手|创建|生成|修改|修复|给出|提供|完成|编写|写了|执行|搜索|查看|检查)/i;

/** The conversation itself or one run in it: "The context ran out", "The first test run failed on X". */
const CONVERSATION_EVENT =
  /^(?:the\s+)?(?:(?:first|second|last|previous|next|final)\s+)?(?:conversation|session|context(?: window)?|chat|thread|model|turns?|(?:\w+\s+)?(?:test\s+)?run)\s+(?:was|were|got|had been|ran out|failed|crashed|timed out|ended|switched|started|began|changed|moved)\b/i;

/** A perfective passive: "思考级别被切换到了 high" tells what was done to something in this session. */
const ZH_PASSIVE_EVENT = /被[^，。；,;]{1,12}了/;

/** "... and the assistant called it a good catch": the agent's part in the exchange, told in a later clause. */
const AGENT_CLAUSE_EVENT =
  /[,;]?\s(?:and|then|so|while|after|before|but|when)\s+the (?:assistant|agent)\s+(?:\w+ed|said|made|gave|wrote|ran|took|found|built|sent|did|got|told|thought)\b/i;

/** "用户说X时，指的是Y" / "When the user says X": what the user's words mean, not something they said once. */
const ZH_WHEN_SAYS = /^用户(?:说|提到|要求)[^，。,]{1,40}(?:时|的时候)/;

/**
 * An artefact of the session made or changed, in the past passive: "Commit 7a23400 was pushed to
 * main", "NavUser.test.tsx was created with 7 tests", "spotter-dov.1 was closed". A condition or a
 * rule around it ("if it was merged ...") makes it something else.
 */
const ARTEFACT_DONE =
  /\b(?:was|were|has been|have been|got)\s+(?:force-)?(?:pushed|committed|merged|opened|closed|created|deleted|reverted|rebased|amended|staged|stashed|tagged)\b/i;
const RULE_AROUND = /\b(?:if|when|whenever|once|unless|until|must|should|never|always|every|each)\b/i;

/** A report (assistant, summary, extractor) that an artefact of the work was made or changed; a user's "our office was closed" is news. */
export function isArtefactEvent(text: string): boolean {
  const t = text.trim();
  return ARTEFACT_DONE.test(t) && !RULE_AROUND.test(t) && !hasDurableMarker(t);
}

/** Something that happened in this conversation, told in the third person. */
export function isSessionEvent(text: string): boolean {
  const t = text.trim();
  if (hasDurableMarker(t)) return false;
  return (
    USER_EVENT.test(t) ||
    AGENT_EVENT.test(t) ||
    AGENT_CLAUSE_EVENT.test(t) ||
    (ZH_EVENT.test(t) && !ZH_WHEN_SAYS.test(t)) ||
    ZH_PASSIVE_EVENT.test(t) ||
    CONVERSATION_EVENT.test(t)
  );
}

// ---------------------------------------------------------------- passing state and results

const TRANSIENT_EN =
  /\b(?:right now|at the moment|currently|for now|so far|not yet|just now|this session|in this session|(?:during|in) the session|this conversation|today|tonight|yesterday|uncommitted|unstaged|in progress|awaiting|anymore|still (?:not|no|failing|broken|running|loading|pending|looks|shows|needs?|has to|have to)|yet(?=[.!]?$)|up to date with (?:origin|main|master|upstream|remote)|(?:commits?|changes?) (?:ahead of|behind) (?:origin|upstream|main|master)|(?:at |on )?line \d+|already (?:the )?latest|no update (?:is )?needed|\d+\s+(?:\w+\s+)?(?:processes|instances|containers)\s+(?:are\s+)?running|~?\d+(?:\.\d+)?\s*(?:GB|MB|GiB|MiB)\s+(?:free|used|available))\b|(?<!from )\bnow\b/i;
/** A measured outcome of this run: "reduced from 9.0M to 784K", "632 → 16,684", "All 7 tests pass". */
const RESULT_EN =
  /\b(?:increased|decreased|reduced|dropped|went|grew|fell|shrank|improved|changed|cut)\s+(?:\w+\s+){0,3}?from\s+[\w.,%$-]+\s+to\s+[\w.,%$-]+|\d[\d.,]*\s*[A-Za-z%]{0,4}\s*(?:→|->)\s*\d|\ball\s+\d+\s+(?:tests?|checks?|jobs?|files?)\s+(?:pass|passed|are green|succeeded)|\b\d+\s+(?:files?|items?|results?|matches|tests?|errors?|warnings?|findings?)\s+(?:were|was|have been)\s+(?:found|fixed|removed|added|updated|detected)|^(?:\S+\s+){0,3}(?:were|was|have been|has been)\s+(?:found|committed|pushed|merged|deleted|removed|created|updated|fixed|reverted|closed)\b|\b(?:completed|finished|took|ran|passed|failed)\s+in\s+\d/i;
const TRANSIENT_ZH = /现在|目前|刚才|刚刚|今天|明天|明早|稍后|这次|本次|暂时|还没|尚未|正在|待提交|未提交/;
const RESULT_ZH =
  /从\s*[\d.,]+\s*\S{0,3}\s*(?:减少|降低|增加|提高|缩小)到|(?:测试|检查)(?:全部|都)?(?:通过|成功)|已(?:经)?(?:成功)?[^，。；被]{0,30}?(?:提交|推送|合并|删除|创建|关闭|完成|同步|修复|更新|导入|安装|运行|上传|移除|上线)|(?:创建|删除|提交|推送|合并|安装|运行|修复|生成|上传|移动|改写|备份)了|领先\s*\d+\s*个提交|工作区(?:是)?干净|(?:编译|构建|测试|lint|检查|类型检查)\s*(?:干净|通过|成功|失败)/i;

/** True now, not next week: pending work, this session's results, measured before/after figures. */
/** "I now use Helix", "we use pnpm now": "now" marks a lasting change here, not a passing state. */
const CHANGE_NOW =
  /\b(?:i|we|the user|the team)\s+(?:now\s+(?:uses?|prefers?|works? with)|uses?\s+\S+(?:\s+\S+)?\s+now)\b|^[^.;-]{1,60}?(?<!\b(?:it|this|that|they))\s+now\s+(?:lives|takes|loads|uses|reads|writes|calls|stores|keeps|returns|accepts|requires|supports|fetches|sends|points|belongs|comes from|goes through)\b/i;

/** A scope of this session: "all changes in this session", 本次会话中的所有修改. "All" inside it lasts no longer. */
const SESSION_SCOPE =
  /\b(?:in|for|during|of|throughout) (?:this|the current) (?:session|conversation|chat)\b|本次会话|这次会话|本次对话|这次对话|本轮对话/i;
/**
 * Work in flight named as such: "The remaining dialyzer errors are in x.ex", "The next branch to work on
 * is Y", "truncated-text.ts is broken and needs to be investigated".
 */
const IN_FLIGHT =
  /^(?:the\s+)?(?:current|remaining|outstanding)\s+\w+|^(?:the\s+)?(?:work|changes|fix(?:es)?|commits?)\s+(?:on|for)\s+[^.]{1,60}?\s+(?:lives?|is|are|sits?)\s+on\s+(?:the\s+)?branch\b|^(?:the\s+)?next\s+[\w-]+(?:\s+[\w-]+)?\s+to\s+(?:work on|do|tackle|fix|pick up|look at)\b|\b(?:needs?|has|have) to be (?:investigated|fixed|looked at|checked|debugged|reviewed|tested|migrated|updated|ported|removed|cleaned up|converted|rewritten|refactored)\b|^(?:next steps?|to ?do|todo|still to do|pending|remaining(?: work| tasks)?|open (?:items|questions))\b[^:]{0,30}:|\bright away\b|\bwaiting for (?:the user's |your |their |a )?(?:review|approval|feedback|input|confirmation|answer|reply|go-ahead)\b|\bopen in (?:the|their|your) (?:ide|editor)\b|\b(?:is|are) (?:still )?broken\b(?![^.]{0,40}\b(?:when|if|whenever|unless|on|under|with)\b)/i;

/** A work marker, written in capitals: the Spanish "todo" ("everything") is not a to-do. */
const WORK_MARKER = /\b(?:TBD|TODO|WIP)\b/;

export function isPassingState(text: string): boolean {
  const t = text.trim();
  if (SESSION_SCOPE.test(t)) return true;
  if (CHANGE_NOW.test(t) && !/\bline \d+\b/i.test(t)) return false;
  if (
    !hasCjk(t) &&
    (IN_FLIGHT.test(t) || WORK_MARKER.test(t)) &&
    !/\b(?:always|never|from now on|by default|every|whenever|prefers?|must)\b/i.test(t)
  )
    return true;
  // "下一步：…", "待办：…": a to-do list, whatever it says.
  if (hasCjk(t) && /^(?:下一步|接下来|待办|待完成|剩余工作|后续步骤)\s*[：:]/.test(t)) return true;
  // A result with its reason ("因此已从路由器上移除…") records a decision.
  if (hasCjk(t))
    return (TRANSIENT_ZH.test(t) || RESULT_ZH.test(t)) && !/(?:以后|今后|总是|永远|每次|所有|必须|一律|默认|因此|因为|所以|由于)/.test(t);
  // "Flaky runs were fixed by pinning Chromium": how it was fixed is the lesson, not a result of this run.
  if (RESULT_EN.test(t) && !/\b(?:fixed|solved|resolved|avoided|prevented)\s+by\s+\w+ing\b/i.test(t)) return true;
  return TRANSIENT_EN.test(t) && !/\b(?:always|never|from now on|from here on|by default|every|whenever|prefers?|must)\b/i.test(t);
}
