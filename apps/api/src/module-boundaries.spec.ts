import path from 'node:path';

import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../..');
const RULE = 'boundaries/module-faces';

/** Lints `code` as if it were the file at `file` (relative to the repository), with the boundary rule alone. */
async function boundaryErrors(code: string, file: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: ROOT,
    // The type-aware parser setup is not needed by this rule and would build the whole program.
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === RULE,
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

describe('module boundaries (eslint)', () => {
  const setupFile = 'apps/api/src/modules/setup/setup.service.ts';

  it('should report an error when a module imports a repository of another module', async () => {
    const errors = await boundaryErrors("import { AgentsRepository } from '../agents/agents.repository';\n", setupFile);
    expect(errors).toEqual([expect.stringContaining(`${RULE}: '../agents/agents.repository' is a repository`)]);
  });

  it('should report an error when a module reaches past the public face of another module', async () => {
    const errors = await boundaryErrors("import { ModelCatalog } from '../providers/model-catalog';\n", setupFile);
    expect(errors).toEqual([expect.stringContaining("import its public face ('../providers')")]);
  });

  it('should report an error when code outside the modules reaches inside one', async () => {
    const errors = await boundaryErrors(
      "export { CompanyService } from './modules/company/company.service';\n",
      'apps/api/src/app.module.ts',
    );
    expect(errors).toEqual([expect.stringContaining("reaches inside module 'company'")]);
  });

  it('should report an error when a module imports an application folder outside the modules', async () => {
    const errors = await boundaryErrors("import { x } from '../../realtime/event-frames';\n", setupFile);
    expect(errors).toEqual([expect.stringContaining('leaves the module folders')]);
  });

  it('should accept public faces, own files and libraries when they are imported', async () => {
    const code = [
      "import { AgentRoster } from '../agents';",
      "import { CompanyFacade } from '../company/index';",
      "import { SetupService } from './setup.service';",
      "import { NameGenerator } from './names/name-generator';",
      "import { ErrorCode } from '@app/domain';",
      '',
    ].join('\n');
    expect(await boundaryErrors(code, setupFile)).toEqual([]);
    expect(
      await boundaryErrors("import { SetupModule } from './modules/setup';\n", 'apps/api/src/app.module.ts'),
    ).toEqual([]);
  });
});
