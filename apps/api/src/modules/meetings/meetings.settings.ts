import { defineSettings, ErrorCode, parseCompanyMeetingTypes, ValidationError } from '@app/domain';

/** A company meeting type list is checked when it is stored, so a typo never reaches the scheduler. */
function meetingTypesShape(text: string): void {
  try {
    parseCompanyMeetingTypes(JSON.parse(text));
  } catch (error) {
    throw new ValidationError(
      `coordination.meeting_types: ${(error as Error).message}`,
      ErrorCode.MeetingTypesSettingInvalid,
    );
  }
}

/** Meeting settings, declared in the `coordination` namespace beside the ceremony settings. */
export const MEETINGS_SETTINGS = defineSettings('coordination', [
  {
    key: 'meetings_enabled',
    type: 'bool',
    default: 'true',
    description: 'Hold meetings: scheduled ones and those a trigger matches',
    group: 'Meetings',
  },
  {
    key: 'meeting_types',
    type: 'json',
    default: '[]',
    description:
      'Company meeting types: name, frequency or trigger, participants, duration_tokens, protocol_config ' +
      '(departments add theirs in their ceremony policy, strategy_config.meetings)',
    group: 'Meetings',
    level: 'advanced',
    validate: meetingTypesShape,
  },
]);
