/**
 * The maintained part of the redaction rule set: secretlint's recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend`, MIT, updated with new vendor formats upstream),
 * driven directly through its rule API. `@secretlint/core` is async and file-oriented; redaction
 * runs synchronously on every stored string, so this adapter gives the rules a minimal context
 * that only collects the reported ranges. Filter rules (secretlint-disable comments) are left out:
 * text we store must not be able to switch redaction off.
 */
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintRuleReportHandler, SecretLintSourceCode } from '@secretlint/types';

export interface SecretRange {
  start: number;
  end: number;
  /** Short rule name, e.g. `aws`, `github`, `database-connection-string`. */
  kind: string;
}

/** Per-rule options: the AWS access key id scan is off in secretlint by default (repos are full of examples); we want it. */
const RULE_OPTIONS: Record<string, object> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

interface LoadedRule {
  kind: string;
  handler: SecretLintRuleReportHandler;
}

const MAY_HOLD_SECRET = /:\/\/|[A-Za-z0-9_\-+/=.]{16}/;
let sink: SecretRange[] | undefined;
let currentKind = '';
let loaded: LoadedRule[] | undefined;

function load(): LoadedRule[] {
  const out: LoadedRule[] = [];
  for (const rule of presetRules as unknown as SecretLintRuleCreator[]) {
    if (
      rule.meta.type !== 'scanner' ||
      rule.meta.id.endsWith('filter-comments') ||
      !rule.meta.supportedContentTypes.some((t) => t === 'text' || t === 'all')
    )
      continue;
    const kind = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');
    const context: SecretLintRuleContext = {
      sharedOptions: { locale: 'en', maskSecrets: true },
      createTranslator: () => ((messageId: string) => ({ message: messageId, messageId, data: {} })) as never,
      report: (descriptor) => sink?.push({ start: descriptor.range[0], end: descriptor.range[1], kind: currentKind }),
      ignore: () => undefined,
    };
    out.push({ kind, handler: rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {}) });
  }
  return out;
}

function sourceOf(content: string): SecretLintSourceCode {
  const unsupported = (): never => {
    throw new Error('not supported by the redaction adapter');
  };
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    locationToRange: unsupported,
    rangeToLocation: unsupported,
    positionToIndex: unsupported,
    indexToPosition: unsupported,
  };
}

/** Ranges of `text` that secretlint's recommended rules report as secrets (unsorted, may overlap). */
export function secretlintRanges(text: string): SecretRange[] {
  // Every preset rule needs a URL or a run of 16+ token characters; most texts have neither.
  if (!MAY_HOLD_SECRET.test(text)) return [];
  loaded ??= load();
  const found: SecretRange[] = [];
  const source = sourceOf(text);
  sink = found;
  try {
    for (const rule of loaded) {
      currentKind = rule.kind;
      // Text rules report synchronously; a promise (binary-only rules) has nothing to add for text.
      const pending = rule.handler.file?.(source);
      if (pending instanceof Promise) pending.catch(() => undefined);
    }
  } finally {
    sink = undefined;
  }
  return found.filter((r) => r.end > r.start);
}

/** Names of the secretlint rules in use (for docs and tests). */
export function secretlintRuleNames(): string[] {
  loaded ??= load();
  return loaded.map((r) => r.kind);
}
