import { Injectable } from '@nestjs/common';

import { ConflictError, ErrorCode, findCatalogModel, NotFoundError, ValidationError } from '@app/domain';
import { DistributedLock, SettingsStore } from '@app/platform';

import { ModelCatalog } from '../providers';
import { SETUP_COMPLETE } from './setup.settings';

/** Every wizard write runs under this lock, so a completion never races a half-applied change. */
const SETUP_LOCK = 'setup.wizard';

/** What every wizard step shares: the wizard lock, the completion flag, and model lookups in the catalogue. */
@Injectable()
export class WizardGate {
  constructor(
    private readonly lock: DistributedLock,
    private readonly settings: SettingsStore,
    private readonly catalog: ModelCatalog,
  ) {}

  async isComplete(): Promise<boolean> {
    return (await this.settings.get(SETUP_COMPLETE)) === true;
  }

  /** Runs `work` under the wizard lock (across replicas), refused once setup is complete. */
  whileOpen<T>(work: () => Promise<T>): Promise<T> {
    return this.lock.runExclusive(SETUP_LOCK, async () => {
      if (await this.isComplete()) {
        throw new ConflictError(
          'Setup is already complete; the wizard is read-only now',
          ErrorCode.SetupAlreadyComplete,
        );
      }
      return work();
    });
  }

  async markComplete(): Promise<void> {
    await this.settings.set(SETUP_COMPLETE, true);
  }

  /** A provider's model by id or alias, as the catalogue names it. */
  async resolveModel(provider: string, modelRef: string): Promise<{ provider: string; id: string }> {
    const entry = await this.catalog.provider(provider);
    if (!entry) {
      throw new NotFoundError(`Provider "${provider}" not found`, ErrorCode.ProviderNotFound);
    }
    const model = findCatalogModel(entry.models, provider, modelRef);
    if (!model) {
      throw new ValidationError(
        `model_id: provider "${provider}" does not offer "${modelRef}"`,
        ErrorCode.RequestValidationError,
      );
    }
    return { provider: model.provider, id: model.id };
  }
}
