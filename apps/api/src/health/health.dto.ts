import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'SubsystemStatus' })
export class SubsystemStatusDto {
  @ApiProperty({ example: 'persistence' })
  name!: string;

  @ApiProperty()
  wired!: boolean;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Why it is unwired, or what is wired' })
  detail!: string | null;
}

@ApiSchema({ name: 'PersistenceStatus' })
export class PersistenceStatusDto {
  @ApiProperty({ enum: ['sqlite', 'postgres'] })
  backend!: 'sqlite' | 'postgres';

  @ApiProperty({ enum: ['connecting', 'ready', 'swapping', 'failed', 'closed'] })
  state!: string;
}

@ApiSchema({ name: 'HealthStatus' })
export class HealthStatusDto {
  @ApiProperty({
    enum: ['ok', 'degraded', 'down'],
    description: 'ok: every wired dependency up; degraded: some; down: none',
  })
  status!: 'ok' | 'degraded' | 'down';

  @ApiProperty({ example: '0.6.1' })
  version!: string;

  @ApiProperty({ description: 'Seconds since the process started' })
  uptime_seconds!: number;

  @ApiProperty({
    type: 'boolean',
    nullable: true,
    description: 'Database reachable and migrated; null when not configured',
  })
  persistence!: boolean | null;

  @ApiProperty({ type: 'boolean', nullable: true, description: 'Event bus available; null when not configured' })
  message_bus!: boolean | null;

  @ApiProperty({ type: PersistenceStatusDto })
  persistence_detail!: PersistenceStatusDto;

  @ApiProperty({ type: [SubsystemStatusDto] })
  subsystems!: SubsystemStatusDto[];
}

@ApiSchema({ name: 'ProbeStatusResponse' })
export class ProbeStatusDto {
  @ApiProperty({ enum: ['alive', 'ready'] })
  status!: 'alive' | 'ready';
}
