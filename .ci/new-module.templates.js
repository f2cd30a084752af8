// The files `npm run new:module` writes, one function per file, from the names new-module.js derives
// (`n.module` for the module's spellings, `n.entity` for its resource's singular). Prettier formats the
// result, so line lengths here do not matter; imports keep the house order (@nestjs, external,
// @app/*, relative).
'use strict';

/** The public face: the module class and the service other modules may use. */
exports.index = (n) => `// The ${n.module.kebab} module's public face: other modules import only from here.
export { ${n.module.pascal}Module } from './${n.module.kebab}.module';
export { ${n.module.pascal}Service } from './${n.module.kebab}.service';
`;

exports.module = (n) => `import { Module } from '@nestjs/common';

import { ${n.module.pascal}Controller } from './${n.module.kebab}.controller';
import { ${n.module.pascal}Repository } from './${n.module.kebab}.repository';
import { ${n.module.pascal}Service } from './${n.module.kebab}.service';

/** ${n.module.Words}: the routes, the use cases and the only writer of the ${n.table} table. */
@Module({
  controllers: [${n.module.pascal}Controller],
  providers: [${n.module.pascal}Repository, ${n.module.pascal}Service],
  exports: [${n.module.pascal}Service],
})
export class ${n.module.pascal}Module {}
`;

exports.controller = (n) => `import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Endpoint, PageQueryDto, PathId, RequiresSubsystems } from '@app/platform';

import { ${n.responseDto} } from './dto/${n.entity.kebab}.dto';
import { ${n.module.pascal}Service } from './${n.module.kebab}.service';

/** The ${n.module.kebab} routes: one-line pass-throughs to the service. */
@ApiTags('${n.module.kebab}')
@ApiBearerAuth()
@Controller('${n.module.kebab}')
@RequiresSubsystems('persistence')
export class ${n.module.pascal}Controller {
  constructor(private readonly ${n.module.camel}: ${n.module.pascal}Service) {}

  @Get()
  @Endpoint({
    summary: '${n.module.Words}, oldest first',
    paged: ${n.responseDto},
    errors: [400, 401, 403],
    permission: Permission.Read,
  })
  list(@Query() query: PageQueryDto): Promise<Page<${n.responseDto}>> {
    return this.${n.module.camel}.list({ offset: query.offset, limit: query.limit });
  }

  @Get(':${n.idParam}')
  @Endpoint({
    summary: 'One ${n.entity.words}',
    response: ${n.responseDto},
    errors: [400, 401, 403, 404],
    permission: Permission.Read,
  })
  get(@PathId('${n.idParam}') id: string): Promise<${n.responseDto}> {
    return this.${n.module.camel}.get(id);
  }
}
`;

exports.service = (n) => `import { Injectable } from '@nestjs/common';

import { ErrorCode, NotFoundError, Page, type PageRequest } from '@app/domain';

import type { ${n.responseDto} } from './dto/${n.entity.kebab}.dto';
import { ${n.mapper} } from './${n.module.kebab}.mapper';
import { ${n.module.pascal}Repository } from './${n.module.kebab}.repository';

/** ${n.module.Words}: each public method is a use case and answers with response DTOs. */
@Injectable()
export class ${n.module.pascal}Service {
  constructor(private readonly ${n.module.camel}: ${n.module.pascal}Repository) {}

  /** One page of ${n.module.words}, oldest first. */
  async list(page: PageRequest): Promise<Page<${n.responseDto}>> {
    const { items, total } = await this.${n.module.camel}.page(page);
    return new Page(items.map(${n.mapper}), total, page.offset, page.limit);
  }

  /** One ${n.entity.words} by id. */
  async get(id: string): Promise<${n.responseDto}> {
    const row = await this.${n.module.camel}.findById(id);
    if (!row) {
      throw new NotFoundError(\`${n.entity.Words} "\${id}" not found\`, ErrorCode.${n.notFound});
    }
    return ${n.mapper}(row);
  }
}
`;

exports.serviceSpec = (n) => `import { ErrorCode, NotFoundError } from '@app/domain';
import type { ${n.entityClass} } from '@app/persistence';
import { makeServiceUnderTest } from '@app/testing';

import { ${n.module.pascal}Repository } from './${n.module.kebab}.repository';
import { ${n.module.pascal}Service } from './${n.module.kebab}.service';

const CREATED = new Date('2026-01-01T00:00:00.000Z');

function make${n.entity.pascal}(overrides: Partial<${n.entityClass}> = {}): ${n.entityClass} {
  return { id: '${n.entity.kebab}-1', name: 'First', createdAt: CREATED, updatedAt: CREATED, ...overrides };
}

describe(${n.module.pascal}Service.name, () => {
  it('should answer one page with the total when ${n.module.words} are listed', async () => {
    const { sut, mock } = makeServiceUnderTest(${n.module.pascal}Service);
    mock(${n.module.pascal}Repository).page.mockResolvedValue({ items: [make${n.entity.pascal}()], total: 3 });

    const page = await sut.list({ offset: 1, limit: 1 });

    expect(mock(${n.module.pascal}Repository).page).toHaveBeenCalledWith({ offset: 1, limit: 1 });
    expect(page).toMatchObject({ total: 3, offset: 1, limit: 1 });
    expect(page.items).toEqual([
      { id: '${n.entity.kebab}-1', name: 'First', created_at: CREATED.toISOString(), updated_at: CREATED.toISOString() },
    ]);
  });

  it('should map the row when the ${n.entity.words} exists', async () => {
    const { sut, mock } = makeServiceUnderTest(${n.module.pascal}Service);
    mock(${n.module.pascal}Repository).findById.mockResolvedValue(make${n.entity.pascal}({ name: 'Second' }));

    await expect(sut.get('${n.entity.kebab}-1')).resolves.toMatchObject({ id: '${n.entity.kebab}-1', name: 'Second' });
  });

  it('should throw ${n.notFound} when no ${n.entity.words} has the id', async () => {
    const { sut, mock } = makeServiceUnderTest(${n.module.pascal}Service);
    mock(${n.module.pascal}Repository).findById.mockResolvedValue(null);

    const failure = sut.get('missing');

    await expect(failure).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.${n.notFound} });
  });
});
`;

exports.repository = (n) => `import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import type { PageRequest } from '@app/domain';
import { ${n.entityClass} } from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

/** The only TypeORM user for ${n.module.words}; a \`tx\` joins the caller's unit of work. */
@Injectable()
export class ${n.module.pascal}Repository {
  constructor(private readonly database: DatabaseService) {}

  private rows(tx?: Transaction): Repository<${n.entityClass}> {
    return this.database.manager(tx).getRepository(${n.entityClass});
  }

  /** One page in list order (oldest first, the id breaking ties), and the total. */
  async page(request: PageRequest, tx?: Transaction): Promise<{ items: ${n.entityClass}[]; total: number }> {
    const [items, total] = await this.rows(tx).findAndCount({
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: request.offset,
      take: request.limit,
    });
    return { items, total };
  }

  findById(id: string, tx?: Transaction): Promise<${n.entityClass} | null> {
    return this.rows(tx).findOneBy({ id });
  }

  async insert(row: ${n.entityClass}, tx?: Transaction): Promise<void> {
    await this.rows(tx).insert(row);
  }
}
`;

exports.mapper = (n) => `import type { ${n.entityClass} } from '@app/persistence';

import type { ${n.responseDto} } from './dto/${n.entity.kebab}.dto';

/** A ${n.entity.words} row as the API shows it: snake_case fields, ISO 8601 times. */
export function ${n.mapper}(row: ${n.entityClass}): ${n.responseDto} {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
`;

exports.dto = (n) => `import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

/** The body that creates a ${n.entity.words}. */
@ApiSchema({ name: 'Create${n.entity.pascal}Request' })
export class ${n.createDto} {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;
}

/** A ${n.entity.words} as the API answers it. */
@ApiSchema({ name: '${n.entity.pascal}Response' })
export class ${n.responseDto} {
  @ApiProperty({ minLength: 1, maxLength: 128 })
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
`;

exports.entity = (n) => `import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A ${n.entity.words}. Written by the ${n.module.kebab} module only; others read through its service. */
@Entity({ name: '${n.table}' })
@Index(['createdAt', 'id'])
export class ${n.entityClass} {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
`;

exports.e2e = (n) => `import { ErrorCode } from '@app/domain';
import { testBackends } from '@app/testing';

import { bearer, expectError, setupCeo, startTestApp, type TestApp } from '../support';

describe.each(testBackends())('${n.module.words} on %s', (backend) => {
  let t: TestApp;
  let ceo: string;

  beforeAll(async () => {
    t = await startTestApp({ backend });
    ceo = await setupCeo(t);
  });

  afterAll(async () => {
    await t.close();
  });

  it('should answer 401 without a token', async () => {
    const list = await t.http.get('/api/v1/${n.module.kebab}').expect(401);
    expectError(list.body, ErrorCode.Unauthorized, 'auth');
    const one = await t.http.get('/api/v1/${n.module.kebab}/${n.entity.kebab}-1').expect(401);
    expectError(one.body, ErrorCode.Unauthorized, 'auth');
  });

  it('should list no ${n.module.words} on a fresh database', async () => {
    const res = await t.http.get('/api/v1/${n.module.kebab}').set(bearer(ceo)).expect(200);
    expect(res.body).toMatchObject({ data: [], error: null, error_detail: null, success: true });
    expect(res.body.pagination).toEqual({ total: 0, offset: 0, limit: 50 });
  });

  it('should answer 404 (${n.notFound}) for an unknown id', async () => {
    const res = await t.http.get('/api/v1/${n.module.kebab}/${n.entity.kebab}-1').set(bearer(ceo)).expect(404);
    expectError(res.body, ErrorCode.${n.notFound}, 'not_found');
  });
});
`;
