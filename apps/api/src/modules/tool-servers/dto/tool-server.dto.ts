import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';

import { TOOL_SERVER_TRANSPORTS } from '@app/domain';

const SECRET_DOC = 'Write-only; a new command, args or url needs it again (2901)';

/** Fields a create and an update share. */
class ToolServerFieldsDto {
  @ApiPropertyOptional({ maxLength: 1024, description: 'stdio: the program to start' })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  command?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 64 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @IsString({ each: true })
  @MaxLength(1024, { each: true })
  args?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: `stdio: environment variables, all secret. ${SECRET_DOC}`,
  })
  @IsOptional()
  @IsObject()
  env?: Record<string, string>;

  @ApiPropertyOptional({ maxLength: 2048, description: 'http: the Streamable HTTP endpoint' })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  url?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  auth_header_name?: string;

  @ApiPropertyOptional({ maxLength: 8192, description: SECRET_DOC })
  @IsOptional()
  @IsString()
  @MaxLength(8192)
  auth_header_value?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 100, description: 'Departments whose agents may use it' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 128, { each: true })
  allowed_departments?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 200, description: 'Agents (id or name) who may use it' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  allowed_agents?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Tool name to action type, over the one derived from its annotations',
  })
  @IsOptional()
  @IsObject()
  tool_actions?: Record<string, string>;

  @ApiPropertyOptional({ description: "Adds the url's private host:port to the allowlist (CEO)" })
  @IsOptional()
  @IsBoolean()
  trust_address?: boolean;
}

@ApiSchema({ name: 'CreateToolServerRequest' })
export class CreateToolServerDto extends ToolServerFieldsDto {
  @ApiProperty({ minLength: 1, maxLength: 40 })
  @IsString()
  @Length(1, 40)
  name!: string;

  @ApiProperty({ enum: TOOL_SERVER_TRANSPORTS })
  @IsIn(TOOL_SERVER_TRANSPORTS)
  transport!: string;
}

@ApiSchema({ name: 'UpdateToolServerRequest' })
export class UpdateToolServerDto extends ToolServerFieldsDto {
  @ApiPropertyOptional({ description: 'Removes every environment variable' })
  @IsOptional()
  @IsBoolean()
  clear_env?: boolean;

  @ApiPropertyOptional({ description: 'Removes the auth header value' })
  @IsOptional()
  @IsBoolean()
  clear_auth_header_value?: boolean;
}

/**
 * A server's state as the replica that answered sees it: each replica runs its own connection (its
 * own process for a stdio server), so `replica` names whose view this is.
 */
@ApiSchema({ name: 'ToolServerHealth' })
export class ToolServerHealthDto {
  @ApiProperty({ description: 'The replica whose connection this describes (host, process id and a random part)' })
  replica!: string;

  @ApiProperty({
    description: 'Whether this replica holds a connection now (a stdio server stopped while idle is not)',
  })
  connected!: boolean;

  @ApiProperty({ type: 'string', nullable: true })
  last_error!: string | null;

  @ApiProperty({ type: 'integer' })
  restarts!: number;
}

@ApiSchema({ name: 'ToolServer' })
export class ToolServerDto {
  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: TOOL_SERVER_TRANSPORTS })
  transport!: string;

  @ApiProperty({ type: 'string', nullable: true })
  command!: string | null;

  @ApiProperty({ type: [String] })
  args!: string[];

  @ApiProperty({ type: [String], description: 'Names only; values are never returned' })
  env_names!: string[];

  @ApiProperty({ type: 'string', nullable: true })
  url!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  auth_header_name!: string | null;

  @ApiProperty()
  has_auth_header_value!: boolean;

  @ApiProperty({ type: [String] })
  allowed_departments!: string[];

  @ApiProperty({ type: [String] })
  allowed_agents!: string[];

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  tool_actions!: Record<string, string>;

  @ApiProperty({ type: 'integer' })
  tool_count!: number;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  tools_listed_at!: string | null;

  @ApiProperty({ type: ToolServerHealthDto })
  health!: ToolServerHealthDto;

  @ApiProperty({ type: 'integer' })
  version!: number;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updated_at!: string;
}

@ApiSchema({ name: 'ToolServerTool' })
export class ToolServerToolDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'As offered to models (server__tool)' })
  name!: string | null;

  @ApiProperty()
  tool!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  input_schema!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'boolean' } })
  annotations!: Record<string, boolean>;

  @ApiProperty()
  action_type!: string;

  @ApiProperty({ enum: ['explicit', 'read_only_hint', 'destructive_hint', 'non_destructive_hint', 'unknown'] })
  action_source!: string;
}

@ApiSchema({ name: 'ToolServerTestResult' })
export class ToolServerTestResultDto {
  @ApiProperty()
  success!: boolean;

  @ApiProperty({ type: 'integer', nullable: true })
  latency_ms!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  tool_count!: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  error!: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  error_code!: number | null;
}
