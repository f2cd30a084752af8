import { ErrorCode, NotFoundError } from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import { agentRow, departmentRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster, PersonalitiesService } from '../agents';
import { CompanyFacade } from '../company';
import { ModelCatalog } from '../providers';
import { AgentEditPlanner } from './agent-edit-planner';
import type { UpdateAgentDto } from './dto/agent-edit.dto';

const DEFAULTS = {
  model: { temperature: 0.7, max_tokens: 4096, fallback_model: null },
  memory: { type: 'session', retention_days: null },
  tools: { access_level: 'standard', allowed: [], denied: [] },
  authority: { can_approve: [], reports_to: null, can_delegate_to: [], budget_limit: 0 },
  skills: { primary: [], secondary: [] },
};
const MODELS = [
  { provider: 'mock', id: 'mock-small', alias: 'small', costPer1kInput: 1, costPer1kOutput: 2 },
  { provider: 'mock', id: 'mock-medium', alias: 'medium', costPer1kInput: 2, costPer1kOutput: 4 },
  { provider: 'other', id: 'other-large', alias: null, costPer1kInput: 5, costPer1kOutput: 9 },
];

type Settings = typeof DEFAULTS;

/** The agent's settings with complete groups, as the roster answers them. */
function settingsOf(agent: AgentEntity): Settings {
  const stored = agent.settings as Partial<Settings>;
  return {
    model: { ...DEFAULTS.model, ...stored.model },
    memory: { ...DEFAULTS.memory, ...stored.memory },
    tools: { ...DEFAULTS.tools, ...stored.tools },
    authority: { ...DEFAULTS.authority, ...stored.authority },
    skills: { ...DEFAULTS.skills, ...stored.skills },
  };
}

/** The parts of the API's view of an agent that an edit compares. */
function view(agent: AgentEntity): Record<string, unknown> {
  const settings = settingsOf(agent);
  return {
    name: agent.name,
    department: agent.department,
    status: agent.status,
    personality_preset: agent.personalityPreset,
    personality: agent.personality,
    model: { provider: agent.modelProvider, model_id: agent.modelId, ...settings.model },
    memory: settings.memory,
    tools: settings.tools,
    authority: settings.authority,
    budget_limit_monthly: agent.budgetLimitMonthly,
  };
}

function build() {
  const unit = makeServiceUnderTest(AgentEditPlanner);
  const m = {
    sut: unit.sut,
    roster: unit.mock(AgentRoster),
    personalities: unit.mock(PersonalitiesService),
    catalog: unit.mock(ModelCatalog),
    company: unit.mock(CompanyFacade),
  };
  m.roster.render.mockImplementation((agent) => view(agent) as never);
  m.roster.settingsOf.mockImplementation((agent) => settingsOf(agent));
  m.catalog.provider.mockImplementation((name) =>
    Promise.resolve(
      MODELS.some((x) => x.provider === name) ? { name, models: MODELS.filter((x) => x.provider === name) } : null,
    ),
  );
  m.catalog.models.mockResolvedValue(MODELS);
  m.company.findDepartment.mockImplementation((name) =>
    Promise.resolve(
      ['engineering', 'product'].includes(name.toLowerCase()) ? departmentRow({ name: name.toLowerCase() }) : null,
    ),
  );
  return m;
}

const agent = agentRow({
  name: 'Ada',
  modelProvider: 'mock',
  modelId: 'mock-small',
  personalityPreset: 'pragmatic_builder',
  personality: { verbosity: 'balanced' },
  settings: { tools: { access_level: 'elevated' }, skills: { primary: ['go'] } },
});

describe(AgentEditPlanner.name, () => {
  it('should resolve a model alias to its id and keep the untouched settings groups as they are', async () => {
    const m = build();
    const plan = await m.sut.plan(agent, { model: { model_id: 'medium', temperature: 0.1 } });

    expect(plan.changes).toEqual({
      modelProvider: 'mock',
      modelId: 'mock-medium',
      settings: {
        tools: { access_level: 'elevated' },
        skills: { primary: ['go'] },
        model: { temperature: 0.1, max_tokens: 4096, fallback_model: null },
      },
    });
    expect(plan.fieldChanges.map((c) => c.field)).toEqual(['model']);
  });

  it('should merge a group patch over the group in force, defaults included', async () => {
    const m = build();
    const plan = await m.sut.plan(agent, { tools: { denied: ['run_command'] } });

    expect((plan.changes.settings as Settings).tools).toEqual({
      access_level: 'elevated',
      allowed: [],
      denied: ['run_command'],
    });
  });

  it('should take a preset, and drop it when personality fields are given', async () => {
    const m = build();
    m.personalities.resolve.mockResolvedValue({
      name: 'visionary_leader',
      source: 'builtin',
      personality: { verbosity: 'verbose', openness: 0.9 } as never,
      createdAt: null,
      updatedAt: null,
    });
    const preset = await m.sut.plan(agent, { personality_preset: 'Visionary_Leader' });
    const fields = await m.sut.plan(agent, { personality: { openness: 0.2 } });

    expect(preset.changes.personalityPreset).toBe('visionary_leader');
    expect(preset.changes.personality).toMatchObject({ verbosity: 'verbose', openness: 0.9 });
    expect(fields.changes.personalityPreset).toBeNull();
    expect(fields.changes.personality).toMatchObject({ verbosity: 'balanced', openness: 0.2 });
  });

  it('should plan nothing when every given value is the current one', async () => {
    const m = build();
    const plan = await m.sut.plan(agent, {
      name: ' Ada ',
      department: 'Engineering',
      status: 'active',
      model: { provider: 'mock', model_id: 'small' },
    });

    expect(plan).toMatchObject({ changes: {}, fieldChanges: [] });
  });

  it.each([
    ['an unknown provider', { model: { provider: 'nowhere' } }, ErrorCode.AgentProviderUnknown],
    ['a model of another provider', { model: { model_id: 'other-large' } }, ErrorCode.AgentModelUnknown],
    ['an unknown fallback model', { model: { fallback_model: 'gpt-x' } }, ErrorCode.AgentModelUnknown],
    ['an unknown department', { department: 'marketing' }, ErrorCode.AgentDepartmentUnknown],
    ['a blank name', { name: '  ' }, ErrorCode.RequestValidationError],
    ['a personality field out of range', { personality: { openness: 3 } }, ErrorCode.RequestValidationError],
  ])('should refuse %s with its code', async (_what, dto, code) => {
    const m = build();
    await expect(m.sut.plan(agent, dto as UpdateAgentDto)).rejects.toMatchObject({ code, httpStatus: 400 });
  });

  it('should ask for a provider when the agent has none yet', async () => {
    const m = build();
    const bare = { ...agent, modelProvider: null, modelId: null };
    await expect(m.sut.plan(bare, { model: { model_id: 'small' } })).rejects.toMatchObject({
      code: ErrorCode.AgentProviderUnknown,
    });
  });

  it('should turn an unknown preset into a 400 of its own', async () => {
    const m = build();
    m.personalities.resolve.mockRejectedValue(new NotFoundError('none', ErrorCode.PersonalityPresetNotFound));
    await expect(m.sut.plan(agent, { personality_preset: 'grumpy' })).rejects.toMatchObject({
      code: ErrorCode.AgentPersonalityPresetUnknown,
      httpStatus: 400,
    });
  });

  it('should refuse a status an onboarding agent cannot take through an edit', async () => {
    const m = build();
    await expect(m.sut.plan({ ...agent, status: 'onboarding' }, { status: 'on_leave' })).rejects.toMatchObject({
      code: ErrorCode.AgentStatusChangeInvalid,
      httpStatus: 409,
    });
  });
});
