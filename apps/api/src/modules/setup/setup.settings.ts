import { flagSetting, jsonSetting } from '@app/platform';

import { normalizeNameLocales } from './names/name-locales';

/** Set once the wizard completed; the wizard is read-only from then on. */
export const SETUP_COMPLETE = flagSetting('api', 'setup_complete');

/** The locales random agent names come from; a stored list that is no longer valid cannot be read. */
export const NAME_LOCALES = jsonSetting('company', 'name_locales', (parsed) =>
  normalizeNameLocales(parsed as string[]),
);
