import {
  defineSettings,
  ErrorCode,
  SANDBOX_BACKENDS,
  type SandboxBackendName,
  TOOL_CATEGORIES,
  type ToolCategory,
  ValidationError,
} from '@app/domain';

/** `sandbox_overrides` as stored: a JSON object of tool category → backend. @throws ValidationError (2071). */
export function parseSandboxOverrides(text: string): Partial<Record<ToolCategory, SandboxBackendName>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('security.sandbox_overrides: must be a JSON object', ErrorCode.SandboxConfigInvalid);
  }
  const out: Partial<Record<ToolCategory, SandboxBackendName>> = {};
  for (const [category, backend] of Object.entries(value)) {
    if (!(TOOL_CATEGORIES as readonly string[]).includes(category)) {
      throw new ValidationError(
        `security.sandbox_overrides: unknown tool category "${category}"; use one of ${TOOL_CATEGORIES.join(', ')}`,
        ErrorCode.SandboxConfigInvalid,
      );
    }
    if (typeof backend !== 'string' || !(SANDBOX_BACKENDS as readonly string[]).includes(backend)) {
      throw new ValidationError(
        `security.sandbox_overrides: "${category}" must name a backend (${SANDBOX_BACKENDS.join(', ')})`,
        ErrorCode.SandboxConfigInvalid,
      );
    }
    out[category as ToolCategory] = backend as SandboxBackendName;
  }
  return out;
}

/** The sandbox part of the `security` namespace (spec "Sandbox configuration"). */
export const SANDBOX_SETTINGS = defineSettings('security', [
  {
    key: 'sandbox_default_backend',
    type: 'enum',
    default: 'subprocess',
    description: 'Where agent commands run; cluster is not available yet',
    group: 'Sandbox',
    enumValues: [...SANDBOX_BACKENDS],
  },
  {
    key: 'sandbox_overrides',
    type: 'json',
    default: '{}',
    description: 'A backend per tool category, over the default',
    group: 'Sandbox',
    level: 'advanced',
    validate: (text: string): void => {
      parseSandboxOverrides(text);
    },
  },
  {
    key: 'sandbox_subprocess_timeout_seconds',
    type: 'int',
    default: '30',
    description: 'Seconds a subprocess command may run before its process group is killed',
    group: 'Sandbox',
    min: 1,
    max: 3600,
  },
  {
    key: 'sandbox_container_image',
    type: 'str',
    default: 'node:22-alpine',
    description: 'Image container commands run in',
    group: 'Sandbox',
    level: 'advanced',
    pattern: '[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}',
  },
  {
    key: 'sandbox_container_network',
    type: 'enum',
    default: 'none',
    description: 'Container network (none unless allowed_hosts needs one)',
    group: 'Sandbox',
    level: 'advanced',
    enumValues: ['none', 'bridge'],
  },
  {
    key: 'sandbox_container_allowed_hosts',
    type: 'json',
    default: '[]',
    description: 'Hosts a container command may reach; a non-empty list gives it a network',
    group: 'Sandbox',
    level: 'advanced',
  },
  {
    key: 'sandbox_container_memory_limit',
    type: 'str',
    default: '512m',
    description: 'Container memory limit',
    group: 'Sandbox',
    level: 'advanced',
    pattern: '[1-9][0-9]{0,5}[kmg]',
  },
  {
    key: 'sandbox_container_cpu_limit',
    type: 'float',
    default: '1.0',
    description: 'Container CPU limit',
    group: 'Sandbox',
    level: 'advanced',
    min: 0.1,
    max: 64,
  },
  {
    key: 'sandbox_container_timeout_seconds',
    type: 'int',
    default: '120',
    description: 'Seconds a container command may run before it is killed',
    group: 'Sandbox',
    level: 'advanced',
    min: 1,
    max: 3600,
  },
  {
    key: 'sandbox_container_mount_mode',
    type: 'enum',
    default: 'ro',
    description: 'How the worktree is mounted into the container',
    group: 'Sandbox',
    level: 'advanced',
    enumValues: ['ro', 'rw'],
  },
  {
    key: 'sandbox_container_auto_remove',
    type: 'bool',
    default: 'true',
    description: 'Remove the container when the command ends',
    group: 'Sandbox',
    level: 'advanced',
  },
]);
