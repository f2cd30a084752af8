import { Module } from '@nestjs/common';

import { AuditModule } from '../audit';
import { MemoryModule } from '../memory';
import { SettingsModule } from '../settings';

import { BackupController } from './backup.controller';
import { BackupScheduler } from './backup.scheduler';
import { BACKUP_SETTINGS } from './backup.settings';
import { BackupService } from './backup.service';
import { BackupStore } from './backup.store';
import { ConfigComponent } from './config.component';
import { MemoryComponent } from './memory.component';
import { PersistenceComponent } from './persistence.component';
import { RestoreRelay } from './restore.relay';
import { RestoreUseCase } from './restore.use-case';

/** Backup and restore: the routes, the scheduler and retention, and the `backup` settings. */
@Module({
  imports: [AuditModule, MemoryModule, SettingsModule.forFeature(BACKUP_SETTINGS)],
  controllers: [BackupController],
  providers: [
    BackupScheduler,
    BackupService,
    BackupStore,
    ConfigComponent,
    MemoryComponent,
    PersistenceComponent,
    RestoreRelay,
    RestoreUseCase,
  ],
  exports: [BackupService],
})
export class BackupModule {}
