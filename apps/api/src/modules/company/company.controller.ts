import { Body, Controller, Delete, Get, Headers, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { type Page, Permission } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiEnvelope,
  ApiErrors,
  ApiNoContent,
  ApiPaged,
  PageQueryDto,
  PathId,
  RequirePermission,
  RequiresSubsystems,
} from '@app/platform';

import { CompanyService } from './company.service';
import { CompanyDto, DepartmentDto, DepartmentHealthDto } from './dto/company.dto';

@ApiTags('company')
@ApiBearerAuth()
@Controller('company')
@RequiresSubsystems('persistence')
@RequirePermission(Permission.Read)
export class CompanyController {
  constructor(private readonly company: CompanyService) {}

  @Get()
  @ApiOperation({ summary: 'The company: identity, configuration, departments' })
  @ApiEnvelope(CompanyDto)
  @ApiErrors(401, 403, 404)
  get(): Promise<CompanyDto> {
    return this.company.get();
  }

  @Get('departments')
  @ApiOperation({ summary: "The company's departments, in order" })
  @ApiEnvelope(DepartmentDto, { isArray: true })
  @ApiErrors(401, 403)
  departments(): Promise<DepartmentDto[]> {
    return this.company.departments();
  }
}

const IF_MATCH = {
  name: 'If-Match',
  required: false,
  description: 'ETag from a previous read; a stale value answers 409 (code 4002)',
};

@ApiTags('departments')
@ApiBearerAuth()
@Controller('departments')
@RequiresSubsystems('persistence')
@RequirePermission(Permission.Read)
export class DepartmentsController {
  constructor(private readonly company: CompanyService) {}

  @Get()
  @ApiOperation({ summary: 'Departments, paginated' })
  @ApiPaged(DepartmentDto)
  @ApiErrors(400, 401, 403)
  list(@Query() page: PageQueryDto): Promise<Page<DepartmentDto>> {
    return this.company.pageDepartments(page);
  }

  @Get(':name')
  @ApiOperation({ summary: 'One department (name is case-insensitive)' })
  @ApiEnvelope(DepartmentDto)
  @ApiErrors(400, 401, 403, 404)
  get(@PathId('name') name: string): Promise<DepartmentDto> {
    return this.company.department(name);
  }

  @Get(':name/health')
  @ApiOperation({ summary: 'Head count, utilisation, throughput, quality and cost of a department' })
  @ApiEnvelope(DepartmentHealthDto)
  @ApiErrors(400, 404)
  health(@PathId('name') name: string): Promise<DepartmentHealthDto> {
    return this.company.health(name);
  }

  @Get(':name/ceremony-policy')
  @ApiOperation({ summary: "The department's ceremony policy (null: inherited)" })
  @ApiEnvelope('object', { nullable: true })
  @ApiErrors(400, 401, 403, 404)
  async ceremonyPolicy(
    @PathId('name') name: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, unknown> | null> {
    const { policy, etag } = await this.company.ceremonyPolicy(name);
    res.setHeader('ETag', etag);
    return policy;
  }

  @Put(':name/ceremony-policy')
  @RequirePermission(Permission.Manage)
  @ApiOperation({ summary: 'Set the ceremony policy (managers: their own department only)' })
  @ApiHeader(IF_MATCH)
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiEnvelope('object')
  @ApiErrors(400, 401, 403, 404, 409)
  async setCeremonyPolicy(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() body: Record<string, unknown>,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, unknown>> {
    const { policy, etag } = await this.company.setCeremonyPolicy(actor, name, body, ifMatch);
    res.setHeader('ETag', etag);
    return policy;
  }

  @Delete(':name/ceremony-policy')
  @RequirePermission(Permission.Manage)
  @ApiOperation({ summary: 'Clear the ceremony policy (inherit again)' })
  @ApiHeader(IF_MATCH)
  @ApiNoContent()
  @ApiErrors(400, 401, 403, 404, 409)
  clearCeremonyPolicy(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.company.clearCeremonyPolicy(actor, name, ifMatch);
  }
}
