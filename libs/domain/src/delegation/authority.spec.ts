import { ErrorCode } from '../errors';
import {
  chainOfCommand,
  checkDelegationAuthority,
  DEFAULT_HIERARCHY_POLICY,
  type HierarchyPolicy,
  type OrgAgent,
  type OrgDepartment,
  supervisorsOf,
} from './authority';

const agent = (name: string, role: string, department: string, extra: Partial<OrgAgent> = {}): OrgAgent => ({
  id: `id-${name.toLowerCase()}`,
  name,
  role,
  department,
  reportsTo: null,
  canDelegateTo: [],
  ...extra,
});

const dept = (nameKey: string, head: string | null, extra: Partial<OrgDepartment> = {}): OrgDepartment => ({
  nameKey,
  head,
  teams: [],
  reportingLines: [],
  ...extra,
});

// The startup template's shape, plus a team and an explicit reporting line in engineering.
const AGENTS = [
  agent('Ceo', 'CEO', 'executive'),
  agent('Cto', 'CTO', 'engineering'),
  agent('Lead', 'Tech Lead', 'engineering'),
  agent('Dev', 'Full-Stack Developer', 'engineering'),
  agent('Junior', 'Full-Stack Developer', 'engineering'),
  agent('Pm', 'Product Manager', 'product'),
  agent('Designer', 'Designer', 'product', { reportsTo: 'Product Manager' }),
];
const DEPARTMENTS = [
  dept('executive', 'CEO'),
  dept('engineering', 'CTO', {
    teams: [{ lead: 'Lead', members: ['Dev'] }],
    reportingLines: [{ subordinate: 'Junior', supervisor: 'Dev' }],
  }),
  dept('product', null),
];
const SUPERVISORS = supervisorsOf(AGENTS, DEPARTMENTS);
const byName = (name: string) => AGENTS.find((a) => a.name === name) as OrgAgent;

describe('supervisorsOf', () => {
  it.each<[string, string | undefined, string]>([
    ['Ceo', undefined, 'the executive head reports to nobody'],
    ['Cto', 'Ceo', 'a department head reports to the executive head'],
    ['Lead', 'Cto', 'a member outside any team reports to the department head'],
    ['Dev', 'Lead', 'a team member reports to the team lead'],
    ['Junior', 'Dev', 'an explicit reporting line wins over the head'],
    ['Pm', 'Ceo', 'a member of a department without a head reports to the executive head'],
    ['Designer', 'Pm', 'reports_to names a role'],
  ])('should make %s report to %s: %s', (name, supervisor, _why) => {
    expect(SUPERVISORS.get(byName(name).id)).toBe(supervisor ? byName(supervisor).id : undefined);
  });

  it('should resolve a role to an agent of the same department first, and never to the agent itself', () => {
    const agents = [
      agent('OtherQa', 'QA Lead', 'quality'),
      agent('Qa', 'QA Lead', 'engineering'),
      agent('Self', 'Solo', 'ops', { reportsTo: 'Self' }),
      agent('Tester', 'Tester', 'engineering', { reportsTo: 'QA Lead' }),
    ];
    const supervisors = supervisorsOf(agents, []);
    expect(supervisors.get('id-tester')).toBe('id-qa');
    expect(supervisors.has('id-self')).toBe(false);
  });

  it('should stop walking a chain of command at a cycle', () => {
    const agents = [agent('A', 'a', 'x', { reportsTo: 'B' }), agent('B', 'b', 'x', { reportsTo: 'A' })];
    expect(chainOfCommand('id-a', supervisorsOf(agents, []))).toEqual(['id-b']);
    expect(chainOfCommand('id-junior', SUPERVISORS)).toEqual(['id-dev', 'id-lead', 'id-cto', 'id-ceo']);
  });
});

describe('checkDelegationAuthority', () => {
  const SKIP: HierarchyPolicy = { enforceChainOfCommand: true, allowSkipLevel: true };
  const OPEN: HierarchyPolicy = { enforceChainOfCommand: false, allowSkipLevel: false };
  it.each<[string, string, HierarchyPolicy, string | null, Partial<OrgAgent>]>([
    ['Cto', 'Lead', DEFAULT_HIERARCHY_POLICY, 'direct', {}],
    ['Lead', 'Dev', DEFAULT_HIERARCHY_POLICY, 'direct', {}],
    ['Ceo', 'Pm', DEFAULT_HIERARCHY_POLICY, 'direct', {}],
    ['Cto', 'Dev', DEFAULT_HIERARCHY_POLICY, null, {}],
    ['Cto', 'Dev', SKIP, 'skip_level', {}],
    ['Ceo', 'Junior', SKIP, 'skip_level', {}],
    ['Dev', 'Lead', DEFAULT_HIERARCHY_POLICY, null, {}],
    ['Dev', 'Lead', SKIP, null, {}],
    ['Pm', 'Dev', SKIP, null, {}],
    ['Dev', 'Lead', OPEN, 'unenforced', {}],
    ['Dev', 'Dev', OPEN, null, {}],
    ['Cto', 'Lead', DEFAULT_HIERARCHY_POLICY, 'direct', { canDelegateTo: ['tech lead'] }],
    ['Cto', 'Lead', DEFAULT_HIERARCHY_POLICY, 'direct', { canDelegateTo: ['Lead'] }],
    ['Cto', 'Lead', DEFAULT_HIERARCHY_POLICY, null, { canDelegateTo: ['Designer'] }],
    ['Dev', 'Pm', OPEN, null, { canDelegateTo: ['Full-Stack Developer'] }],
  ])('should let %s delegate to %s (%o): %s', (from, to, policy, relation, overrides) => {
    const delegator = { ...byName(from), ...overrides };
    const verdict = checkDelegationAuthority(delegator, byName(to), SUPERVISORS, policy);
    expect(verdict).toEqual(
      relation === null
        ? { allowed: false, code: ErrorCode.DelegationNotAuthorized, message: expect.any(String) }
        : { allowed: true, relation },
    );
  });

  it('should explain each refusal', () => {
    const says = (from: string, to: string, policy = DEFAULT_HIERARCHY_POLICY, extra: Partial<OrgAgent> = {}) => {
      const verdict = checkDelegationAuthority({ ...byName(from), ...extra }, byName(to), SUPERVISORS, policy);
      return verdict.allowed ? '' : verdict.message;
    };
    expect(says('Dev', 'Dev')).toBe('Dev cannot delegate to itself');
    expect(says('Dev', 'Lead')).toBe('Lead is not a subordinate of Dev');
    expect(says('Cto', 'Dev')).toContain('skip-level delegation is off');
    expect(says('Cto', 'Lead', DEFAULT_HIERARCHY_POLICY, { canDelegateTo: ['Designer'] })).toBe(
      'Cto may delegate only to Designer; Lead is a Tech Lead',
    );
  });
});
