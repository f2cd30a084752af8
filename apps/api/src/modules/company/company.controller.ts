import { Body, Controller, Delete, Get, Headers, Put, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

import { type Page, Permission } from '@app/domain';
import {
  Actor,
  type ActorContext,
  ApiIfMatch,
  Endpoint,
  PageQueryDto,
  PathId,
  RequiresSubsystems,
} from '@app/platform';

import { CompanyService } from './company.service';
import { CeremonyPolicyDto, CompanyDto, DepartmentDto, DepartmentHealthDto } from './dto/company.dto';

@ApiTags('company')
@ApiBearerAuth()
@Controller('company')
@RequiresSubsystems('persistence')
export class CompanyController {
  constructor(private readonly company: CompanyService) {}

  @Get()
  @Endpoint({
    summary: 'The company: identity, configuration, departments',
    response: CompanyDto,
    errors: [401, 403, 404],
    permission: Permission.Read,
  })
  get(): Promise<CompanyDto> {
    return this.company.get();
  }

  @Get('departments')
  @Endpoint({
    summary: "The company's departments, in order",
    response: DepartmentDto,
    isArray: true,
    errors: [401, 403],
    permission: Permission.Read,
  })
  departments(): Promise<DepartmentDto[]> {
    return this.company.departments();
  }
}

@ApiTags('departments')
@ApiBearerAuth()
@Controller('departments')
@RequiresSubsystems('persistence')
export class DepartmentsController {
  constructor(private readonly company: CompanyService) {}

  @Get()
  @Endpoint({
    summary: 'Departments, paginated',
    paged: DepartmentDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() page: PageQueryDto): Promise<Page<DepartmentDto>> {
    return this.company.pageDepartments(page);
  }

  @Get(':name')
  @Endpoint({
    summary: 'One department (name is case-insensitive)',
    response: DepartmentDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('name') name: string): Promise<DepartmentDto> {
    return this.company.department(name);
  }

  @Get(':name/health')
  @Endpoint({
    summary: 'Head count, utilisation, throughput, quality and cost of a department',
    response: DepartmentHealthDto,
    errors: [400, 404],
    permission: Permission.Read,
  })
  health(@PathId('name') name: string): Promise<DepartmentHealthDto> {
    return this.company.health(name);
  }

  @Get(':name/ceremony-policy')
  @Endpoint({
    summary: "The department's ceremony policy (null: inherited)",
    response: CeremonyPolicyDto,
    nullable: true,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  async ceremonyPolicy(
    @PathId('name') name: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CeremonyPolicyDto | null> {
    const { policy, etag } = await this.company.ceremonyPolicy(name);
    res.setHeader('ETag', etag);
    return policy;
  }

  @Put(':name/ceremony-policy')
  @Endpoint({
    summary: 'Set the ceremony policy (managers: their own department only)',
    response: CeremonyPolicyDto,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  @ApiIfMatch()
  async setCeremonyPolicy(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() body: CeremonyPolicyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CeremonyPolicyDto> {
    const { policy, etag } = await this.company.setCeremonyPolicy(actor, name, body, ifMatch);
    res.setHeader('ETag', etag);
    return policy;
  }

  @Delete(':name/ceremony-policy')
  @Endpoint({
    summary: 'Clear the ceremony policy (inherit again)',
    noContent: true,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Manage,
  })
  @ApiIfMatch()
  clearCeremonyPolicy(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    return this.company.clearCeremonyPolicy(actor, name, ifMatch);
  }
}
