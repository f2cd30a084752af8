import type { AutonomyLevel } from '../company/enums';
import { CREDENTIAL_PATTERNS, mayMatch, type NamedPattern, PII_PATTERNS } from './detectors';

/** What a scan did to an output. */
export const SCAN_OUTCOMES = ['clean', 'redacted', 'withheld', 'log_only'] as const;
export type ScanOutcome = (typeof SCAN_OUTCOMES)[number];

/** The setting's policies (underscored as the setting stores them). */
export const OUTPUT_SCAN_POLICIES = ['redact', 'withhold', 'log_only', 'autonomy_tiered'] as const;
export type OutputScanPolicy = (typeof OUTPUT_SCAN_POLICIES)[number];
export type ConcreteScanPolicy = Exclude<OutputScanPolicy, 'autonomy_tiered'>;

/** The message a withheld output is replaced by. */
export const OUTPUT_WITHHELD_MESSAGE = 'content withheld by security policy';
export const REDACTION_MARK = '[REDACTED]';

/** `autonomy_tiered`'s choice per level: log only under full, redact under semi and supervised, withhold under locked. */
export const TIERED_SCAN_POLICY: Readonly<Record<AutonomyLevel, ConcreteScanPolicy>> = {
  full: 'log_only',
  semi: 'redact',
  supervised: 'redact',
  locked: 'withhold',
};

/** The concrete policy in force for an agent at a level. */
export function scanPolicyFor(policy: OutputScanPolicy, level: AutonomyLevel): ConcreteScanPolicy {
  return policy === 'autonomy_tiered' ? TIERED_SCAN_POLICY[level] : policy;
}

const OUTPUT_PATTERNS: readonly NamedPattern[] = [...CREDENTIAL_PATTERNS, ...PII_PATTERNS];
const GLOBAL_PATTERNS = OUTPUT_PATTERNS.map((p) => ({
  ...p,
  regex: new RegExp(p.regex.source, p.regex.flags.includes('g') ? p.regex.flags : `${p.regex.flags}g`),
}));

/** The output with every credential and personal-data match replaced, and the names of the patterns found. */
export function redactSecrets(text: string): { text: string; findings: string[] } {
  const findings = new Set<string>();
  let out = text;
  const lower = text.toLowerCase();
  const seen = new Map<string, boolean>();
  for (const pattern of GLOBAL_PATTERNS) {
    // The hints hold for the original text; a redaction only removes text, so they still prune safely.
    if (!mayMatch(pattern, lower, seen)) {
      continue;
    }
    out = out.replace(pattern.regex, (match) => {
      if (pattern.check !== undefined && !pattern.check(match)) {
        return match;
      }
      findings.add(pattern.name);
      return REDACTION_MARK;
    });
  }
  return { text: out, findings: [...findings] };
}

/** A scan's result: the outcome, the text to pass on (the original for clean and log-only), the findings. */
export interface OutputScanResult {
  readonly outcome: ScanOutcome;
  readonly text: string;
  readonly findings: readonly string[];
}

/** Scans an output under a concrete policy. */
export function scanOutput(text: string, policy: ConcreteScanPolicy): OutputScanResult {
  return scanOutcome(text, redactSecrets(text), policy);
}

/**
 * What a policy makes of a scan's findings (`redacted` is `redactSecrets(text)`). A clean text is
 * clean under every policy, so a caller may find first and work out the policy only for findings.
 */
export function scanOutcome(
  text: string,
  redacted: { text: string; findings: string[] },
  policy: ConcreteScanPolicy,
): OutputScanResult {
  if (redacted.findings.length === 0) {
    return { outcome: 'clean', text, findings: [] };
  }
  switch (policy) {
    case 'redact':
      return { outcome: 'redacted', text: redacted.text, findings: redacted.findings };
    case 'withhold':
      return { outcome: 'withheld', text: OUTPUT_WITHHELD_MESSAGE, findings: redacted.findings };
    case 'log_only':
      return { outcome: 'log_only', text, findings: redacted.findings };
  }
}
