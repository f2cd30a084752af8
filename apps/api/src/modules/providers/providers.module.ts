import { Module } from '@nestjs/common';

import { ModelCatalog } from './model-catalog';
import { ProvidersRepository } from './providers.repository';

/** Model providers: the registry other modules read models from. */
@Module({
  providers: [ModelCatalog, ProvidersRepository],
  exports: [ModelCatalog, ProvidersRepository],
})
export class ProvidersModule {}
