import { Body, Controller, Get, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { AppError, Permission } from '@app/domain';
import { Endpoint, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SinkInfoDto, TestSinksDto, TestSinksResultDto } from './dto/sinks.dto';
import { SettingValueChecks } from './setting-value-checks';
import { SettingsSnapshot } from './settings-snapshot';

/** The log sinks of the observability namespace. Registered before the `/{namespace}/{key}` routes. */
@ApiTags('settings')
@ApiBearerAuth()
@Controller('settings/observability/sinks')
export class SinksController {
  constructor(
    @Inject(LOGGING_RUNTIME) private readonly logging: LoggingRuntime,
    private readonly checks: SettingValueChecks,
    private readonly snapshot: SettingsSnapshot,
  ) {}

  @Get()
  @Endpoint({
    summary: 'The log sinks this replica runs, disabled defaults included',
    response: SinkInfoDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  list(): SinkInfoDto[] {
    return this.logging.sinks();
  }

  @Post('_test')
  @Endpoint({
    summary: 'Check candidate sink settings against every sink rule without applying them',
    response: TestSinksResultDto,
    errors: [400, 401, 403],
    permission: Permission.Manage,
  })
  test(@Body() body: TestSinksDto): TestSinksResultDto {
    try {
      this.checks.checkSinks(
        body.sink_overrides ?? this.snapshot.value('observability', 'sink_overrides'),
        body.custom_sinks ?? this.snapshot.value('observability', 'custom_sinks'),
      );
      return { valid: true, error: null };
    } catch (error) {
      if (error instanceof AppError && error.httpStatus === 400) {
        return { valid: false, error: error.message };
      }
      throw error;
    }
  }
}
