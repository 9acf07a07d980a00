import type { AdmissionReason } from './admission.js';
import { hasCjk } from './signals.js';

/**
 * Extractor output in Chinese, in the shapes the shared Chinese detectors (task-signals.ts) do not
 * read: what was done told without a subject ("查了武汉到恩施的高铁", "已经把内存 limit 调到 1Gi"),
 * work in progress ("在纠结要不要用 rayon"), plans pinned to a time ahead ("下周要发布 0.3.0"),
 * one-off reminders and reported questions; and terse standing facts in the mem0 style ("乳糖不耐受",
 * "团队每周四发版", "项目用 Go 1.22"), which the short-text check would take for fragments.
 */

/**
 * Habits and standing facts, by the word that makes them last. Narrower than task-signals.ts
 * `hasDurableMarker`, whose 不要 / 不能 / 一直 also sit in reports of the session ("一直报错"); with it,
 * one more junk row of the read Chinese set passed.
 */
const DURABLE = /以后|今后|总是|永远|始终|每次|每(?:天|周|月|年|个)|一律|默认|必须|务必|禁止|绝不|习惯/;

/** A subjectless report of work done: a verb with 了 opening the memory, or 已经 + a disposal. */
const DONE =
  /^(?:用户|助手)?(?:查|改|装|升级|降级|调整?|整理|做好|写好|生成|下载|清理|重启|部署|测试|跑|看|问|订|买|发|提醒|通知|联系)了|^(?:已经|已)(?:把|给|将|帮|替|为|提醒|通知|查|做好|整理|调|生成|安排|预约|订)|(?:已经|已)(?:生成|整理好|做好|准备好|写好|发出|调到|改成)/;
/** What the user found or ran into in the session. */
const FOUND = /^用户(?:在[^，。]{1,20}时)?(?:发现|遇到|碰到|想知道|问到|提到)/;
/** Work in progress ("在看 admin 列表页"); studying or preparing for something ("在学日语") lasts and is kept. */
const IN_PROGRESS = /^(?:用户)?在(?:看|查|改|写|修|调|纠结|考虑|处理|排查|研究|做)/;
/** A time ahead with an intention: "下周要发布", "今晚 22 点要升级", "打算这个月底买车". */
const AHEAD = /下周|下个?月|下星期|今晚|明晚|后天|这个?月底|月底|本周|这周|周末/;
const INTENT = /要|打算|准备|计划|出发|将会|会去|得去/;
/** A reminder or errand for one occasion: "提醒用户周五下午去接儿子". */
const ERRAND = /^(?:提醒|帮|替|给)用户/;

/** Why a Chinese memory an extractor wrote is junk, or undefined when none of these shapes fits. */
export function chineseMemoryRejection(text: string): { reason: AdmissionReason; detail: string } | undefined {
  const t = text.trim();
  // A first-person sentence ("我下个月十号要去深圳出差") is someone's own words, not an extractor's: the shared rules judge it.
  if (!hasCjk(t) || DURABLE.test(t) || /^我/.test(t)) return undefined;
  if (DONE.test(t) || FOUND.test(t)) return { reason: 'session-event', detail: 'work done' };
  if (IN_PROGRESS.test(t)) return { reason: 'passing-state', detail: 'in progress' };
  if (AHEAD.test(t) && INTENT.test(t)) return { reason: 'passing-state', detail: 'plan' };
  if (/这周|本周/.test(t)) return { reason: 'passing-state', detail: 'this week' };
  if (ERRAND.test(t)) return { reason: 'task-request', detail: 'errand' };
  return undefined;
}

/**
 * A terse standing fact: a recurring duty, a diet or an intolerance, a setting, a budget, what one
 * teaches or uses. The gate's short-text check asks a short CJK text for a copula and six characters.
 */
const TERSE_FACT =
  /每(?:天|周|月|年)|(?:不|只)(?:喝|吃|抽|用|坐)|吃素|素食|过敏|不耐受|忌口|设为|设置为|预算|(?:^|[\u4e00-\u9fff\s])(?:用|使用|教|养了?|住在|来自)\s*\S|双语|附(?:上|带)?详细|(?:跑|去|学)过/;

export function readsAsChineseStandingFact(text: string): boolean {
  const t = text.trim();
  return hasCjk(t) && TERSE_FACT.test(t) && chineseMemoryRejection(t) === undefined && !AHEAD.test(t);
}
