import { defineSettings } from '@app/domain';
import { flagSetting, jsonSetting } from '@app/platform';

import { DEFAULT_NAME_LOCALES, normalizeNameLocales } from './names/name-locales';

/** Set once the wizard completed; the wizard is read-only from then on. */
export const SETUP_COMPLETE = flagSetting('api', 'setup_complete');

/** The locales random agent names come from; a stored list that is no longer valid cannot be read. */
export const NAME_LOCALES = jsonSetting('company', 'name_locales', (parsed) =>
  normalizeNameLocales(parsed as string[]),
);

/** The wizard's settings: its completion flag (`api`) and the name locales (`company`). */
export const SETUP_SETTINGS = [
  ...defineSettings('api', [
    {
      key: 'setup_complete',
      type: 'bool',
      default: 'false',
      description: 'Whether the first-run setup wizard completed',
      group: 'Setup',
      level: 'advanced',
    },
  ]),
  ...defineSettings('company', [
    {
      key: 'name_locales',
      type: 'json',
      default: JSON.stringify(DEFAULT_NAME_LOCALES),
      description: 'Locales random agent names are drawn from',
      group: 'Identity',
    },
  ]),
];
