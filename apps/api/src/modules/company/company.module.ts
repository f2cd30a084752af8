import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents/agents.module';
import { RunLedgerModule } from '../run-ledger';
import { CompanyController, DepartmentsController } from './company.controller';
import { CompanyRepository } from './company.repository';
import { CompanyService } from './company.service';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

/** The organisation: the company, its departments (health, ceremony policies) and projects. */
@Module({
  imports: [AgentsModule, RunLedgerModule],
  controllers: [CompanyController, DepartmentsController, ProjectsController],
  providers: [CompanyRepository, CompanyService, ProjectsRepository, ProjectsService],
  exports: [CompanyRepository, CompanyService, ProjectsService],
})
export class CompanyModule {}
