import { ConflictError, DEFAULT_PERSONALITY, ErrorCode, HumanRole, PASSWORD_MIN_LENGTH } from '@app/domain';
import { SettingsStore, UnreadableSettingError } from '@app/platform';
import { actorContext, agentRow, companyRow, makeServiceUnderTest } from '@app/testing';

import { AgentRoster, PersonalitiesService } from '../agents';
import { CompanyFacade } from '../company';
import { ModelCatalog } from '../providers';
import { UserDirectory } from '../users';
import { NameGenerator } from './names/name-generator';
import { NAME_LOCALES } from './setup.settings';
import { SetupService } from './setup.service';
import { WizardGate } from './wizard-gate';

const ROSTER = [agentRow({ name: 'Ada' }), agentRow({ name: 'Grace', position: 1 })];

/** An open wizard over a two-agent roster whose edits are echoed back. */
function build() {
  const unit = makeServiceUnderTest(SetupService);
  const m = {
    sut: unit.sut,
    gate: unit.mock(WizardGate),
    settings: unit.mock(SettingsStore),
    users: unit.mock(UserDirectory),
    company: unit.mock(CompanyFacade),
    roster: unit.mock(AgentRoster),
    personalities: unit.mock(PersonalitiesService),
    catalog: unit.mock(ModelCatalog),
    names: unit.mock(NameGenerator),
  };
  m.gate.whileOpen.mockImplementation((work) => work());
  m.roster.all.mockResolvedValue(ROSTER);
  m.roster.edit.mockImplementation((agent, changes) => Promise.resolve({ ...agent, ...changes }));
  return m;
}

describe(SetupService.name, () => {
  describe('status', () => {
    it('should ask for an admin and report every flag false when nothing exists yet', async () => {
      const { sut, users, gate, company, roster, catalog, settings } = build();
      users.countWithRole.mockResolvedValue(0);
      gate.isComplete.mockResolvedValue(false);
      company.find.mockResolvedValue(null);
      roster.count.mockResolvedValue(0);
      catalog.count.mockResolvedValue(0);
      settings.has.mockResolvedValue(false);

      await expect(sut.status()).resolves.toEqual({
        needs_admin: true,
        needs_setup: true,
        has_company: false,
        has_agents: false,
        has_providers: false,
        has_name_locales: false,
        min_password_length: PASSWORD_MIN_LENGTH,
      });
      expect(users.countWithRole).toHaveBeenCalledWith(HumanRole.Ceo);
    });

    it('should report every step done when the wizard is complete', async () => {
      const { sut, users, gate, company, roster, catalog, settings } = build();
      users.countWithRole.mockResolvedValue(1);
      gate.isComplete.mockResolvedValue(true);
      company.find.mockResolvedValue(companyRow());
      roster.count.mockResolvedValue(2);
      catalog.count.mockResolvedValue(1);
      settings.has.mockResolvedValue(true);

      await expect(sut.status()).resolves.toMatchObject({
        needs_admin: false,
        needs_setup: false,
        has_company: true,
        has_agents: true,
        has_providers: true,
        has_name_locales: true,
      });
    });
  });

  it('should list the roster in stored order when asked for the agents', async () => {
    const { sut } = build();

    await expect(sut.listAgents()).resolves.toMatchObject({
      agent_count: 2,
      agents: [{ name: 'Ada' }, { name: 'Grace' }],
    });
  });

  describe('agents by index', () => {
    it('should refuse with 3013 when the index is past the roster', async () => {
      const { sut, roster } = build();

      await expect(sut.setAgentName(2, 'Linus')).rejects.toMatchObject({
        code: ErrorCode.AgentNotFound,
        message: expect.stringContaining('2 agent(s)'),
      });
      expect(roster.edit).not.toHaveBeenCalled();
    });

    it('should rename the indexed agent with the trimmed name when the name is not blank', async () => {
      const { sut, roster } = build();

      await expect(sut.setAgentName(1, ' Linus ')).resolves.toMatchObject({ name: 'Linus' });
      expect(roster.edit).toHaveBeenCalledWith(ROSTER[1], { name: 'Linus' });
    });

    it('should refuse with 2001 before taking the lock when the new name is blank', async () => {
      const { sut, gate } = build();

      await expect(sut.setAgentName(0, '  ')).rejects.toMatchObject({ code: ErrorCode.RequestValidationError });
      expect(gate.whileOpen).not.toHaveBeenCalled();
    });

    it('should pass on the 4001 of the roster when the new name is taken', async () => {
      const { sut, roster } = build();
      roster.edit.mockRejectedValue(new ConflictError('taken', ErrorCode.DuplicateRecord));

      await expect(sut.setAgentName(0, 'grace')).rejects.toMatchObject({ code: ErrorCode.DuplicateRecord });
    });

    it('should draw a random name from the stored locales avoiding names in use when asked', async () => {
      const { sut, settings, roster, names } = build();
      const inUse = new Set(['ada', 'grace']);
      settings.get.mockResolvedValue(['fr_FR']);
      roster.namesInUse.mockResolvedValue(inUse);
      names.randomName.mockReturnValue('Camille');

      await expect(sut.randomizeAgentName(0)).resolves.toMatchObject({ name: 'Camille' });
      expect(names.randomName).toHaveBeenCalledWith(['fr_FR'], { exclude: inUse });
    });

    it('should set the resolved model when the provider offers it', async () => {
      const { sut, gate, roster } = build();
      gate.resolveModel.mockResolvedValue({ provider: 'acme', id: 'acme-medium' });

      await sut.setAgentModel(0, 'acme', 'medium');

      expect(roster.edit).toHaveBeenCalledWith(ROSTER[0], { modelProvider: 'acme', modelId: 'acme-medium' });
    });

    it('should apply the resolved preset and its personality when the preset exists', async () => {
      const { sut, personalities, roster } = build();
      const personality = { ...DEFAULT_PERSONALITY };
      personalities.resolve.mockResolvedValue({
        name: 'visionary',
        source: 'builtin',
        personality,
        createdAt: null,
        updatedAt: null,
      });

      await expect(sut.setAgentPersonality(0, 'Visionary')).resolves.toMatchObject({ personality_preset: 'visionary' });
      expect(roster.edit).toHaveBeenCalledWith(ROSTER[0], { personalityPreset: 'visionary', personality });
    });
  });

  describe('name locales', () => {
    it('should default to all locales when none are stored', async () => {
      const { sut, settings } = build();
      settings.get.mockResolvedValue(null);

      await expect(sut.nameLocales()).resolves.toEqual(['__all__']);
    });

    it('should fall back to all locales when the stored choice cannot be read', async () => {
      const { sut, settings } = build();
      settings.get.mockRejectedValue(new UnreadableSettingError('company', 'name_locales', '[1', { cause: null }));

      await expect(sut.nameLocales()).resolves.toEqual(['__all__']);
    });

    it('should store the normalised locales under the wizard lock when they are valid', async () => {
      const { sut, settings } = build();
      settings.set.mockResolvedValue();

      await expect(sut.setNameLocales(actorContext(), ['en_US', 'en_US', 'de_DE'])).resolves.toEqual([
        'en_US',
        'de_DE',
      ]);
      expect(settings.set).toHaveBeenCalledWith(NAME_LOCALES, ['en_US', 'de_DE']);
    });

    it('should refuse with 2001 and store nothing when a locale is unknown', async () => {
      const { sut, settings } = build();

      await expect(sut.setNameLocales(actorContext(), ['xx_YY'])).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(settings.set).not.toHaveBeenCalled();
    });
  });
});
