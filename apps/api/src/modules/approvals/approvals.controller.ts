import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, PathId, RequiresSubsystems } from '@app/platform';

import {
  ApprovalQueryDto,
  ApprovalResponseDto,
  ApproveDto,
  CreateApprovalDto,
  RejectDto,
} from './dto/approval-item.dto';
import { ApprovalsService } from './approvals.service';

/** The human approval queue: one-line pass-throughs to the service. */
@ApiTags('approvals')
@ApiBearerAuth()
@Controller('approvals')
@RequiresSubsystems('persistence')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @Endpoint({
    summary: 'Approval items filtered by status, risk level and action type, oldest first',
    paged: ApprovalResponseDto,
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: ApprovalQueryDto): Promise<Page<ApprovalResponseDto>> {
    return this.approvals.list(query, { offset: query.offset, limit: query.limit });
  }

  @Post()
  @Endpoint({
    summary: 'File an approval item (its deadline: ttl_seconds, else the timeout policy)',
    description: '400 with error_code 2056 for metadata beyond 20 keys or 256 characters.',
    response: ApprovalResponseDto,
    status: 201,
    errors: [400, 401, 403],
    permission: Permission.Write,
  })
  create(@Actor() actor: ActorContext, @Body() dto: CreateApprovalDto): Promise<ApprovalResponseDto> {
    return this.approvals.create(actor, dto);
  }

  @Get(':approval_id')
  @Endpoint({
    summary: 'One approval item',
    response: ApprovalResponseDto,
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('approval_id') id: string): Promise<ApprovalResponseDto> {
    return this.approvals.get(id);
  }

  @Post(':approval_id/approve')
  @HttpCode(200)
  @Endpoint({
    summary: 'Approve a pending item; its parked run executes the call and continues',
    description:
      '409 with error_code 4006 when already decided, 4023 when expired. A Manager decides only items of their department.',
    response: ApprovalResponseDto,
    status: 200,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Approve,
  })
  approve(
    @Actor() actor: ActorContext,
    @PathId('approval_id') id: string,
    @Body() dto: ApproveDto,
  ): Promise<ApprovalResponseDto> {
    return this.approvals.approve(actor, id, dto);
  }

  @Post(':approval_id/reject')
  @HttpCode(200)
  @Endpoint({
    summary: 'Reject a pending item with a reason; its parked run hears the refusal',
    description:
      '409 with error_code 4006 when already decided, 4023 when expired. A Manager decides only items of their department.',
    response: ApprovalResponseDto,
    status: 200,
    errors: [400, 401, 403, 404, 409],
    permission: Permission.Approve,
  })
  reject(
    @Actor() actor: ActorContext,
    @PathId('approval_id') id: string,
    @Body() dto: RejectDto,
  ): Promise<ApprovalResponseDto> {
    return this.approvals.reject(actor, id, dto);
  }
}
