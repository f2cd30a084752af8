import { type DynamicModule, Module, type Type } from '@nestjs/common';

import { type AppConfig, type LoggingRuntime, PlatformModule } from '@app/platform';

import { HealthModule } from './health/health.module';
import { AgentEditsModule } from './modules/agent-edits';
import { AgentsModule } from './modules/agents';
import { BackupModule } from './modules/backup';
import { ApprovalsModule } from './modules/approvals';
import { AuditModule } from './modules/audit';
import { ArtifactsModule } from './modules/artifacts';
import { AnalyticsModule } from './modules/analytics';
import { BudgetModule } from './modules/budget';
import { CompanyModule } from './modules/company';
import { CoordinationModule } from './modules/coordination';
import { DelegationModule } from './modules/delegation';
import { EngineModule } from './modules/engine';
import { HiringModule } from './modules/hiring';
import { MeetingsModule } from './modules/meetings';
import { MemoryModule } from './modules/memory';
import { MessagesModule } from './modules/messages';
import { OffboardingModule } from './modules/offboarding';
import { PromotionsModule } from './modules/promotions';
import { ProvidersModule } from './modules/providers';
import { SecurityModule } from './modules/security';
import { ReportsModule } from './modules/reports';
import { SettingsModule } from './modules/settings';
import { SetupModule } from './modules/setup';
import { TasksModule } from './modules/tasks';
import { ToolServersModule } from './modules/tool-servers';
import { UsersModule } from './modules/users';
import { RealtimeModule } from './realtime/realtime.module';

/** The API application: the platform plus every feature module. */
@Module({})
export class AppModule {
  static forRoot(
    config: AppConfig,
    logging: LoggingRuntime,
    extraImports: Array<Type<unknown> | DynamicModule> = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, logging),
        HealthModule,
        SettingsModule,
        AuditModule,
        UsersModule.forRoot(config),
        ProvidersModule,
        AgentsModule,
        AgentEditsModule,
        CompanyModule,
        SetupModule,
        TasksModule,
        EngineModule,
        SecurityModule,
        BackupModule,
        ApprovalsModule,
        MessagesModule,
        MemoryModule,
        CoordinationModule,
        DelegationModule,
        ArtifactsModule,
        BudgetModule,
        AnalyticsModule,
        ReportsModule,
        MeetingsModule,
        OffboardingModule,
        PromotionsModule,
        HiringModule,
        ToolServersModule,
        RealtimeModule,
        ...extraImports,
      ],
    };
  }
}
