import { defineSettings } from '@app/domain';

/** The hiring settings: the `Workforce` group of the `company` namespace. */
export const HIRING_SETTINGS = defineSettings('company', [
  {
    key: 'hiring_requires_second_approval',
    type: 'bool',
    default: 'false',
    description: 'A hiring request filed by the CEO or a manager waits for a second person (an org:hire approval item)',
    group: 'Workforce',
  },
]);
