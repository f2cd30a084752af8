import { Global, Module } from '@nestjs/common';

import { CompanyProfileReader } from '@app/domain';

import { AgentsModule } from '../agents';
import { RunLedgerModule } from '../run-ledger';
import { CompanyController, DepartmentsController } from './company.controller';
import { CompanyFacade } from './company.facade';
import { CompanyRepository } from './company.repository';
import { CompanyService } from './company.service';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { SettingsModule } from '../settings';
import { COMPANY_SETTINGS } from './company.settings';

/**
 * The organisation: the company, its departments (health, ceremony policies) and projects.
 * Global only so that CompanyProfileReader reaches the roster's activity feed: the agents module
 * cannot import this module, which builds on it.
 */
@Global()
@Module({
  imports: [AgentsModule, RunLedgerModule, SettingsModule.forFeature(COMPANY_SETTINGS)],
  controllers: [CompanyController, DepartmentsController, ProjectsController],
  providers: [
    CompanyFacade,
    CompanyRepository,
    CompanyService,
    ProjectsRepository,
    ProjectsService,
    { provide: CompanyProfileReader, useExisting: CompanyFacade },
  ],
  exports: [CompanyFacade, CompanyProfileReader, CompanyService, ProjectsService],
})
export class CompanyModule {}
