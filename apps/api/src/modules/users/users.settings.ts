import { defineSettings, PASSWORD_MIN_LENGTH } from '@app/domain';

/** The account and session part of the `api` namespace. */
export const USERS_API_SETTINGS = defineSettings('api', [
  {
    key: 'jwt_expiry_minutes',
    type: 'int',
    default: '1440',
    description: 'Lifetime of a session token in minutes',
    group: 'Authentication',
    level: 'advanced',
    min: 1,
    max: 43200,
    // Read when the token service starts, from the same tiers the boot configuration reads.
    restartRequired: true,
    yamlPath: 'auth.jwt_expiry_minutes',
    envAliases: ['SYNTHORG_JWT_EXPIRY_MINUTES'],
  },
  {
    key: 'min_password_length',
    type: 'int',
    default: String(PASSWORD_MIN_LENGTH),
    description: 'Shortest password accepted',
    group: 'Authentication',
    min: 12,
    max: 128,
  },
  {
    key: 'auth_exclude_paths',
    type: 'json',
    default: '[]',
    description: 'Paths served without authentication',
    group: 'Authentication',
    level: 'advanced',
    restartRequired: true,
  },
]);
