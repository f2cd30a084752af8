import type { RiskLevel } from './risk';

/** The argument detectors of the rule engine, each of which can be switched off. */
export const DETECTOR_NAMES = ['credential', 'path_traversal', 'destructive', 'data_leak'] as const;
export type DetectorName = (typeof DETECTOR_NAMES)[number];

/** One string inside a tool call's arguments, with where it sits and whether it names a path. */
export interface ArgumentText {
  readonly field: string;
  readonly value: string;
  /** The value lower-cased once, for the patterns' cheap literal pre-checks. */
  readonly lower: string;
  /** Paths and commands: the only fields path rules look at, so file contents may say `../`. */
  readonly pathLike: boolean;
  /**
   * Hints already looked up in `lower` (several patterns share one, and the detectors all read the
   * same texts): each hint costs one pass over a long text at most once per call.
   */
  readonly seen?: Map<string, boolean>;
}

/** A detector's hit: which pattern matched where, and what it asks for. */
export interface DetectorFinding {
  readonly detector: DetectorName;
  readonly pattern: string;
  readonly field: string;
  readonly verdict: 'deny' | 'escalate';
  readonly risk: RiskLevel;
}

/**
 * A named pattern; `check` can reject a match the pattern alone cannot (card checksums). `hints`
 * are lower-case literals of which any match must contain one: a text holding none of them skips
 * the regular expression, which keeps a 100 kB argument cheap.
 */
export interface NamedPattern {
  readonly name: string;
  readonly regex: RegExp;
  readonly check?: (match: string) => boolean;
  readonly hints?: readonly string[];
}

/** A detector: looks at a call's argument texts, returns its first finding or null. */
export type Detector = (texts: readonly ArgumentText[]) => DetectorFinding | null;

const PATH_FIELD = /(?:path|file|dir|folder|cwd|src|source|dest|destination|target|location|command|cmd|script)/i;
// Arguments are JSON from a model; a bound keeps a hostile nesting from costing a deep recursion.
const MAX_DEPTH = 32;

/** Every string in the arguments (keys' values, array items), with its dotted field path. */
export function argumentTexts(args: Record<string, unknown>): ArgumentText[] {
  const out: ArgumentText[] = [];
  const walk = (value: unknown, field: string, pathLike: boolean, depth: number): void => {
    if (typeof value === 'string') {
      out.push({ field, value, lower: value.toLowerCase(), pathLike, seen: new Map() });
    } else if (depth >= MAX_DEPTH) {
      const text = JSON.stringify(value) ?? '';
      out.push({ field, value: text, lower: text.toLowerCase(), pathLike, seen: new Map() });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${field}[${i}]`, pathLike, depth + 1));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        walk(inner, field === '' ? key : `${field}.${key}`, pathLike || PATH_FIELD.test(key), depth + 1);
      }
    }
  };
  walk(args, '', false, 0);
  return out;
}

/** Luhn checksum of the digits in a card-number match: tells a card from any 16 digits. */
export function luhnValid(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) {
        digit -= 9;
      }
    }
    sum += digit;
  }
  return digits.length >= 13 && sum % 10 === 0;
}

/** Credentials in clear: refused in arguments, redacted in outputs. */
export const CREDENTIAL_PATTERNS: readonly NamedPattern[] = [
  { hints: ['akia', 'asia'], name: 'aws_access_key', regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  {
    hints: ['secret'],
    name: 'aws_secret_key',
    regex: /aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}/i,
  },
  { hints: ['private key'], name: 'private_key', regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/ },
  // One short hint rather than five: each hint is a pass over the text, and every token holds `gh`.
  { hints: ['gh'], name: 'github_token', regex: /\bgh[pousr]_[A-Za-z0-9]{36,}/ },
  { hints: ['bearer'], name: 'bearer_token', regex: /\bBearer\s+[A-Za-z0-9\-._~+/]{20,}=*/ },
  {
    name: 'generic_secret_assignment',
    hints: ['key', 'token', 'secret', 'passw'],
    regex:
      /\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|password|passwd)["']?\s*[:=]\s*["']?[^\s"',;]{16,}/i,
  },
  {
    name: 'uppercase_secret_assignment',
    // `passw` (shared with the generic rule) stands for `password`: a text holding one holds the other.
    hints: ['secret', 'token', 'passw', 'credential'],
    regex: /\b[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|CREDENTIAL)[A-Z0-9_]*\s*=\s*["']?[^\s"'$]{8,}/,
  },
];

/** Personal data: refused in arguments (a data leak), redacted in outputs. */
export const PII_PATTERNS: readonly NamedPattern[] = [
  { name: 'us_ssn', regex: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/ },
  {
    name: 'card_number',
    regex: /\b(?:4\d{3}|5[1-5]\d{2}|2[2-7]\d{2}|6011|65\d{2})(?:[ -]?\d{4}){3}\b/,
    check: luhnValid,
  },
];

export const PATH_TRAVERSAL_PATTERNS: readonly NamedPattern[] = [
  { name: 'dot_dot_segment', regex: /(?:^|[\\/\s"'=])\.\.(?:[\\/]|$)/ },
  { name: 'nul_byte', regex: /\0/ },
  { hints: ['%2e'], name: 'encoded_dot_dot', regex: /%2e%2e|%2e\.|\.%2e/i },
  { hints: ['%252e'], name: 'double_encoded_dot', regex: /%252e/i },
  { hints: ['%c0%ae'], name: 'overlong_utf8_dot', regex: /%c0%ae/i },
  { name: 'unc_path', regex: /^(?:\\\\|\/\/)[^\\/\s]+[\\/]/ },
];

export const SEVERE_DESTRUCTIVE_PATTERNS: readonly NamedPattern[] = [
  {
    hints: ['rm'],
    name: 'rm_recursive_force',
    regex:
      /\brm\s+(?:-[a-zA-Z]*(?:r[a-zA-Z]*f|f[a-zA-Z]*r)[a-zA-Z]*|(?:-[rRf]\s+){1,2}-[rRf]|--recursive\s+--force|--force\s+--recursive)\b/,
  },
  { hints: ['drop'], name: 'drop_database', regex: /\bDROP\s+(?:DATABASE|SCHEMA)\b/i },
  { hints: ['mkfs'], name: 'mkfs', regex: /\bmkfs(?:\.[a-z0-9]+)?\s/ },
  { hints: ['format'], name: 'format_drive', regex: /\bformat\s+[a-z]:/i },
];

export const REVIEW_DESTRUCTIVE_PATTERNS: readonly NamedPattern[] = [
  { hints: ['drop'], name: 'drop_table', regex: /\bDROP\s+TABLE\b/i },
  { hints: ['delete'], name: 'delete_without_where', regex: /\bDELETE\s+FROM\s+[\w."`[\]]+\s*(?:;|$)/im },
  { hints: ['truncate'], name: 'truncate', regex: /\bTRUNCATE\s+(?:TABLE\s+)?[\w."`]/i },
  { hints: ['git'], name: 'git_force_push', regex: /\bgit\s+push\b[^\n;&|]*\s(?:--force(?:-with-lease)?|-f)(?:\s|$)/ },
  { hints: ['git'], name: 'git_reset_hard', regex: /\bgit\s+reset\s+(?:[^\n;&|]*\s)?--hard\b/ },
];

const END = String.raw`(?=$|[\s"'\`;|&)<>])`;
const START = String.raw`(?:^|[\\/\s"'=\`])`;

export const SENSITIVE_PATH_PATTERNS: readonly NamedPattern[] = [
  { hints: ['.env'], name: 'dotenv_file', regex: new RegExp(`${START}\\.env(?:\\.[\\w.-]+)?${END}`) },
  { hints: ['id_'], name: 'ssh_private_key', regex: new RegExp(`${START}id_(?:rsa|ed25519|ecdsa|dsa)${END}`) },
  { hints: ['.pem', '.p12', '.pfx', '.key'], name: 'key_file', regex: new RegExp(`\\.(?:pem|p12|pfx|key)${END}`, 'i') },
  { hints: ['credentials'], name: 'aws_credentials', regex: new RegExp(`\\.aws[\\\\/]credentials${END}`) },
  { hints: ['config'], name: 'ssh_config', regex: new RegExp(`\\.ssh[\\\\/]config${END}`) },
  { hints: ['.netrc'], name: 'netrc', regex: new RegExp(`${START}\\.netrc${END}`) },
  { hints: ['.pgpass'], name: 'pgpass', regex: new RegExp(`${START}\\.pgpass${END}`) },
  { hints: ['credentials.json'], name: 'credentials_json', regex: new RegExp(`${START}credentials\\.json${END}`) },
  { hints: ['secrets.y'], name: 'secrets_yaml', regex: new RegExp(`${START}secrets\\.ya?ml${END}`) },
  { hints: ['config'], name: 'kube_config', regex: new RegExp(`\\.kube[\\\\/]config${END}`) },
];

/**
 * True when the lower-cased text holds one of the pattern's hints (or it has none). `seen` remembers
 * each hint's answer for this text.
 */
export function mayMatch(pattern: NamedPattern, lower: string, seen?: Map<string, boolean>): boolean {
  if (pattern.hints === undefined) {
    return true;
  }
  for (const hint of pattern.hints) {
    let found = seen?.get(hint);
    if (found === undefined) {
      found = lower.includes(hint);
      seen?.set(hint, found);
    }
    if (found) {
      return true;
    }
  }
  return false;
}

/** The first pattern matching the text, or null; `lower` is the text lower-cased. */
export function firstMatch(
  patterns: readonly NamedPattern[],
  text: string,
  lower = text.toLowerCase(),
  seen?: Map<string, boolean>,
): NamedPattern | null {
  for (const pattern of patterns) {
    if (!mayMatch(pattern, lower, seen)) {
      continue;
    }
    const match = pattern.regex.exec(text);
    if (match && (pattern.check === undefined || pattern.check(match[0]))) {
      return pattern;
    }
  }
  return null;
}

function detector(
  name: DetectorName,
  groups: readonly {
    patterns: readonly NamedPattern[];
    verdict: 'deny' | 'escalate';
    risk: RiskLevel;
    paths?: boolean;
  }[],
): Detector {
  return (texts) => {
    for (const group of groups) {
      for (const text of texts) {
        if (group.paths === true && !text.pathLike) {
          continue;
        }
        const hit = firstMatch(group.patterns, text.value, text.lower, text.seen);
        if (hit) {
          return { detector: name, pattern: hit.name, field: text.field, verdict: group.verdict, risk: group.risk };
        }
      }
    }
    return null;
  };
}

/** The four detectors, in the rule engine's order. */
export const DETECTORS: Readonly<Record<DetectorName, Detector>> = {
  credential: detector('credential', [{ patterns: CREDENTIAL_PATTERNS, verdict: 'deny', risk: 'critical' }]),
  path_traversal: detector('path_traversal', [
    { patterns: PATH_TRAVERSAL_PATTERNS, verdict: 'deny', risk: 'critical', paths: true },
  ]),
  destructive: detector('destructive', [
    { patterns: SEVERE_DESTRUCTIVE_PATTERNS, verdict: 'deny', risk: 'critical' },
    { patterns: REVIEW_DESTRUCTIVE_PATTERNS, verdict: 'escalate', risk: 'high' },
  ]),
  data_leak: detector('data_leak', [
    { patterns: SENSITIVE_PATH_PATTERNS, verdict: 'deny', risk: 'high', paths: true },
    { patterns: PII_PATTERNS, verdict: 'deny', risk: 'high' },
  ]),
};
