import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import { DepartmentAutonomyService } from './department-autonomy.service';
import { DepartmentAutonomyDto, UpdateDepartmentAutonomyDto } from './dto/autonomy.dto';

/** Autonomy on the department resource: read it, and set it (an audited write by a person). */
@ApiTags('departments')
@ApiBearerAuth()
@Controller('departments')
@RequiresSubsystems('persistence')
export class DepartmentAutonomyController {
  constructor(private readonly autonomy: DepartmentAutonomyService) {}

  @Get(':name/autonomy')
  @Endpoint({
    summary: "The department's autonomy level and what its agents inherit",
    response: DepartmentAutonomyDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('name') name: string): Promise<DepartmentAutonomyDto> {
    return this.autonomy.get(name);
  }

  @Put(':name/autonomy')
  @Endpoint({
    summary: "Set the department's autonomy (managers: their own department); recorded in the audit trail",
    response: DepartmentAutonomyDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Manage,
  })
  set(
    @Actor() actor: ActorContext,
    @PathId('name') name: string,
    @Body() body: UpdateDepartmentAutonomyDto,
  ): Promise<DepartmentAutonomyDto> {
    return this.autonomy.set(actor, name, body);
  }
}
