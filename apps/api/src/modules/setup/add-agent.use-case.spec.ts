import { Channel, ConflictError, DEFAULT_PERSONALITY, ErrorCode, NotFoundError } from '@app/domain';
import { EventBus, UnitOfWork } from '@app/platform';
import {
  actorContext,
  agentRow,
  companyRow,
  FAKE_TRANSACTION,
  makeServiceUnderTest,
  recordPublished,
  runInFakeTransaction,
} from '@app/testing';

import { AgentRoster, type NewAgent, PersonalitiesService } from '../agents';
import { CompanyFacade } from '../company';
import { AddAgentUseCase } from './add-agent.use-case';
import type { CreateSetupAgentDto } from './dto/setup.dto';
import { WizardGate } from './wizard-gate';

const ACTOR = actorContext();

/** An open wizard with a company, the model resolved, presets resolved by name and hires echoed. */
function build() {
  const unit = makeServiceUnderTest(AddAgentUseCase);
  const m = {
    sut: unit.sut,
    gate: unit.mock(WizardGate),
    company: unit.mock(CompanyFacade),
    roster: unit.mock(AgentRoster),
    personalities: unit.mock(PersonalitiesService),
    published: recordPublished(unit.mock(EventBus)),
  };
  m.gate.whileOpen.mockImplementation((work) => work());
  m.gate.resolveModel.mockResolvedValue({ provider: 'acme', id: 'acme-medium' });
  runInFakeTransaction(unit.mock(UnitOfWork));
  m.company.find.mockResolvedValue(companyRow());
  m.company.ensureDepartment.mockResolvedValue(false);
  m.personalities.resolve.mockImplementation((name) =>
    Promise.resolve({
      name,
      source: 'builtin',
      personality: { ...DEFAULT_PERSONALITY },
      createdAt: null,
      updatedAt: null,
    }),
  );
  m.roster.hire.mockImplementation((hire: NewAgent) =>
    Promise.resolve(agentRow({ name: hire.name, role: hire.role, department: hire.department })),
  );
  m.roster.announceHired.mockResolvedValue();
  return m;
}

function dto(overrides: Partial<CreateSetupAgentDto> = {}): CreateSetupAgentDto {
  return { name: 'Ada', role: 'Developer', model_provider: 'acme', model_id: 'medium', ...overrides };
}

describe(AddAgentUseCase.name, () => {
  it('should hire the agent with defaults in the transaction and announce it when the request is complete', async () => {
    const { sut, roster, company, published } = build();

    const summary = await sut.execute(ACTOR, dto({ name: ' Ada ' }));

    expect(summary).toMatchObject({ name: 'Ada', role: 'Developer', department: 'engineering' });
    expect(company.ensureDepartment).toHaveBeenCalledWith('engineering', FAKE_TRANSACTION);
    const [hire, by, reason, tx] = roster.hire.mock.calls[0];
    expect(hire).toMatchObject({
      name: 'Ada',
      level: 'mid',
      personalityPreset: 'pragmatic_builder',
      modelProvider: 'acme',
      modelId: 'acme-medium',
      modelTier: 'medium',
      autonomyLevel: null,
    });
    expect([by, reason, tx]).toEqual(['alice', 'manually during setup', FAKE_TRANSACTION]);
    expect(roster.announceHired).toHaveBeenCalledWith([expect.objectContaining({ name: 'Ada' })]);
    expect(published).toEqual([]);
  });

  it('should announce the department when the hire created it', async () => {
    const { sut, company, published } = build();
    company.ensureDepartment.mockResolvedValue(true);

    await sut.execute(ACTOR, dto({ department: 'Research' }));

    expect(published).toEqual([
      expect.objectContaining({
        channel: Channel.Departments,
        event_type: 'department.created',
        payload: { name: 'Research' },
      }),
    ]);
  });

  it('should refuse with a validation error when no company exists yet', async () => {
    const { sut, company, roster } = build();
    company.find.mockResolvedValue(null);

    await expect(sut.execute(ACTOR, dto())).rejects.toMatchObject({ code: ErrorCode.ValidationError });
    expect(roster.hire).not.toHaveBeenCalled();
  });

  it.each([
    ['name', { name: '  ' }],
    ['role', { role: '' }],
    ['department', { department: ' ' }],
  ])('should refuse with 2001 when the %s is blank', async (_, overrides: Partial<CreateSetupAgentDto>) => {
    const { sut, roster } = build();

    await expect(sut.execute(ACTOR, dto(overrides))).rejects.toMatchObject({ code: ErrorCode.RequestValidationError });
    expect(roster.hire).not.toHaveBeenCalled();
  });

  it('should refuse with 2012 when a junior agent would get full autonomy', async () => {
    const { sut, roster } = build();

    await expect(sut.execute(ACTOR, dto({ level: 'junior', autonomy_level: 'full' }))).rejects.toMatchObject({
      code: ErrorCode.SeniorityAutonomyViolation,
    });
    expect(roster.hire).not.toHaveBeenCalled();
  });

  it('should pass on the 3020 of the model lookup when the provider is unknown', async () => {
    const { sut, gate, roster } = build();
    gate.resolveModel.mockRejectedValue(new NotFoundError('no provider', ErrorCode.ProviderNotFound));

    await expect(sut.execute(ACTOR, dto({ model_provider: 'ghost' }))).rejects.toMatchObject({
      code: ErrorCode.ProviderNotFound,
    });
    expect(roster.hire).not.toHaveBeenCalled();
  });

  it('should announce nothing when the roster refuses a taken name with 4001', async () => {
    const { sut, roster, published } = build();
    roster.hire.mockRejectedValue(new ConflictError('taken', ErrorCode.DuplicateRecord));

    await expect(sut.execute(ACTOR, dto())).rejects.toMatchObject({ code: ErrorCode.DuplicateRecord });
    expect(roster.announceHired).not.toHaveBeenCalled();
    expect(published).toEqual([]);
  });
});
