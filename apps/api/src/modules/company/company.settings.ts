import { defineSettings } from '@app/domain';

/** The `company` namespace (its name locales are the setup wizard's, declared there). */
export const COMPANY_SETTINGS = defineSettings('company', [
  { key: 'company_name', type: 'str', default: null, description: 'Name of the company', group: 'Identity' },
  { key: 'description', type: 'str', default: null, description: 'What the company does', group: 'Identity' },
  {
    key: 'autonomy_level',
    type: 'enum',
    default: 'semi',
    description: 'How much agents may do without approval',
    group: 'Autonomy',
    enumValues: ['full', 'semi', 'supervised', 'locked'],
  },
  {
    key: 'graceful_shutdown_seconds',
    type: 'float',
    default: '30.0',
    description: 'How long running work gets to stop at shutdown',
    group: 'Lifecycle',
    min: 1,
    max: 300,
  },
  { key: 'agents', type: 'json', default: null, description: 'Agent roster override', group: 'Structure' },
  { key: 'departments', type: 'json', default: null, description: 'Department override', group: 'Structure' },
]);
