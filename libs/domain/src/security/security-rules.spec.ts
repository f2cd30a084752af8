import type { AutonomyLevel } from '../company/enums';
import { ErrorCode, ValidationError } from '../errors';
import {
  ACTION_CATEGORIES,
  ACTION_TYPES,
  actionsOfCategory,
  categoryOfAction,
  expandActionTypes,
  isActionType,
} from './action-types';
import {
  AUTONOMY_PRESETS,
  type AutonomyDowngradeReason,
  downgradeTarget,
  isAutonomyRaise,
  isAutoApproved,
  lowerAutonomyOneLevel,
  requiresHumanApproval,
  resolveAutonomy,
} from './autonomy';
import { ACTION_RISK, type RiskLevel, actionsAtRisk, maxRisk, riskLevelOf } from './risk';
import { type SandboxConfig, sandboxBackendFor, scrubbedEnvironment } from './sandbox';
import type { ToolCategory } from './tool-access';

describe('action types', () => {
  it('should list the 26 action types of the interface, each category:action', () => {
    expect(ACTION_TYPES).toHaveLength(26);
    for (const action of ACTION_TYPES) {
      expect(action).toMatch(/^[a-z]+:[a-z]+$/);
      expect(ACTION_CATEGORIES).toContain(categoryOfAction(action));
    }
  });

  it.each([
    ['code', ['code:read', 'code:write', 'code:create', 'code:delete', 'code:refactor']],
    ['test', ['test:write', 'test:run']],
    ['docs', ['docs:write']],
    ['vcs', ['vcs:read', 'vcs:commit', 'vcs:push', 'vcs:branch']],
    ['deploy', ['deploy:staging', 'deploy:production']],
    ['comms', ['comms:internal', 'comms:external']],
    ['budget', ['budget:spend', 'budget:exceed']],
    ['org', ['org:hire', 'org:fire', 'org:promote']],
    ['db', ['db:query', 'db:mutate', 'db:admin']],
    ['arch', ['arch:decide']],
    ['memory', ['memory:read']],
  ] as const)('should expand the category %s to its actions', (category, actions) => {
    expect(actionsOfCategory(category)).toEqual(actions);
    expect(expandActionTypes([category], 'f')).toEqual(actions);
  });

  it.each([
    [['deploy:production'], ['deploy:production']],
    [
      ['vcs', 'vcs:push'],
      ['vcs:read', 'vcs:commit', 'vcs:push', 'vcs:branch'],
    ],
    [
      [' Code:Read ', 'docs'],
      ['code:read', 'docs:write'],
    ],
    [
      ['org:fire', 'db:admin', 'deploy:production'],
      ['deploy:production', 'org:fire', 'db:admin'],
    ],
    [[], []],
  ])('should expand %j to %j in catalogue order without duplicates', (entries, expected) => {
    expect(expandActionTypes(entries, 'f')).toEqual(expected);
  });

  it.each([
    [['code:exec'], '"code:exec"'],
    [['deploy', 'deploy:prod', 'nope'], '"deploy:prod", "nope"'],
    [['code:'], '"code:"'],
    [[':read'], '":read"'],
    [[''], '""'],
  ])('should reject %j naming the unknown entries', (entries, named) => {
    let caught: unknown;
    try {
      expandActionTypes(entries, 'security.hard_deny');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught).toMatchObject({ code: ErrorCode.SecurityActionTypeUnknown });
    expect((caught as Error).message).toContain('security.hard_deny');
    expect((caught as Error).message).toContain(named);
  });

  it.each([
    ['code:read', true],
    ['memory:read', true],
    ['code', false],
    ['CODE:READ', false],
    ['code:read ', false],
  ])('should tell whether %j is an action type exactly', (value, expected) => {
    expect(isActionType(value)).toBe(expected);
  });
});

describe('risk levels', () => {
  it.each([
    ['critical', ['deploy:production', 'org:fire', 'db:admin']],
    ['high', ['code:delete', 'vcs:push', 'deploy:staging', 'comms:external', 'budget:exceed', 'db:mutate']],
    [
      'medium',
      [
        'code:write',
        'code:create',
        'code:refactor',
        'vcs:commit',
        'budget:spend',
        'org:hire',
        'org:promote',
        'arch:decide',
      ],
    ],
    [
      'low',
      [
        'code:read',
        'test:write',
        'test:run',
        'docs:write',
        'vcs:read',
        'vcs:branch',
        'comms:internal',
        'db:query',
        'memory:read',
      ],
    ],
  ] as const)('should put exactly these actions at %s', (level, actions) => {
    expect(actionsAtRisk(level)).toEqual(actions);
    for (const action of actions) {
      expect(riskLevelOf(action)).toBe(level);
    }
  });

  it('should classify every action type', () => {
    expect(Object.keys(ACTION_RISK).sort()).toEqual([...ACTION_TYPES].sort());
  });

  it.each(['code:exec', 'deploy', '', 'DEPLOY:PRODUCTION', 'shell:run'])(
    'should classify the unknown action %j as high',
    (action) => {
      expect(riskLevelOf(action)).toBe('high');
    },
  );

  it.each<[RiskLevel, RiskLevel, RiskLevel]>([
    ['low', 'high', 'high'],
    ['critical', 'medium', 'critical'],
    ['medium', 'medium', 'medium'],
  ])('should take the higher of %s and %s', (a, b, expected) => {
    expect(maxRisk(a, b)).toBe(expected);
  });
});

describe('autonomy presets', () => {
  it.each<[AutonomyLevel, string, boolean, boolean]>([
    ['full', 'deploy:production', true, false],
    ['full', 'org:fire', true, false],
    ['semi', 'code:write', true, false],
    ['semi', 'test:run', true, false],
    ['semi', 'docs:write', true, false],
    ['semi', 'comms:internal', true, false],
    ['semi', 'deploy:staging', false, true],
    ['semi', 'comms:external', false, true],
    ['semi', 'budget:exceed', false, true],
    ['semi', 'org:hire', false, true],
    ['semi', 'vcs:push', false, false],
    ['supervised', 'code:write', true, false],
    ['supervised', 'comms:internal', true, false],
    ['supervised', 'code:read', false, false],
    ['supervised', 'arch:decide', false, true],
    ['supervised', 'code:create', false, true],
    ['supervised', 'deploy:production', false, true],
    ['supervised', 'vcs:push', false, true],
    ['locked', 'code:read', false, true],
    ['locked', 'memory:read', false, true],
    ['locked', 'not:catalogued', false, true],
  ])('should under %s treat %s as auto-approved=%s, needing a person=%s', (level, action, auto, human) => {
    expect(isAutoApproved(level, action)).toBe(auto);
    expect(requiresHumanApproval(level, action)).toBe(human);
  });

  it('should run the security agent at every level but full', () => {
    expect(Object.values(AUTONOMY_PRESETS).map((p) => [p.level, p.securityAgent])).toEqual([
      ['full', false],
      ['semi', true],
      ['supervised', true],
      ['locked', true],
    ]);
  });

  it('should never list an action as both auto-approved and needing a person', () => {
    for (const preset of Object.values(AUTONOMY_PRESETS)) {
      expect(preset.autoApprove.filter((a) => preset.humanApproval.includes(a))).toEqual([]);
    }
  });

  it.each<[AutonomyLevel, AutonomyLevel]>([
    ['full', 'semi'],
    ['semi', 'supervised'],
    ['supervised', 'locked'],
    ['locked', 'locked'],
  ])('should lower %s by one level to %s', (from, to) => {
    expect(lowerAutonomyOneLevel(from)).toBe(to);
  });

  it.each<[AutonomyLevel, AutonomyLevel, boolean]>([
    ['semi', 'full', true],
    ['locked', 'supervised', true],
    ['semi', 'supervised', false],
    ['semi', 'semi', false],
  ])('should tell that %s → %s raises autonomy: %s', (from, to, raise) => {
    expect(isAutonomyRaise(from, to)).toBe(raise);
  });

  it.each<[AutonomyLevel, AutonomyDowngradeReason, AutonomyLevel]>([
    ['full', 'high_error_rate', 'semi'],
    ['supervised', 'high_error_rate', 'locked'],
    ['full', 'budget_exhausted', 'supervised'],
    ['semi', 'budget_exhausted', 'supervised'],
    ['locked', 'budget_exhausted', 'locked'],
    ['full', 'security_incident', 'locked'],
    ['supervised', 'security_incident', 'locked'],
  ])('should downgrade %s on %s to %s', (from, reason, to) => {
    expect(downgradeTarget(from, reason)).toBe(to);
  });

  it.each<[AutonomyLevel | null, AutonomyLevel | null, AutonomyLevel | null, AutonomyLevel, string]>([
    ['full', 'locked', 'supervised', 'full', 'agent'],
    [null, 'locked', 'supervised', 'locked', 'department'],
    [null, null, 'supervised', 'supervised', 'company'],
    [null, null, null, 'semi', 'default'],
  ])('should resolve agent %s, department %s, company %s to %s from %s', (agent, dept, company, level, source) => {
    expect(resolveAutonomy(agent, dept, company)).toEqual({ level, source });
  });
});

describe('sandbox configuration', () => {
  const config: SandboxConfig = {
    defaultBackend: 'subprocess',
    overrides: { deployment: 'container' },
    subprocess: { timeoutSeconds: 30 },
    container: {
      image: 'node:22-alpine',
      network: 'none',
      allowedHosts: [],
      memoryLimit: '512m',
      cpuLimit: 1,
      timeoutSeconds: 120,
      mountMode: 'ro',
      autoRemove: true,
    },
  };

  it.each<[ToolCategory, string]>([
    ['code_execution', 'subprocess'],
    ['deployment', 'container'],
  ])('should run %s tools on %s', (category, backend) => {
    expect(sandboxBackendFor(config, category)).toBe(backend);
  });

  it('should keep only the allowlisted variables and a home of its own', () => {
    const env = scrubbedEnvironment(
      {
        PATH: '/usr/bin',
        SYNTHORG_JWT_SECRET: 'x',
        DATABASE_URL: 'postgres://u:p@h/db',
        AWS_SECRET_ACCESS_KEY: 'k',
        LANG: 'C',
      },
      '/work/tree',
    );
    expect(env).toEqual({ PATH: '/usr/bin', LANG: 'C', HOME: '/work/tree', CI: '1', NO_COLOR: '1' });
  });
});
