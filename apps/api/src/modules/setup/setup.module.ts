import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { CompanyModule } from '../company';
import { ProvidersModule } from '../providers';
import { AddAgentUseCase } from './add-agent.use-case';
import { CompleteSetupUseCase } from './complete-setup.use-case';
import { CreateCompanyUseCase } from './create-company.use-case';
import { NameGenerator } from './names/name-generator';
import { SetupController } from './setup.controller';
import { SetupService } from './setup.service';
import { TemplateCatalog } from './templates/template-catalog';
import { WizardGate } from './wizard-gate';
import { SettingsModule } from '../settings';
import { SETUP_SETTINGS } from './setup.settings';

/** The first-run wizard. Templates are loaded (and validated) once at startup: a broken file stops boot. */
@Module({
  imports: [AgentsModule, CompanyModule, ProvidersModule, SettingsModule.forFeature(SETUP_SETTINGS)],
  controllers: [SetupController],
  providers: [
    AddAgentUseCase,
    CompleteSetupUseCase,
    CreateCompanyUseCase,
    SetupService,
    WizardGate,
    { provide: TemplateCatalog, useFactory: () => TemplateCatalog.load(TemplateCatalog.builtinDir()) },
    { provide: NameGenerator, useValue: new NameGenerator() },
  ],
  // Hiring draws names and template roles as the wizard does.
  exports: [NameGenerator, SetupService, TemplateCatalog],
})
export class SetupModule {}
