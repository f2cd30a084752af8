import {
  Injectable,
  Param,
  type PipeTransform,
  ValidationPipe,
  type ValidationError as ClassValidationError,
} from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

import {
  ErrorCode,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
  type PageRequest,
  PATH_ID_MAX,
  PATH_ID_MIN,
  ValidationError,
} from '@app/domain';

function flatten(errors: ClassValidationError[], prefix = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      messages.push(
        message.startsWith(error.property) ? `${prefix ? prefix + '.' : ''}${message}` : `${path}: ${message}`,
      );
    }
    if (error.children && error.children.length > 0) {
      messages.push(...flatten(error.children, path));
    }
  }
  return messages;
}

/** Global pipe: strip nothing silently (unknown fields are errors), transform to DTO classes, 400/2001 on failure. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) =>
      new ValidationError(flatten(errors).join('; ') || 'Invalid request', ErrorCode.RequestValidationError),
  });
}

/** `offset` ≥ 0 (default 0) and `limit` 1–200 (default 50): shared by every paginated list. */
export class PageQueryDto implements PageRequest {
  @ApiPropertyOptional({ minimum: 0, default: 0, type: 'integer' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset: number = 0;

  @ApiPropertyOptional({
    minimum: PAGE_LIMIT_MIN,
    maximum: PAGE_LIMIT_MAX,
    default: PAGE_LIMIT_DEFAULT,
    type: 'integer',
  })
  @Type(() => Number)
  @IsInt()
  @Min(PAGE_LIMIT_MIN)
  @Max(PAGE_LIMIT_MAX)
  limit: number = PAGE_LIMIT_DEFAULT;
}

/** Path names and ids are 1–128 characters. */
@Injectable()
export class PathIdPipe implements PipeTransform<unknown, string> {
  constructor(private readonly name: string = 'id') {}

  transform(value: unknown): string {
    if (typeof value !== 'string' || value.length < PATH_ID_MIN || value.length > PATH_ID_MAX) {
      throw new ValidationError(
        `${this.name}: must be between ${PATH_ID_MIN} and ${PATH_ID_MAX} characters`,
        ErrorCode.RequestValidationError,
      );
    }
    return value;
  }
}

/** `@PathId('task_id') id: string`: a path parameter with the shared 1–128 length rule. */
export function PathId(name: string): ParameterDecorator {
  return Param(name, new PathIdPipe(name));
}
