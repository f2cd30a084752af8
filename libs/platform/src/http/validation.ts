import {
  applyDecorators,
  Injectable,
  Param,
  type PipeTransform,
  ValidationPipe,
  type ValidationError as ClassValidationError,
} from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsInt, Max, Min, ValidateIf } from 'class-validator';

import {
  ErrorCode,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
  PAGE_OFFSET_MAX,
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

/** Validator options that give a failing constraint its own code: `@IsIn(X, codedRule(ErrorCode.Y))`. */
export function codedRule(code: ErrorCode): { context: { code: ErrorCode } } {
  return { context: { code } };
}

/**
 * The code of a failed request: the one its failing constraints name through `codedRule` when they
 * all name the same one, else the generic 2001.
 */
export function codeOfFailures(errors: ClassValidationError[]): ErrorCode {
  const codes = new Set<unknown>();
  const visit = (list: ClassValidationError[]): void => {
    for (const error of list) {
      for (const name of Object.keys(error.constraints ?? {})) {
        codes.add((error.contexts?.[name] as { code?: unknown } | undefined)?.code);
      }
      visit(error.children ?? []);
    }
  };
  visit(errors);
  const [only] = [...codes];
  return codes.size === 1 && typeof only === 'number' ? (only as ErrorCode) : ErrorCode.RequestValidationError;
}

/** Global pipe: strip nothing silently (unknown fields are errors), transform to DTO classes, 400/2001 on failure. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) =>
      new ValidationError(flatten(errors).join('; ') || 'Invalid request', codeOfFailures(errors)),
  });
}

/**
 * A query-string integer: decimal digits with an optional minus sign and nothing else, so `0x10`,
 * `1e3`, `0b1`, ` 5` or `5.0` stay text and fail the integer rule (400) instead of passing as numbers.
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value,
  );
}

/**
 * `offset` 0–2^53-1 (default 0) and `limit` 1–200 (default 50): shared by every paginated list. The
 * offset's bound keeps a huge number from passing as an "integer" and failing in the database.
 */
export class PageQueryDto implements PageRequest {
  @ApiPropertyOptional({ minimum: 0, maximum: PAGE_OFFSET_MAX, default: 0, type: 'integer' })
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(PAGE_OFFSET_MAX)
  offset: number = 0;

  @ApiPropertyOptional({
    minimum: PAGE_LIMIT_MIN,
    maximum: PAGE_LIMIT_MAX,
    default: PAGE_LIMIT_DEFAULT,
    type: 'integer',
  })
  @QueryInteger()
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

/**
 * A free-form JSON object body that the service validates field by field. Like a DTO body, an
 * absent one (no body, or a content type no parser reads) counts as `{}`; anything but an object is 400.
 */
@Injectable()
export class JsonObjectPipe implements PipeTransform<unknown, Record<string, unknown>> {
  transform(value: unknown): Record<string, unknown> {
    if (value === undefined || value === null) {
      return {};
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new ValidationError('Request body must be a JSON object', ErrorCode.RequestValidationError);
    }
    return value as Record<string, unknown>;
  }
}

/**
 * An optional field that may be left out but not sent as `null` (for fields that nothing can clear):
 * absent skips validation, `null` fails with 400, anything else meets the field's other validators.
 */
export function IsOptionalNonNull(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    IsDefined({ message: '$property must not be null' }),
  );
}
