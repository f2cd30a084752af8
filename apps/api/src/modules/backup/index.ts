// The backup module's public face: other modules import only from here.
export { BackupModule } from './backup.module';
export { BackupService } from './backup.service';
