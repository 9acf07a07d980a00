/**
 * Prompt-injection heuristics for text about to become a memory. Recalled memories are pasted into
 * future prompts, so a stored "ignore previous instructions" is a delayed attack. This only flags
 * (the engine tags the memory); it never blocks, because false positives must not lose data.
 * Standing user rules ("from now on, you should call me Sam") are not flagged; identity changes are.
 */

export interface InjectionCheck {
  suspicious: boolean;
  /** Stable ids of the heuristics that fired, e.g. `ignore-instructions`, `role-tag`. */
  reasons: string[];
}

interface Heuristic {
  reason: string;
  pattern: RegExp;
}

// Patterns run on a folded form (NFKC, lower case, no zero-width characters, single spaces), so
// full-width letters, odd spacing and invisible separators do not evade them.
const INSTRUCTION_NOUN = '(?:instructions?|prompts?|directions?|directives?|rules|guidelines|commands?|messages?|context|orders)';
const EARLIER = '(?:previous|prior|above|earlier|preceding|foregoing|former|original|existing|system)';

const HEURISTICS: Heuristic[] = [
  {
    reason: 'ignore-instructions',
    pattern: new RegExp(
      `\\b(?:ignore|disregard|forget|override|bypass|skip|drop|abandon)\\b(?: (?:all|any|every|each|the|your|my|of|these|those|what|was|said|instructions?))* ${EARLIER}\\b(?: [a-z]+)? ${INSTRUCTION_NOUN}\\b`,
    ),
  },
  {
    reason: 'ignore-instructions',
    pattern: new RegExp(`\\b(?:ignore|disregard|forget) (?:all |any )?(?:your|the|previous|prior) ${INSTRUCTION_NOUN}\\b`),
  },
  {
    reason: 'disregard-above',
    pattern:
      /\b(?:disregard|ignore|forget) (?:everything |all |anything )?(?:(?:that was |that's |written |said )?)(?:the )?(?:above|before this|so far)\b/,
  },
  {
    reason: 'role-reassignment',
    pattern:
      /\byou are now (?:a|an|the|my|no longer|called|named|acting|in (?:[a-z]+ )?mode|dan|unrestricted|unfiltered|jailbroken|free|root|admin|developer)\b|\bfrom now on,? you are\b|\bpretend (?:to be|you are) (?:an? )?(?:unrestricted|unfiltered|jailbroken|different|evil)\b/,
  },
  {
    reason: 'system-prompt',
    pattern:
      /\b(?:reveal|print|show|output|repeat|leak|dump|display|override|ignore|replace|change|new|updated|your|real) (?:the |your |my |full |original |entire |hidden )*system (?:prompt|message|instructions?)\b|(?:^|\n| )system (?:prompt|override|message) ?:|\bsystem override\b/,
  },
  {
    reason: 'new-instructions',
    pattern:
      /\b(?:new|updated|real|actual|revised|additional|secret|hidden) (?:instructions?|directives?|orders|rules|task)(?: for (?:you|the (?:ai|assistant|model)))? ?:/,
  },
  {
    reason: 'role-tag',
    pattern:
      /<\s*\/?\s*(?:system|assistant|developer|tool|instructions?|relevant[-_ ]memories|memories|memory|im_start|im_end|sys)\b[^>]{0,80}>|<\|\s*(?:im_start|im_end|im_sep|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id)\s*\|>|\[\/?inst\]|<<\/?sys>>|(?:^|\n)#{2,} ?(?:system|instruction|assistant)s? ?:?(?:\n|$)/,
  },
  {
    reason: 'conceal-from-user',
    pattern:
      /\b(?:do not|don't|dont|never) (?:tell|inform|notify|show|alert|warn|mention (?:this |it )?to|reveal (?:this |it )?to|let) (?:the |your )?user\b|\bwithout (?:telling|informing|notifying|alerting) (?:the |your )?user\b|\bkeep (?:this|it) (?:a )?secret from (?:the |your )?user\b/,
  },
  {
    reason: 'exfiltration',
    pattern:
      /\bexfiltrat\w*|\b(?:send|upload|post|forward|leak|transmit|email|copy) (?:all |the |your |every |any )*(?:user'?s? )?(?:data|memories|credentials|api keys?|keys|secrets|passwords|tokens|conversations?|chat history|history|files|env(?:ironment)?(?: variables)?) to\b/,
  },
  { reason: 'jailbreak', pattern: /\bjailbr(?:ea|o)k\w*|\b(?:developer|dan|god) mode\b|\bdo anything now\b/ },
  // Chinese equivalents (the folded form keeps CJK; no word boundaries there).
  {
    reason: 'ignore-instructions',
    pattern:
      /(?:忽略|无视|忽視|無視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|覆盖)[^。！？\n]{0,8}?(?:之前|以上|上面|前面|先前|此前|上述|以前|所有|全部|原有|原来)[^。！？\n]{0,6}?(?:指令|指示|提示词?|提示詞|规则|規則|说明|說明|要求|设定|設定|命令)/,
  },
  {
    reason: 'role-reassignment',
    pattern: /你现在(?:是|扮演|作为|成为)|你現在(?:是|扮演|作為|成為)|从现在(?:开始|起)[，,]?你(?:是|将|必须|要)/,
  },
  {
    reason: 'system-prompt',
    pattern: /(?:泄露|输出|显示|打印|告诉我|重复|透露|忽略)[^。！？\n]{0,6}(?:系统提示词?|系统指令|系統提示|系統指令)/,
  },
  { reason: 'new-instructions', pattern: /新(?:的)?(?:指令|指示|任务|規則|规则)[:：]/ },
  { reason: 'conceal-from-user', pattern: /(?:不要|别|別|切勿|不得|不可)(?:告诉|告訴|通知|提醒|让|讓)用户|(?:不要|别|切勿)让用户知道/ },
  {
    reason: 'exfiltration',
    pattern: /(?:窃取|竊取|外泄|外洩|偷偷发送|偷偷發送)|(?:发送|發送|上传|上傳)[^。！？\n]{0,10}(?:密钥|密鑰|密码|密碼|凭证|憑證|令牌)/,
  },
];

/** Folds text so that cosmetic variations do not evade the patterns. */
function fold(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '')
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[^\S\n]+/g, ' ');
}

/** Flags text that reads like instructions aimed at the model rather than a fact worth remembering. */
export function detectPromptInjection(text: string): InjectionCheck {
  const folded = fold(text);
  const reasons = new Set<string>();
  for (const { reason, pattern } of HEURISTICS) {
    if (!reasons.has(reason) && pattern.test(folded)) reasons.add(reason);
  }
  return { suspicious: reasons.size > 0, reasons: [...reasons] };
}

/** The tag the engine stores on a flagged memory. */
export const INJECTION_TAG = 'suspected-injection';

/**
 * Whether a memory may be injected into a model's context without being asked for: flagged
 * memories stay listable and recallable on explicit request, but never reach a prompt on their own
 * (auto-recall, the context bootstrap, host hooks, the organiser's scene files).
 */
export function isAutoInjectable(record: { tags: readonly string[] }): boolean {
  return !record.tags.includes(INJECTION_TAG);
}
