import { defineSettings } from '@app/domain';

/** The `backup` namespace, held here until a backup module owns it. */
export const BACKUP_SETTINGS = defineSettings('backup', [
  { key: 'enabled', type: 'bool', default: 'false', description: 'Scheduled backups', group: 'Schedule' },
  {
    key: 'frequency',
    type: 'enum',
    default: 'daily',
    description: 'How often backups run',
    group: 'Schedule',
    enumValues: ['hourly', 'daily', 'weekly'],
  },
  {
    key: 'schedule_hours',
    type: 'int',
    default: '6',
    description: 'Hours between scheduled backups',
    group: 'Schedule',
    min: 1,
    max: 168,
  },
  {
    key: 'retention_days',
    type: 'int',
    default: '30',
    description: 'Days backups are kept',
    group: 'Retention',
    level: 'advanced',
    min: 1,
    max: 365,
  },
  {
    key: 'path',
    type: 'str',
    default: '/data/backups',
    description: 'Directory backups are written to',
    group: 'Storage',
    level: 'advanced',
    restartRequired: true,
  },
  { key: 'compression', type: 'bool', default: 'true', description: 'Compress backups', group: 'Storage' },
  { key: 'on_shutdown', type: 'bool', default: 'true', description: 'Back up at shutdown', group: 'Triggers' },
  { key: 'on_startup', type: 'bool', default: 'true', description: 'Back up at startup', group: 'Triggers' },
]);
