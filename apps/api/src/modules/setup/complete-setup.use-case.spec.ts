import { Channel, ConflictError, ErrorCode, ValidationError } from '@app/domain';
import { EventBus, LOGGING_RUNTIME, ReinitialisationHooks } from '@app/platform';
import { actorContext, companyRow, makeServiceUnderTest, recordingLoggingRuntime, recordPublished } from '@app/testing';

import { CompanyFacade } from '../company';
import { ModelCatalog } from '../providers';
import { CompleteSetupUseCase } from './complete-setup.use-case';
import { WizardGate } from './wizard-gate';

const ACTOR = actorContext();

/** A wizard with a company and one provider, whose reinitialisation runs two steps. */
function build() {
  const logging = recordingLoggingRuntime();
  const unit = makeServiceUnderTest(CompleteSetupUseCase, [{ provide: LOGGING_RUNTIME, useValue: logging.runtime }]);
  const m = {
    sut: unit.sut,
    logLines: logging.lines,
    gate: unit.mock(WizardGate),
    company: unit.mock(CompanyFacade),
    catalog: unit.mock(ModelCatalog),
    hooks: unit.mock(ReinitialisationHooks),
    published: recordPublished(unit.mock(EventBus)),
  };
  m.gate.whileOpen.mockImplementation((work) => work());
  m.gate.markComplete.mockResolvedValue();
  m.company.find.mockResolvedValue(companyRow());
  m.catalog.count.mockResolvedValue(1);
  m.hooks.runAll.mockImplementation((onStep) => {
    onStep?.('providers');
    onStep?.('agents');
    return Promise.resolve(['providers', 'agents']);
  });
  return m;
}

describe(CompleteSetupUseCase.name, () => {
  it('should reinitialise, mark setup complete and announce it when company and provider exist', async () => {
    const { sut, gate, hooks, published } = build();

    await expect(sut.execute(ACTOR)).resolves.toEqual({ setup_complete: true, reinitialised: ['providers', 'agents'] });

    expect(hooks.runAll.mock.invocationCallOrder[0]).toBeLessThan(gate.markComplete.mock.invocationCallOrder[0]);
    expect(published).toEqual([
      expect.objectContaining({
        channel: Channel.Company,
        event_type: 'company.setup_completed',
        payload: { steps: ['providers', 'agents'] },
      }),
    ]);
  });

  it('should log each step and audit the completion in the caller name when setup completes', async () => {
    const { sut, logLines } = build();

    await sut.execute(ACTOR);

    expect(logLines).toEqual([
      expect.objectContaining({ logger: 'setup', msg: 'setup.reinitialise.step', step: 'providers' }),
      expect.objectContaining({ logger: 'setup', msg: 'setup.reinitialise.step', step: 'agents' }),
      expect.objectContaining({
        logger: 'security.audit',
        msg: 'setup.wizard.completed',
        actor: 'alice',
        steps: ['providers', 'agents'],
      }),
    ]);
  });

  it('should refuse with a validation error naming the company when none exists', async () => {
    const { sut, company, hooks } = build();
    company.find.mockResolvedValue(null);

    const error = await sut.execute(ACTOR).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: ErrorCode.ValidationError, message: expect.stringContaining('no company') });
    expect(hooks.runAll).not.toHaveBeenCalled();
  });

  it('should refuse with a validation error naming the provider when none is registered', async () => {
    const { sut, catalog, gate } = build();
    catalog.count.mockResolvedValue(0);

    await expect(sut.execute(ACTOR)).rejects.toMatchObject({
      code: ErrorCode.ValidationError,
      message: expect.stringContaining('no model provider'),
    });
    expect(gate.markComplete).not.toHaveBeenCalled();
  });

  it('should leave setup open and announce nothing when a reinitialisation step fails', async () => {
    const { sut, gate, hooks, published } = build();
    hooks.runAll.mockRejectedValue(new Error('agents failed to bootstrap'));

    await expect(sut.execute(ACTOR)).rejects.toThrow('agents failed to bootstrap');

    expect(gate.markComplete).not.toHaveBeenCalled();
    expect(published).toEqual([]);
  });

  it('should pass on the 4010 of the wizard gate when setup is already complete', async () => {
    const { sut, gate, hooks } = build();
    gate.whileOpen.mockRejectedValue(new ConflictError('complete', ErrorCode.SetupAlreadyComplete));

    await expect(sut.execute(ACTOR)).rejects.toMatchObject({ code: ErrorCode.SetupAlreadyComplete });
    expect(hooks.runAll).not.toHaveBeenCalled();
  });
});
