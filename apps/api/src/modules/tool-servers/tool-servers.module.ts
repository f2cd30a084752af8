import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { AuditModule } from '../audit';
import { EngineModule } from '../engine';
import { MessagesModule } from '../messages';
import { ProvidersModule } from '../providers';
import { SettingsModule } from '../settings';
import { McpEndpointController } from './mcp-endpoint.controller';
import { ServiceMcpEndpoint } from './service-mcp.endpoint';
import { ToolServerLinks } from './tool-server-links';
import { ToolServersController } from './tool-servers.controller';
import { ToolServersRepository } from './tool-servers.repository';
import { ToolServersService } from './tool-servers.service';
import { TOOL_SERVER_SETTINGS } from './tool-servers.settings';

/**
 * Model Context Protocol tool servers: the registry (CRUD, encrypted secrets, address policy), this
 * replica's connections to them, and the engine hooks that offer their tools to allowed agents
 * through the ToolInvoker, under the same security pipeline, approvals and records as every tool.
 */
@Module({
  imports: [
    AgentsModule,
    AuditModule,
    EngineModule,
    MessagesModule,
    ProvidersModule,
    SettingsModule.forFeature(TOOL_SERVER_SETTINGS),
  ],
  controllers: [McpEndpointController, ToolServersController],
  providers: [ServiceMcpEndpoint, ToolServerLinks, ToolServersRepository, ToolServersService],
  exports: [],
})
export class ToolServersModule {}
