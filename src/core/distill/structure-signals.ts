import { hasCjk, hasShapeVerb } from './signals.js';

/**
 * Detectors for the shapes real transcripts are full of and memories never are: text the host or
 * harness wrote (hook notices, IDE context, compaction-agent instructions, interrupted-request
 * markers), headings and lead-ins ("Key Findings:", "The script will:"), file listings, and
 * change-log lines with no subject ("Lowered entropy threshold from 3.5 to 3.0").
 */

const HOST_NOISE: RegExp[] = [
  /^Read the output file to retrieve the result\b/i,
  /^\[Request interrupted by user(?: for tool use)?\]/i,
  /^<\/?(?:task-notification|local-command-\w+|command-(?:name|message|args)|bash-(?:input|stdout|stderr)|system-reminder|user-prompt-submit-hook)\b/i,
  /^(?:Context from my IDE setup|Open tabs|Active file|Active selection|My request for Codex|## My request for Codex)\s*:/i,
  /^[\w.-]+\.\w{1,5}:\s+\S+\/[\w./()[\]-]+$/, // "route.ts: apps/x/route.ts" (IDE tab list)
  /^(?:This session is being continued from a previous conversation|The (?:conversation|summary) (?:is summarized|below covers)|Please continue the conversation from where we left|Continue with the last task that you were asked|If you need specific details from before compaction|Let me chronologically analy[sz]e)/i,
  /^(?:Analysis|Summary|Current state|Pending Tasks|Current Work|Optional Next Step|All User Messages|Key Technical Concepts|Files and Code Sections|Errors and Fixes|Problem Solving|Primary Request and Intent)\s*:?\s*$/i,
  /^(?:HEARTBEAT_OK|NO_REPLY)\b|^Read HEARTBEAT\.md\b/i,
  /<\/?(?:final|think|thinking)>/i,
];

/** Text the host, an IDE integration, a hook or the compaction agent put into the transcript. */
export function isHostNoise(text: string): boolean {
  const t = text.trim();
  return HOST_NOISE.some((re) => re.test(t));
}

// ---------------------------------------------------------------- headings, lead-ins, listings

/** Commit-message prefixes: "tipo feat: o fix:" ends on a colon without leading in to anything. */
const COMMIT_TYPE = /\b(?:feat|fix|chore|docs|refactor|test|perf|ci|build|style|revert)(?:\([\w-]+\))?:/gi;

/** A lead-in or label that introduces what follows ("Key Findings:", "If you have the key on another system:"). */
export function isLeadIn(text: string): boolean {
  const t = text.trim();
  if (/[:：]\s*$/.test(t) && (t.match(COMMIT_TYPE)?.length ?? 0) < 2) return true;
  // "**2." and similar list debris from markdown split mid-emphasis.
  if (/^[*_~`#\s]*\d{1,3}[.)]?[*_~`\s]*$/.test(t)) return true;
  return false;
}

/** A path, a file name or a file listing entry ("`docs/X.md` - Mac security assessment"). */
export function isFileListing(text: string): boolean {
  const t = text.trim().replace(LEADING_MARKS, '');
  const path = String.raw`(?:[\w.@~-]*\/[\w.@~/()[\]-]*|[\w.-]+\.(?:md|ts|tsx|js|jsx|json|jsonl|sh|ps1|py|ex|exs|toml|ya?ml|lock|txt|css|html|sql|prisma|env|output|png|jpe?g))`;
  if (new RegExp(`^['"\`]?${path}['"\`]?\\s*(?:\\([^)]{0,40}\\))?\\s*$`, 'i').test(t)) return true;
  if (
    new RegExp(`^\`${path}\`\\s*(?:\\([^)]{0,40}\\))?\\s*(?:[-–—:→]|covers:)`, 'i').test(t) &&
    !/\b(?:because|since|must|never|always|should)\b/i.test(t)
  )
    return true;
  // A quoted screenshot or attachment path.
  return /^['"]?\/(?:var|tmp|Users|home|private)\/\S+.*\.(?:png|jpe?g|gif|pdf|mov)['"]?$/i.test(t);
}

// ---------------------------------------------------------------- change logs and plans

/** Emoji and check marks in front of a list item ("✅ ", "⚠️ ", "📁 "). */
const LEADING_MARKS = /^(?:\p{Extended_Pictographic}|\uFE0F|[✔☑\s])+/u;

/** Past-tense actions with no subject: what a summary or an assistant lists as done. */
const CHANGE_LOG =
  /^(?:\p{Extended_Pictographic}|\uFE0F|[✔☑\s-])*(?:successfully\s+)?(?:added|created|updated|removed|deleted|fixed|changed|installed|uninstalled|generated|lowered|raised|reduced|increased|configured|reconfigured|set up|ran|re-?ran|executed|verified|committed|pushed|merged|investigated|found|attempted|achieved|identified|documented|analy[sz]ed|provided|preserved|replaced|moved|renamed|implemented|extracted|closed|claimed|read|wrote|tested|separated|located|imported|exported|enabled|disabled|applied|cleaned|scanned|rewrote|rewired|refactored|simplified|switched|upgraded|downgraded|restored|reverted|converted|split|wired|hooked|patched|completed|finished|started|opened|launched|deployed|built|compiled|re-?staged|staged|adjusted|tuned|checked|confirmed|ensured|made|used|kept|left|dropped|skipped|bypassed)\b/iu;

export function isChangeLog(text: string): boolean {
  return CHANGE_LOG.test(text.trim());
}

/** Status lines with an emoji or verdict marker ("✅ History rewritten successfully", "Status: ✅ ACTIVE"). */
export function isMarkedStatus(text: string): boolean {
  const t = text.trim();
  if (/^[✅✔☑❌⚠⏸🎉🎯🚀✨🔥🆕]/u.test(t) && !/\b(?:because|since|must|never|always|instead)\b/i.test(t)) return true;
  return /^(?:status|result|results|integrity check|verdict|outcome|progress|build|tests?|checks?)\s*:\s*\S/i.test(t) && t.length < 80;
}

/**
 * A short subjectless item with no verb at all ("Performance metrics (CPU, memory, disk)", "Media
 * server", "WiFi 7 (802.11be) with MLO"): a list entry cut from its list. English only; longer text
 * almost always has a verb the list below does not know, so only up to 8 words are judged.
 */
const VERB_EN =
  /\b(?:is|are|was|were|be|been|being|am|has|have|had|does|do|did|can|cannot|can't|could|will|won't|would|should|shouldn't|must|may|might|need|needs|uses?|used|lives?|runs?|ran|stores?|keeps?|contains?|accepts?|supports?|returns?|requires?|reads?|writes?|makes?|means?|works?|goes|gets?|prefers?|likes?|wants?|hates?|calls?|sends?|shows?|takes?|gives?|sits?|stays?|lets?|breaks?|fails?|crashes|handles?|owns?|belongs?|depends?|exists?|happens?|causes?|leads?|falls?|stops?|starts?|ends?|points?|refers?|maps?|connects?|delegates?|monitors?|tracks?|collapses?|renders?|matches?|fits?|treats?|becomes?|remains?|says?|ignores?|drops?|generates?|injects?|serves?|marks?|allows?|prevents?|enables?|triggers?|creates?|removes?|adds?|updates?|fetches|loads?|parses?|checks?|sets?|puts?|[a-z]{3,}ed)\b|n't\b/i;
/** Finite verbs only (no participles): whether the value after a "Label:" is a clause. */
const FINITE_EN =
  /\b(?:is|are|was|were|am|has|have|had|does|do|did|can|cannot|can't|could|will|won't|would|should|must|may|might|needs|uses|lives|runs|stores|keeps|contains|accepts|supports|returns|requires|reads|writes|makes|means|works|goes|gets|prefers|likes|wants|calls|sends|shows|takes|gives|fails|crashes|handles|owns|belongs|depends|exists|happens|causes|leads|falls|stops|starts|ends|points|refers|maps|connects|generates|injects|serves|marks|allows|prevents|enables|triggers|creates|removes|adds|updates|fetches|loads|parses|checks|sets)\b|n't\b/i;

function words(text: string): string[] {
  return (
    text
      .replace(/`[^`]*`/g, ' x ')
      .replace(/\([^)]*\)/g, ' ')
      .match(/[A-Za-z][A-Za-z'-]*/g) ?? []
  );
}

export function isVerbless(text: string, maxWords = 8): boolean {
  const t = text.trim();
  if (hasCjk(t)) return false;
  const w = words(t);
  if (w.length === 0) return true;
  if (w.length > maxWords) return false;
  // A finished sentence with a word of verb shape after its subject ("Renovate opens PRs weekly.").
  if (/[.!]$/.test(t) && /^\S+(?:\s+\S+){0,3}?\s+[a-z]{3,}(?<![sui])(?:s|ed)\s+\S/.test(t)) return false;
  return !VERB_EN.test(t.replace(/`[^`]*`/g, ' x ')) && !hasShapeVerb(t);
}

/** No finite verb: a value, not a clause ("\"JN\" (instead of hardcoded \"CN\")", "GL.iNet GL-BE3600"). */
export function hasNoFiniteVerb(text: string): boolean {
  return !hasCjk(text) && !FINITE_EN.test(text.replace(/`[^`]*`/g, ' x '));
}
