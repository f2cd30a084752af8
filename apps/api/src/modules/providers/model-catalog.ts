import { Injectable } from '@nestjs/common';

import type { CatalogModel } from '@app/domain';
import type { ProviderEntity } from '@app/persistence';

import { modelFromJson } from './provider-record';
import { ProvidersRepository } from './providers.repository';

/** Every model the registered providers offer, as the setup wizard and agent bootstrap see them. */
@Injectable()
export class ModelCatalog {
  constructor(private readonly providers: ProvidersRepository) {}

  async models(): Promise<CatalogModel[]> {
    return (await this.providers.all()).flatMap(modelsOf);
  }

  async provider(name: string): Promise<{ name: string; models: CatalogModel[] } | null> {
    const row = await this.providers.findByName(name);
    return row ? { name: row.name, models: modelsOf(row) } : null;
  }

  count(): Promise<number> {
    return this.providers.count();
  }
}

function modelsOf(row: ProviderEntity): CatalogModel[] {
  return row.models.flatMap((raw) => {
    const model = modelFromJson(raw);
    return model
      ? [
          {
            provider: row.name,
            id: model.id,
            alias: model.alias,
            costPer1kInput: model.costPer1kInput,
            costPer1kOutput: model.costPer1kOutput,
          },
        ]
      : [];
  });
}
