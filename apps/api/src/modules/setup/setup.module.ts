import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents/agents.module';
import { CompanyModule } from '../company/company.module';
import { ProvidersModule } from '../providers/providers.module';
import { NameGenerator } from './names/name-generator';
import { SetupController } from './setup.controller';
import { SetupRepository } from './setup.repository';
import { SetupService } from './setup.service';
import { TemplateCatalog } from './templates/template-catalog';

/** The first-run wizard. Templates are loaded (and validated) once at startup: a broken file stops boot. */
@Module({
  imports: [AgentsModule, CompanyModule, ProvidersModule],
  controllers: [SetupController],
  providers: [
    SetupRepository,
    SetupService,
    { provide: TemplateCatalog, useFactory: () => TemplateCatalog.load(TemplateCatalog.builtinDir()) },
    { provide: NameGenerator, useValue: new NameGenerator() },
  ],
  exports: [SetupService],
})
export class SetupModule {}
