import { defineSettings } from '@app/domain';

/**
 * The `observability` namespace. The YAML `logging` block is the YAML source of the four
 * runtime-editable ones; the defaults are those the logging runtime starts with.
 */
export const OBSERVABILITY_SETTINGS = defineSettings('observability', [
  {
    key: 'root_log_level',
    type: 'enum',
    default: 'info',
    description: 'Least severe level written anywhere',
    group: 'Logging',
    enumValues: ['debug', 'info', 'warning', 'error', 'critical'],
    yamlPath: 'logging.root_level',
    envAliases: ['SYNTHORG_LOG_LEVEL'],
  },
  {
    key: 'enable_correlation',
    type: 'bool',
    default: 'true',
    description: 'Add request_id, task_id and agent_id to every record',
    group: 'Logging',
    level: 'advanced',
    yamlPath: 'logging.enable_correlation',
  },
  {
    key: 'sink_overrides',
    type: 'json',
    default: '{}',
    description: 'Per default sink: enabled, level, rotation (the console sink cannot be disabled)',
    group: 'Sinks',
    level: 'advanced',
    yamlPath: 'logging.sink_overrides',
  },
  {
    key: 'custom_sinks',
    type: 'json',
    default: '[]',
    description: 'Extra file, syslog and http sinks',
    group: 'Sinks',
    level: 'advanced',
    yamlPath: 'logging.custom_sinks',
  },
  ...(
    [
      ['http_batch_size', 'int', '100', 10, 1000, 'Records per HTTP sink batch'],
      ['http_flush_interval_seconds', 'float', '5.0', 0.5, 60, 'Seconds between HTTP sink flushes'],
      ['http_timeout_seconds', 'float', '10.0', 1, 60, 'Timeout of one HTTP sink request'],
      ['http_max_retries', 'int', '3', 0, 10, 'Retries of a failed HTTP sink batch'],
    ] as const
  ).map(([key, type, fallback, min, max, description]) => ({
    key,
    type,
    default: fallback,
    description,
    group: 'Shipping',
    level: 'advanced' as const,
    restartRequired: true,
    min,
    max,
  })),
]);
