import { Body, Controller, Delete, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PageQueryDto, PathId, RequiresSubsystems } from '@app/platform';

import { BackupInfoDto, BackupManifestDto, RestoreRequestDto, RestoreResponseDto } from './dto/backup.dto';
import { toBackupInfo, toManifest, toRestoreResponse } from './backup.mapper';
import { BackupService } from './backup.service';
import { RestoreUseCase } from './restore.use-case';

/** `/admin/backups`: the CEO's and the command-line System identity's. */
@ApiTags('backups')
@ApiBearerAuth()
@Controller('admin/backups')
@RequiresSubsystems('persistence')
export class BackupController {
  constructor(
    private readonly backups: BackupService,
    private readonly restoreUseCase: RestoreUseCase,
  ) {}

  @Post()
  @Endpoint({
    summary: 'Take a backup now; answers its manifest',
    response: BackupManifestDto,
    status: 201,
    errors: [400, 401, 403, 409],
    permission: Permission.Backup,
  })
  async create(@Actor() actor: ActorContext): Promise<BackupManifestDto> {
    return toManifest(await this.backups.create('manual', actor.username));
  }

  @Get()
  @Endpoint({
    summary: 'Backups, newest first',
    paged: BackupInfoDto,
    errors: [400, 401, 403],
    permission: Permission.Backup,
  })
  async list(@Query() query: PageQueryDto): Promise<Page<BackupInfoDto>> {
    const all = await this.backups.list();
    const items = all.slice(query.offset, query.offset + query.limit).map(toBackupInfo);
    return new Page(items, all.length, query.offset, query.limit);
  }

  @Post('restore')
  @Endpoint({
    summary: 'Restore a backup (needs confirm: true); a pre_migration safety backup is taken first',
    response: RestoreResponseDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Backup,
  })
  async restore(@Actor() actor: ActorContext, @Body() dto: RestoreRequestDto): Promise<RestoreResponseDto> {
    const outcome = await this.restoreUseCase.execute({
      backupId: dto.backup_id,
      components: dto.components ?? null,
      confirm: dto.confirm,
      actor: actor.username,
    });
    return toRestoreResponse(outcome);
  }

  @Get(':backup_id')
  @Endpoint({
    summary: "A backup's manifest",
    response: BackupManifestDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Backup,
  })
  async get(@PathId('backup_id') id: string): Promise<BackupManifestDto> {
    return toManifest((await this.backups.getOrThrow(id)).manifest);
  }

  @Delete(':backup_id')
  @Endpoint({
    summary: 'Delete a backup',
    noContent: true,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Backup,
  })
  delete(@Actor() actor: ActorContext, @PathId('backup_id') id: string): Promise<void> {
    return this.backups.delete(id, actor.username);
  }
}
