import { defineSettings } from '@app/domain';

/** The `security` namespace, held here until a security module owns it. */
export const SECURITY_SETTINGS = defineSettings('security', [
  { key: 'enabled', type: 'bool', default: 'true', description: 'Security checks on tool calls', group: 'General' },
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
