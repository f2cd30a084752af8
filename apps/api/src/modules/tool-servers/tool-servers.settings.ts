import { defineSettings } from '@app/domain';

/** The tool-server part of the `security` namespace: how much a run may take from outside tools. */
export const TOOL_SERVER_SETTINGS = defineSettings('security', [
  {
    key: 'tool_server_max_result_chars',
    type: 'int',
    default: '16000',
    description: 'Characters of a tool server result the model reads; the rest is cut',
    group: 'Tool servers',
    min: 200,
    max: 1_000_000,
  },
  {
    key: 'tool_server_max_calls_per_run',
    type: 'int',
    default: '50',
    description: 'Tool server calls one run of a task may make; later calls are refused',
    group: 'Tool servers',
    min: 1,
    max: 10_000,
  },
  {
    key: 'tool_server_call_timeout_seconds',
    type: 'int',
    default: '60',
    description: 'How long a tool server call may take',
    group: 'Tool servers',
    min: 1,
    max: 3_600,
  },
  {
    key: 'tool_server_idle_seconds',
    type: 'int',
    default: '300',
    description:
      'How long a stdio tool server may sit unused before its process is stopped (started again on next use)',
    group: 'Tool servers',
    min: 1,
    max: 86_400,
  },
]);
