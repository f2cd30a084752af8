import {
  DETECTOR_NAMES,
  type DetectorName,
  defineSettings,
  ErrorCode,
  expandActionTypes,
  HIGH_ERROR_RATE_DEFAULTS,
  TRUST_STRATEGIES,
  ValidationError,
} from '@app/domain';

/** The setting key that switches a detector on or off. */
export const DETECTOR_SETTING_KEYS: Readonly<Record<DetectorName, string>> = {
  credential: 'detect_credentials',
  path_traversal: 'detect_path_traversal',
  destructive: 'detect_destructive_operations',
  data_leak: 'detect_data_leaks',
};

/**
 * An action list as stored: a JSON array of action types or category names. Unknown entries are
 * refused by name (2070), so a typo cannot silently drop a hard-deny rule.
 */
export function parseActionList(text: string, field: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError(`${field}: not a JSON array of action types`, ErrorCode.SecurityActionTypeUnknown);
  }
  if (!Array.isArray(value) || !value.every((entry): entry is string => typeof entry === 'string')) {
    throw new ValidationError(
      `${field}: must be a JSON array of action type strings`,
      ErrorCode.SecurityActionTypeUnknown,
    );
  }
  return expandActionTypes(value, field);
}

const actionList = (key: string, fallback: readonly string[], description: string) => ({
  key,
  type: 'json' as const,
  default: JSON.stringify(fallback),
  description,
  group: 'Policy',
  validate: (text: string): void => {
    parseActionList(text, `security.${key}`);
  },
});

/** The `security` namespace, owned by the security module. */
export const SECURITY_SETTINGS = defineSettings('security', [
  { key: 'enabled', type: 'bool', default: 'true', description: 'Security checks on tool calls', group: 'General' },
  {
    key: 'enforcement_mode',
    type: 'enum',
    default: 'active',
    description: 'active applies verdicts; shadow records them but blocks nothing; disabled skips evaluation',
    group: 'General',
    enumValues: ['active', 'shadow', 'disabled'],
  },
  actionList('hard_deny_actions', ['deploy:production', 'db:admin', 'org:fire'], 'Actions always refused'),
  actionList(
    'auto_approve_actions',
    ['code:read', 'docs:write'],
    'Actions approved without a person (detectors still run)',
  ),
  ...DETECTOR_NAMES.map((name) => ({
    key: DETECTOR_SETTING_KEYS[name],
    type: 'bool' as const,
    default: 'true',
    description: `Run the ${name.replace('_', ' ')} detector on tool arguments`,
    group: 'Detectors',
    level: 'advanced' as const,
  })),
  {
    key: 'max_argument_length',
    type: 'int',
    default: '100000',
    description: 'Longest tool-call arguments (JSON characters) evaluated; longer calls are refused',
    group: 'Policy',
    level: 'advanced',
    min: 1000,
    max: 10_000_000,
  },
  {
    key: 'incident_denial_threshold',
    type: 'int',
    default: '5',
    description: 'Refused tool calls of one agent within the window that make a security incident (0: never)',
    group: 'Autonomy',
    level: 'advanced',
    min: 0,
    max: 1000,
  },
  {
    key: 'incident_window_minutes',
    type: 'int',
    default: '60',
    description: 'The window in which refused tool calls are counted towards an incident',
    group: 'Autonomy',
    level: 'advanced',
    min: 1,
    max: 10080,
  },
  {
    key: 'error_rate_threshold',
    type: 'float',
    default: String(HIGH_ERROR_RATE_DEFAULTS.threshold),
    description: "Share of an agent's recent runs failing above which its autonomy is lowered one level",
    group: 'Autonomy',
    level: 'advanced',
    min: 0.01,
    max: 1,
  },
  {
    key: 'error_rate_min_runs',
    type: 'int',
    default: String(HIGH_ERROR_RATE_DEFAULTS.minRuns),
    description: 'Finished runs needed before an error rate is judged',
    group: 'Autonomy',
    level: 'advanced',
    min: 1,
    max: 1000,
  },
  {
    key: 'error_rate_window_hours',
    type: 'int',
    default: String(HIGH_ERROR_RATE_DEFAULTS.windowHours),
    description: 'How far back runs count towards the error rate (never before the last autonomy write)',
    group: 'Autonomy',
    level: 'advanced',
    min: 1,
    max: 8760,
  },
  {
    key: 'trust_strategy',
    type: 'enum',
    default: 'disabled',
    description: 'How agents earn tool access: disabled, weighted, per_category or milestone',
    group: 'Trust',
    enumValues: [...TRUST_STRATEGIES],
  },
  {
    key: 'trust_reverification_enabled',
    type: 'bool',
    default: 'false',
    description: 'Milestone strategy: re-verify trust every 90 days',
    group: 'Trust',
    level: 'advanced',
  },
  { key: 'audit_enabled', type: 'bool', default: 'true', description: 'Record an audit trail', group: 'Audit' },
  {
    key: 'post_tool_scanning_enabled',
    type: 'bool',
    default: 'true',
    description: 'Scan tool output after each call',
    group: 'Scanning',
    level: 'advanced',
  },
  {
    key: 'output_scan_policy_type',
    type: 'enum',
    default: 'autonomy_tiered',
    description: 'What happens to output a scanner flags',
    group: 'Scanning',
    level: 'advanced',
    enumValues: ['redact', 'withhold', 'log_only', 'autonomy_tiered'],
  },
  {
    key: 'audit_retention_days',
    type: 'int',
    default: '730',
    description: 'Days audit records are kept',
    group: 'Audit',
    level: 'advanced',
    min: 0,
    max: 36500,
  },
  {
    key: 'retention_cleanup_paused',
    type: 'bool',
    default: 'false',
    description: 'Pause the deletion of expired audit records',
    group: 'Audit',
    level: 'advanced',
  },
]);
