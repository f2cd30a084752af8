import { Controller, Post, Req, Res, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { Permission } from '@app/domain';
import { Actor, type ActorContext, Endpoint, McpRateLimited, RAW_RESPONSE } from '@app/platform';

import { ServiceMcpEndpoint } from './service-mcp.endpoint';

/**
 * The service as a Model Context Protocol server (Streamable HTTP, stateless, JSON answers). Each
 * request counts in the API's general window and in the `mcp` window of its user; a refusal is the
 * API's 429 (code 5000, Retry-After) before any MCP message is read.
 */
@ApiTags('tools')
@ApiBearerAuth()
@Controller('mcp')
export class McpEndpointController {
  constructor(private readonly endpoint: ServiceMcpEndpoint) {}

  @Post()
  @Endpoint({
    summary: 'MCP JSON-RPC: tasks, approvals, budget, messages as tools, within the caller role',
    errors: [400, 401, 403, 429],
    permission: Permission.Read,
  })
  @McpRateLimited()
  @SetMetadata(RAW_RESPONSE, true)
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiResponse({ status: 200, description: "A JSON-RPC message (the MCP transport's, not the API envelope)" })
  handle(@Actor() actor: ActorContext, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.endpoint.handle(actor, req, res);
  }
}
