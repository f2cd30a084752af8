import { ErrorCode } from '@app/domain';
import { DistributedLock, SettingsStore } from '@app/platform';
import { makeServiceUnderTest } from '@app/testing';

import { ModelCatalog } from '../providers';
import { SETUP_COMPLETE } from './setup.settings';
import { WizardGate } from './wizard-gate';

const MEDIUM = { provider: 'acme', id: 'acme-medium', alias: 'medium', costPer1kInput: 1, costPer1kOutput: 2 };

function build(complete: boolean | null) {
  const unit = makeServiceUnderTest(WizardGate);
  const lock = unit.mock(DistributedLock);
  const settings = unit.mock(SettingsStore);
  lock.runExclusive.mockImplementation((_, work) => work());
  settings.get.mockResolvedValue(complete);
  return { sut: unit.sut, lock, settings, catalog: unit.mock(ModelCatalog) };
}

describe(WizardGate.name, () => {
  it('should run the work under the wizard lock when setup is still open', async () => {
    const { sut, lock, settings } = build(null);
    const work = jest.fn(() => Promise.resolve('done'));

    await expect(sut.whileOpen(work)).resolves.toBe('done');

    expect(lock.runExclusive).toHaveBeenCalledWith('setup.wizard', expect.any(Function));
    expect(settings.get).toHaveBeenCalledWith(SETUP_COMPLETE);
  });

  it('should refuse with 4010 without running the work when setup is complete', async () => {
    const { sut } = build(true);
    const work = jest.fn(() => Promise.resolve('done'));

    await expect(sut.whileOpen(work)).rejects.toMatchObject({ code: ErrorCode.SetupAlreadyComplete });
    expect(work).not.toHaveBeenCalled();
  });

  it('should store the completion flag when setup is marked complete', async () => {
    const { sut, settings } = build(null);
    settings.set.mockResolvedValue();

    await sut.markComplete();

    expect(settings.set).toHaveBeenCalledWith(SETUP_COMPLETE, true);
  });

  it('should resolve a model by id or alias when the provider offers it', async () => {
    const { sut, catalog } = build(null);
    catalog.provider.mockResolvedValue({ name: 'acme', models: [MEDIUM] });

    await expect(sut.resolveModel('acme', 'medium')).resolves.toEqual({ provider: 'acme', id: 'acme-medium' });
    await expect(sut.resolveModel('acme', 'acme-medium')).resolves.toEqual({ provider: 'acme', id: 'acme-medium' });
  });

  it('should refuse with 3020 when the provider is unknown', async () => {
    const { sut, catalog } = build(null);
    catalog.provider.mockResolvedValue(null);

    await expect(sut.resolveModel('ghost', 'medium')).rejects.toMatchObject({ code: ErrorCode.ProviderNotFound });
  });

  it('should refuse with 2001 when the provider does not offer the model', async () => {
    const { sut, catalog } = build(null);
    catalog.provider.mockResolvedValue({ name: 'acme', models: [MEDIUM] });

    await expect(sut.resolveModel('acme', 'huge')).rejects.toMatchObject({ code: ErrorCode.RequestValidationError });
  });
});
