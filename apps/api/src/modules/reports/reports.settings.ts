import { defineSettings, REPORT_PERIODS } from '@app/domain';

/** The report schedule, declared in the `budget` namespace beside the reports it generates. */
export const REPORTS_SETTINGS = defineSettings('budget', [
  {
    key: 'report_schedule',
    type: 'enum',
    default: 'off',
    description: "Generate the previous period's comprehensive report once per period",
    group: 'Reports',
    enumValues: ['off', ...REPORT_PERIODS],
  },
]);
