import { Channel, type CompanyPlan, ConflictError, DEFAULT_PERSONALITY, ErrorCode } from '@app/domain';
import type { AgentEntity } from '@app/persistence';
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
import { ModelCatalog } from '../providers';
import type { CreateCompanyDto } from './dto/setup.dto';
import { CreateCompanyUseCase } from './create-company.use-case';
import { NameGenerator } from './names/name-generator';
import { SetupService } from './setup.service';
import { TemplateCatalog } from './templates/template-catalog';
import { WizardGate } from './wizard-gate';

const ACTOR = actorContext();
const CHEAP = { provider: 'acme', id: 'acme-small', alias: null, costPer1kInput: 0.1, costPer1kOutput: 0.1 };
const DEAR = { provider: 'acme', id: 'acme-large', alias: null, costPer1kInput: 5, costPer1kOutput: 5 };

/** A two-department plan: a named lead and one agent the name generator must name. */
const PLAN: CompanyPlan = {
  ...TemplateCatalog.blankPlan(),
  templateName: 'startup',
  companyType: 'startup',
  departments: [
    { name: 'Engineering', budgetPercent: 60, headRole: 'CTO' },
    { name: 'Product', budgetPercent: 40, headRole: null },
  ],
  agents: [
    {
      name: 'Grace',
      role: 'CTO',
      department: 'engineering',
      level: 'lead',
      modelTier: 'large',
      personalityPreset: 'pragmatic',
    },
    {
      name: null,
      role: 'Developer',
      department: 'engineering',
      level: 'mid',
      modelTier: 'small',
      personalityPreset: 'eager',
    },
  ],
};

function build() {
  const unit = makeServiceUnderTest(CreateCompanyUseCase);
  const m = {
    sut: unit.sut,
    gate: unit.mock(WizardGate),
    setup: unit.mock(SetupService),
    company: unit.mock(CompanyFacade),
    roster: unit.mock(AgentRoster),
    personalities: unit.mock(PersonalitiesService),
    catalog: unit.mock(ModelCatalog),
    templates: unit.mock(TemplateCatalog),
    names: unit.mock(NameGenerator),
    unitOfWork: unit.mock(UnitOfWork),
    published: recordPublished(unit.mock(EventBus)),
  };
  m.gate.whileOpen.mockImplementation((work) => work());
  runInFakeTransaction(m.unitOfWork);
  m.company.find.mockResolvedValue(null);
  m.company.save.mockResolvedValue();
  m.catalog.models.mockResolvedValue([DEAR, CHEAP]);
  m.setup.nameLocales.mockResolvedValue(['en_US']);
  m.personalities.resolve.mockImplementation((name) =>
    Promise.resolve({
      name,
      source: 'builtin',
      personality: { ...DEFAULT_PERSONALITY },
      createdAt: null,
      updatedAt: null,
    }),
  );
  m.roster.prepareHires.mockImplementation((hires: readonly NewAgent[]) => ({
    agents: hires.map((h, position) => agentRow({ name: h.name, department: h.department, position })),
    events: [],
  }));
  m.roster.announceHired.mockResolvedValue();
  return m;
}

/** As build(), with the startup template known and rendering PLAN, the new agent named Linus. */
function buildWithTemplate() {
  const m = build();
  m.templates.has.mockImplementation((name) => name === 'startup');
  m.templates.render.mockReturnValue(PLAN);
  m.names.randomName.mockReturnValue('Linus');
  m.roster.replaceAll.mockResolvedValue();
  m.company.replaceDepartments.mockResolvedValue();
  return m;
}

function dto(overrides: Partial<CreateCompanyDto> = {}): CreateCompanyDto {
  return { company_name: 'Acme Labs', ...overrides };
}

describe(CreateCompanyUseCase.name, () => {
  it('should refuse with 2001 before taking the wizard lock when the company name is blank', async () => {
    const { sut, gate } = build();

    await expect(sut.execute(ACTOR, dto({ company_name: '   ' }))).rejects.toMatchObject({
      code: ErrorCode.RequestValidationError,
    });
    expect(gate.whileOpen).not.toHaveBeenCalled();
  });

  it('should refuse with 3021 when the template is unknown', async () => {
    const { sut, templates } = build();
    templates.has.mockReturnValue(false);

    await expect(sut.execute(ACTOR, dto({ template_name: 'castle' }))).rejects.toMatchObject({
      code: ErrorCode.TemplateNotFound,
    });
  });

  it('should refuse with 2001 when variables come without a template', async () => {
    const { sut } = build();

    await expect(sut.execute(ACTOR, dto({ variables: { team_size: 3 } }))).rejects.toMatchObject({
      code: ErrorCode.RequestValidationError,
    });
  });

  it('should refuse with a conflict and write nothing when a blank company would replace a roster', async () => {
    const { sut, roster, unitOfWork } = build();
    roster.count.mockResolvedValue(2);

    const error = await sut.execute(ACTOR, dto()).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: ErrorCode.ResourceConflict });
    expect(unitOfWork.run).not.toHaveBeenCalled();
  });

  it('should pass on the 4010 of the wizard gate when setup is complete', async () => {
    const { sut, gate, company } = build();
    gate.whileOpen.mockRejectedValue(new ConflictError('complete', ErrorCode.SetupAlreadyComplete));

    await expect(sut.execute(ACTOR, dto())).rejects.toMatchObject({ code: ErrorCode.SetupAlreadyComplete });
    expect(company.save).not.toHaveBeenCalled();
  });

  it('should write company, roster and departments in one transaction when a template is applied', async () => {
    const { sut, company, roster, templates } = buildWithTemplate();

    const result = await sut.execute(ACTOR, dto({ template_name: ' StartUp ', variables: { team_size: 2 } }));

    expect(templates.render).toHaveBeenCalledWith('startup', { team_size: 2 });
    expect(company.save).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'Acme Labs', type: 'startup', templateName: 'startup', version: 1 }),
      FAKE_TRANSACTION,
    );
    expect(roster.replaceAll).toHaveBeenCalledWith(roster.prepareHires.mock.results[0].value, FAKE_TRANSACTION);
    expect(company.replaceDepartments).toHaveBeenCalledWith(
      [
        { name: 'Engineering', head: 'CTO', budgetPercent: 60 },
        { name: 'Product', head: null, budgetPercent: 40 },
      ],
      FAKE_TRANSACTION,
    );
    expect(result).toMatchObject({
      company_name: 'Acme Labs',
      template_applied: 'startup',
      department_count: 2,
      agent_count: 2,
      agents: [{ name: 'Grace' }, { name: 'Linus' }],
    });
  });

  it('should name unnamed agents from the chosen locales and match models to tiers when planning hires', async () => {
    const { sut, roster, names, personalities } = buildWithTemplate();

    await sut.execute(ACTOR, dto({ template_name: 'startup' }));

    expect(names.randomName).toHaveBeenCalledWith(['en_US'], { exclude: expect.any(Set) });
    expect(personalities.resolve).toHaveBeenCalledWith('eager');
    const [hires, firstPosition, by, reason] = roster.prepareHires.mock.calls[0];
    expect([firstPosition, by, reason]).toEqual([0, 'alice', 'from template startup']);
    expect(hires.map((h) => [h.name, h.modelId, h.personalityPreset])).toEqual([
      ['Grace', 'acme-large', 'pragmatic'],
      ['Linus', 'acme-small', 'eager'],
    ]);
  });

  it('should announce the company, each department and the hires when a template is applied', async () => {
    const { sut, roster, published } = buildWithTemplate();

    await sut.execute(ACTOR, dto({ template_name: 'startup' }));

    expect(published).toEqual([
      expect.objectContaining({
        channel: Channel.Company,
        event_type: 'company.created',
        payload: { name: 'Acme Labs', template_name: 'startup' },
      }),
      expect.objectContaining({ channel: Channel.Departments, payload: { name: 'Engineering' } }),
      expect.objectContaining({ channel: Channel.Departments, payload: { name: 'Product' } }),
    ]);
    expect(roster.announceHired).toHaveBeenCalledWith(roster.prepareHires.mock.results[0].value.agents);
  });

  it('should keep currency and creation time and bump the version when the company already exists', async () => {
    const { sut, company, published } = buildWithTemplate();
    const existing = companyRow({ currency: 'USD', version: 3, createdAt: new Date('2025-06-01T00:00:00Z') });
    company.find.mockResolvedValue(existing);

    await sut.execute(ACTOR, dto({ template_name: 'startup' }));

    expect(company.save).toHaveBeenCalledWith(
      expect.objectContaining({ currency: 'USD', version: 4, createdAt: existing.createdAt }),
      FAKE_TRANSACTION,
    );
    expect(published[0]).toMatchObject({ event_type: 'company.updated' });
  });

  it('should keep roster and departments and report them when the company is created blank', async () => {
    const { sut, company, roster, published } = build();
    const kept: AgentEntity[] = [];
    roster.count.mockResolvedValue(0);
    roster.all.mockResolvedValue(kept);
    company.departmentCount.mockResolvedValue(4);

    const result = await sut.execute(ACTOR, dto({ description: 'Rockets' }));

    expect(roster.replaceAll).not.toHaveBeenCalled();
    expect(company.replaceDepartments).not.toHaveBeenCalled();
    expect(company.save).toHaveBeenCalledWith(expect.objectContaining({ templateName: null }), FAKE_TRANSACTION);
    expect(result).toEqual({
      company_name: 'Acme Labs',
      description: 'Rockets',
      template_applied: null,
      department_count: 4,
      agent_count: 0,
      agents: [],
    });
    expect(published.map((e) => e.event_type)).toEqual(['company.created']);
  });
});
