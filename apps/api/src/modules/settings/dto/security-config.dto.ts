import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

@ApiSchema({
  name: 'SecurityConfigExport',
  description: 'The security namespace as one document, to copy to another deployment',
})
export class SecurityConfigExportDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Each security setting by key, with its typed value (boolean, number or text)',
  })
  config!: Record<string, unknown>;

  @ApiProperty({ type: 'string', format: 'date-time' })
  exported_at!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Set when custom security policies exist that the document does not carry; this server has none',
  })
  custom_policies_warning!: string | null;
}

@ApiSchema({ name: 'ImportSecurityConfigRequest' })
export class ImportSecurityConfigDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Security settings by key (a subset is allowed); every value is checked before any is stored',
  })
  @IsObject()
  config!: Record<string, unknown>;
}
