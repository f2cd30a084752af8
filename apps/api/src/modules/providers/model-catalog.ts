import { Injectable } from '@nestjs/common';

import type { CatalogModel } from '@app/domain';
import type { ProviderEntity } from '@app/persistence';

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
  return row.models.flatMap((raw: Record<string, unknown>) => {
    if (typeof raw.id !== 'string') {
      return [];
    }
    return [
      {
        provider: row.name,
        id: raw.id,
        alias: typeof raw.alias === 'string' ? raw.alias : null,
        costPer1kInput: typeof raw.cost_per_1k_input === 'number' ? raw.cost_per_1k_input : 0,
        costPer1kOutput: typeof raw.cost_per_1k_output === 'number' ? raw.cost_per_1k_output : 0,
      },
    ];
  });
}
