import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, RequiresSubsystems } from '@app/platform';

import { ImportSecurityConfigDto, SecurityConfigExportDto } from './dto/security-config.dto';
import { SecurityConfigService } from './security-config.service';

/** The security namespace as one document. Registered before the `/{namespace}/{key}` routes. */
@ApiTags('settings')
@ApiBearerAuth()
@Controller('settings/security')
@RequiresSubsystems('persistence')
export class SecurityConfigController {
  constructor(private readonly security: SecurityConfigService) {}

  @Get('export')
  @Endpoint({
    summary: 'The security settings as one document',
    response: SecurityConfigExportDto,
    errors: [401, 403],
    permission: Permission.Read,
  })
  export(): Promise<SecurityConfigExportDto> {
    return this.security.export();
  }

  @Post('import')
  @Endpoint({
    summary: 'Store a security settings document (every value checked before any is stored)',
    response: SecurityConfigExportDto,
    errors: [400, 401, 403],
    permission: Permission.Manage,
  })
  import(@Actor() actor: ActorContext, @Body() body: ImportSecurityConfigDto): Promise<SecurityConfigExportDto> {
    return this.security.import(actor, body.config);
  }
}
