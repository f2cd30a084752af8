import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { type AppError, ErrorCode, NotFoundError, STANDARD_DEPARTMENTS, ValidationError } from '@app/domain';

import { TemplateCatalog } from './template-catalog';

const BUILTIN_DIR = resolve(__dirname, '../../../../../../config/templates');

const EXPECTED_COUNTS: Record<string, number> = {
  agency: 12,
  dev_shop: 8,
  full_company: 28,
  product_team: 10,
  research_lab: 7,
  solo_founder: 2,
  startup: 5,
};

const PRESETS = new Set([
  'visionary_leader',
  'pragmatic_builder',
  'eager_learner',
  'methodical_analyst',
  'creative_innovator',
  'disciplined_executor',
  'team_diplomat',
  'independent_researcher',
  'quality_guardian',
  'empathetic_mentor',
  'strategic_planner',
  'rapid_prototyper',
  'security_sentinel',
  'communication_bridge',
  'data_driven_optimizer',
  'user_advocate',
  'process_optimizer',
  'growth_hacker',
  'technical_communicator',
  'systems_thinker',
]);

const MINIMAL_TEMPLATE = `name: tiny
display_name: Tiny
description: A minimal template used by the tests.
version: '1.0.0'
min_agents: 1
max_agents: 3
variables:
  - name: budget
    description: Monthly budget.
    var_type: float
    default: 10
  - name: helpers
    description: How many helpers.
    var_type: int
    default: 1
company:
  type: tiny
  budget_monthly: 10
departments:
  - name: engineering
    budget_percent: 100
agents:
  - role: Lead
    name: Ada
    level: lead
    model: large
    personality_preset: systems_thinker
    department: engineering
  - role: Helper
    count: '{{helpers}}'
    level: junior
    model: small
    personality_preset: eager_learner
    department: engineering
`;

function expectAppError(fn: () => unknown, type: typeof ValidationError | typeof NotFoundError, pattern: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(type);
  expect((caught as AppError).message).toMatch(pattern);
}

describe('TemplateCatalog (built-in templates)', () => {
  const catalog = TemplateCatalog.load(BUILTIN_DIR);

  it('resolves the built-in directory from the working directory', () => {
    expect(TemplateCatalog.builtinDir()).toBe(resolve(process.cwd(), 'config', 'templates'));
    expect(TemplateCatalog.builtinDir()).toBe(BUILTIN_DIR);
  });

  it('lists exactly the seven built-in templates, sorted by name', () => {
    const names = catalog.list().map((summary) => summary.name);
    expect(names).toEqual(Object.keys(EXPECTED_COUNTS).sort());
    for (const summary of catalog.list()) {
      expect(summary.source).toBe('builtin');
      expect(summary.autonomyLevel).toBe('semi');
      expect(summary.agentCount).toBe(EXPECTED_COUNTS[summary.name]);
      expect(summary.displayName.length).toBeGreaterThan(0);
      expect(summary.skillPatterns.length).toBeGreaterThan(0);
      const company = summary.variables.find((variable) => variable.name === 'company_name');
      expect(company).toMatchObject({ varType: 'str', required: true });
      const budget = summary.variables.find((variable) => variable.name === 'budget');
      expect(budget?.varType).toBe('float');
    }
  });

  it.each(Object.entries(EXPECTED_COUNTS))('renders %s with its defaults (%d agents)', (name, count) => {
    const plan = catalog.render(name);
    expect(plan.templateName).toBe(name);
    expect(plan.agents).toHaveLength(count);
    expect(plan.autonomyLevel).toBe('semi');
    expect(plan.communicationPattern).toBe('hybrid');
    expect(plan.budgetMonthly).toBe(catalog.summary(name).variables.find((v) => v.name === 'budget')?.default);
    const total = plan.departments.reduce((sum, department) => sum + department.budgetPercent, 0);
    expect(total).toBeLessThanOrEqual(100);
    const departments = new Set(plan.departments.map((department) => department.name));
    for (const agent of plan.agents) {
      expect(departments.has(agent.department)).toBe(true);
      expect(PRESETS.has(agent.personalityPreset)).toBe(true);
    }
    for (const department of plan.departments) {
      expect(STANDARD_DEPARTMENTS as readonly string[]).toContain(department.name);
    }
  });

  it('renders the expected settings for each template', () => {
    const settings = Object.keys(EXPECTED_COUNTS).map((name) => {
      const plan = catalog.render(name, { company_name: 'Acme' });
      return [name, plan.budgetMonthly, plan.workflow, plan.ceremonyStrategy, plan.departments.length];
    });
    expect(settings).toEqual([
      ['agency', 100, 'kanban', 'event_driven', 5],
      ['dev_shop', 75, 'agile_kanban', 'hybrid', 3],
      ['full_company', 200, 'agile_kanban', 'hybrid', 9],
      ['product_team', 80, 'agile_kanban', 'hybrid', 5],
      ['research_lab', 60, 'kanban', 'throughput_adaptive', 3],
      ['solo_founder', 25, 'kanban', 'task_driven', 2],
      ['startup', 50, 'agile_kanban', 'task_driven', 3],
    ]);
  });

  it('expands full_company developer counts, with the first of each group senior', () => {
    const base = catalog.render('full_company');
    const plan = catalog.render('full_company', { num_backend_devs: 5 });
    expect(plan.agents).toHaveLength(base.agents.length + 2);
    const backend = plan.agents.filter((agent) => agent.role === 'Backend Developer');
    expect(backend.map((agent) => agent.level)).toEqual(['senior', 'mid', 'mid', 'mid', 'mid']);
    const frontend = plan.agents.filter((agent) => agent.role === 'Frontend Developer');
    expect(frontend.map((agent) => agent.level)).toEqual(['senior', 'mid']);
    expect(catalog.render('full_company', { num_frontend_devs: 0 }).agents).toHaveLength(base.agents.length - 2);
  });

  it('lets the budget variable override the monthly budget', () => {
    expect(catalog.render('startup', { company_name: 'Acme', budget: 120.5 }).budgetMonthly).toBe(120.5);
  });

  it('keeps department heads and leaves agent names to the hiring step', () => {
    const plan = catalog.render('startup');
    expect(plan.departments).toEqual([
      { name: 'executive', budgetPercent: 20, headRole: 'CEO' },
      { name: 'engineering', budgetPercent: 60, headRole: 'CTO' },
      { name: 'product', budgetPercent: 20, headRole: null },
    ]);
    expect(plan.agents.every((agent) => agent.name === null)).toBe(true);
  });

  it('rejects a variable of the wrong type, naming it', () => {
    expectAppError(
      () => catalog.render('full_company', { num_backend_devs: 'five' }),
      ValidationError,
      /num_backend_devs/,
    );
    expectAppError(() => catalog.render('full_company', { num_backend_devs: 2.5 }), ValidationError, /int/);
    expectAppError(() => catalog.render('startup', { budget: '50' }), ValidationError, /budget/);
    expectAppError(() => catalog.render('startup', { company_name: 42 }), ValidationError, /company_name/);
  });

  it('uses the request-validation error code', () => {
    try {
      catalog.render('startup', { budget: true });
      throw new Error('expected a ValidationError');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as AppError).code).toBe(ErrorCode.RequestValidationError);
    }
  });

  it('rejects unknown variables and out-of-range counts', () => {
    expectAppError(() => catalog.render('startup', { team_size: 3 }), ValidationError, /team_size/);
    expectAppError(() => catalog.render('full_company', { num_backend_devs: 51 }), ValidationError, /num_backend_devs/);
    expectAppError(() => catalog.render('full_company', { num_backend_devs: -1 }), ValidationError, /num_backend_devs/);
    // 26 fixed agents + 30 + 2 exceeds the template's maximum of 50.
    expectAppError(() => catalog.render('full_company', { num_backend_devs: 30 }), ValidationError, /1 to 50/);
  });

  it('reports unknown templates as not found', () => {
    expect(catalog.has('startup')).toBe(true);
    expect(catalog.has('nope')).toBe(false);
    expectAppError(() => catalog.render('nope'), NotFoundError, /nope/);
    expectAppError(() => catalog.summary('nope'), NotFoundError, /nope/);
  });

  it('returns copies that callers cannot use to change the catalog', () => {
    catalog.summary('startup').tags.push('changed');
    catalog.render('startup').agents.pop();
    expect(catalog.summary('startup').tags).not.toContain('changed');
    expect(catalog.render('startup').agents).toHaveLength(5);
  });
});

describe('TemplateCatalog.blankPlan', () => {
  it('is an empty custom plan', () => {
    expect(TemplateCatalog.blankPlan()).toEqual({
      templateName: null,
      companyType: 'custom',
      budgetMonthly: 100,
      autonomyLevel: 'semi',
      workflow: 'kanban',
      communicationPattern: 'hybrid',
      ceremonyStrategy: null,
      departments: [],
      agents: [],
    });
  });
});

describe('TemplateCatalog.load (invalid files)', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'templates-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (fileName: string, text: string) => writeFileSync(join(dir, fileName), text, 'utf8');

  it('loads a valid minimal template with schema defaults applied', () => {
    write('tiny.yaml', MINIMAL_TEMPLATE);
    write('notes.txt', 'not a template');
    const catalog = TemplateCatalog.load(dir, 'user');
    expect(catalog.list().map((summary) => [summary.name, summary.source, summary.agentCount])).toEqual([
      ['tiny', 'user', 2],
    ]);
    const plan = catalog.render('tiny', { helpers: 2 });
    expect(plan.workflow).toBe('kanban');
    expect(plan.communicationPattern).toBe('hybrid');
    expect(plan.ceremonyStrategy).toBeNull();
    expect(plan.agents.map((agent) => agent.name)).toEqual(['Ada', null, null]);
    expectAppError(() => catalog.render('tiny', { helpers: 3 }), ValidationError, /1 to 3/);
  });

  it('throws naming the file for invalid YAML', () => {
    write('broken.yaml', 'name: broken\nagents: [unterminated\n');
    expect(() => TemplateCatalog.load(dir)).toThrow(/broken\.yaml/);
  });

  it('throws naming the file and path for a schema violation', () => {
    write('tiny.yaml', MINIMAL_TEMPLATE.replace('level: junior', 'level: intern'));
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*agents\[1\]\.level/);
  });

  it('rejects unknown keys', () => {
    write('tiny.yaml', MINIMAL_TEMPLATE.replace('min_agents: 1', 'min_agents: 1\nsurprise: true'));
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*surprise/);
  });

  it('rejects an agent in an undeclared department', () => {
    write(
      'tiny.yaml',
      MINIMAL_TEMPLATE.replace('department: engineering\n  - role: Helper', 'department: legal\n  - role: Helper'),
    );
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*agents\[0\]\.department.*legal/);
  });

  it('rejects a name that differs from the file stem', () => {
    write('other.yaml', MINIMAL_TEMPLATE);
    expect(() => TemplateCatalog.load(dir)).toThrow(/other\.yaml.*name/);
  });

  it('rejects department shares above 100 percent', () => {
    write(
      'tiny.yaml',
      MINIMAL_TEMPLATE.replace('budget_percent: 100', 'budget_percent: 60\n  - name: design\n    budget_percent: 50'),
    );
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*departments.*more than 100/);
  });

  it('rejects counts that reference a missing or non-int variable', () => {
    write('tiny.yaml', MINIMAL_TEMPLATE.replace("'{{helpers}}'", "'{{budget}}'"));
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*agents\[1\]\.count.*budget/);
    write('tiny.yaml', MINIMAL_TEMPLATE.replace("'{{helpers}}'", "'{{ghosts}}'"));
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*agents\[1\]\.count.*ghosts/);
  });

  it('rejects defaults that hire more agents than the template allows', () => {
    write('tiny.yaml', MINIMAL_TEMPLATE.replace('default: 1\n', 'default: 5\n'));
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*1 to 3/);
  });

  it('rejects a head role that no agent has', () => {
    write('tiny.yaml', MINIMAL_TEMPLATE.replace('budget_percent: 100', 'budget_percent: 100\n    head_role: Boss'));
    expect(() => TemplateCatalog.load(dir)).toThrow(/tiny\.yaml.*departments\[0\]\.head_role/);
  });

  it('throws for a missing directory', () => {
    expect(() => TemplateCatalog.load(join(dir, 'missing'))).toThrow(/not found/);
  });

  it('stops at the first broken file even when others are valid', () => {
    write('tiny.yaml', MINIMAL_TEMPLATE);
    write('zzz.yaml', readFileSync(join(BUILTIN_DIR, 'startup.yaml'), 'utf8'));
    expect(() => TemplateCatalog.load(dir)).toThrow(/zzz\.yaml.*name/);
  });
});
