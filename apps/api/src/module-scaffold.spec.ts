import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { ESLint } from 'eslint';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const GENERATOR = path.join(ROOT, '.ci', 'new-module.js');
const PRETTIER = path.join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
// What the type check and the lint read: the sources and their configuration, not dist or the toolchain.
const COPIED = ['apps', 'libs', 'test', 'tsconfig.json', 'eslint.config.mjs', 'package.json', '.prettierrc.json'];
const run = promisify(execFile);

const NAME = 'scaffold-probes';
const DIR = `apps/api/src/modules/${NAME}`;

/** The files the generator creates for a module and the singular of its resource. */
function createdFiles(name: string, singular: string): string[] {
  const dir = `apps/api/src/modules/${name}`;
  return [
    `${dir}/index.ts`,
    `${dir}/${name}.module.ts`,
    `${dir}/${name}.controller.ts`,
    `${dir}/${name}.service.ts`,
    `${dir}/${name}.service.spec.ts`,
    `${dir}/${name}.repository.ts`,
    `${dir}/${name}.mapper.ts`,
    `${dir}/dto/${singular}.dto.ts`,
    `libs/persistence/src/entities/${singular}.entity.ts`,
    `test/e2e/${name}.e2e-spec.ts`,
  ];
}
const CREATED = createdFiles(NAME, 'scaffold-probe');
// A second module whose name is its own singular, generated beside the first.
const LEDGER = createdFiles('scaffold-ledger', 'scaffold-ledger');
const REGISTERED = [
  'libs/persistence/src/entities/index.ts',
  'libs/domain/src/errors/error-codes.ts',
  'apps/api/src/app.module.ts',
];

/** Runs the generator on the copy; its exit status, output and error output. */
async function generate(root: string, ...args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [GENERATOR, ...args, '--root', root]);
    return { ok: true, stdout, stderr };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string };
    return { ok: false, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Type errors in `files`, checked in the program of the copy's tsconfig (which includes them). */
function typeErrors(root: string, files: string[]): string[] {
  const configFile = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file)) as { config: unknown };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, { noEmit: true }, configFile);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const file of files) {
    const source = program.getSourceFile(path.join(root, file));
    if (!source) {
      return [`${file} is not part of the tsconfig program`];
    }
    diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source));
  }
  return diagnostics.map((d) => {
    const where = d.file ? `${path.relative(root, d.file.fileName)}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** ESLint findings in `files`, with the copy's own configuration (type-aware rules and module boundaries). */
async function lintErrors(root: string, files: string[]): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const results = await eslint.lintFiles(files.map((file) => path.join(root, file)));
  return results.flatMap((r) =>
    r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.ruleId ?? 'fatal'}: ${m.message}`),
  );
}

describe('npm run new:module', () => {
  let root: string;

  beforeAll(() => {
    // A copy of the tree, so nothing is ever generated into the working tree, even by a failing run.
    root = mkdtempSync(path.join(tmpdir(), 'synthorg-scaffold-'));
    for (const entry of COPIED) {
      cpSync(path.join(ROOT, entry), path.join(root, entry), { recursive: true });
    }
    symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(root, 'node_modules'), 'dir');
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('should generate modules that typecheck, lint and are formatted when given new names', async () => {
    const result = await generate(root, NAME);
    expect(result).toMatchObject({ ok: true, stderr: '' });
    expect(result.stdout).toContain('npm run migration:generate -- ScaffoldProbes');
    expect(result.stdout).toMatch(/ScaffoldProbeNotFound = 3\d{3}/);
    for (const file of CREATED) {
      expect(existsSync(path.join(root, file))).toBe(true);
    }
    expect(readFileSync(path.join(root, 'apps/api/src/app.module.ts'), 'utf8')).toContain('ScaffoldProbesModule,');
    expect(readFileSync(path.join(root, REGISTERED[0]), 'utf8').split('ScaffoldProbeEntity,')).toHaveLength(3);

    expect(await generate(root, 'scaffold-ledger')).toMatchObject({ ok: true, stderr: '' });
    for (const file of LEDGER) {
      expect(existsSync(path.join(root, file))).toBe(true);
    }

    const files = [...CREATED, ...LEDGER, ...REGISTERED];
    expect(typeErrors(root, files)).toEqual([]);
    expect(await lintErrors(root, files)).toEqual([]);
    await expect(run(process.execPath, [PRETTIER, '--check', ...files], { cwd: root })).resolves.toBeDefined();
  }, 120_000);

  it('should refuse, changing nothing, when the module exists or the name is not kebab-case', async () => {
    const before = [...CREATED, ...REGISTERED].map((file) => readFileSync(path.join(root, file), 'utf8'));

    const again = await generate(root, NAME);
    expect(again.ok).toBe(false);
    expect(again.stderr).toContain(`${DIR} already exists`);
    const taken = await generate(root, 'idempotency-keys');
    expect(taken.ok).toBe(false);
    expect(taken.stderr).toContain('libs/persistence/src/entities/idempotency-key.entity.ts already exists');
    for (const name of ['Scaffold-Probes', 'scaffold_probes', 'scaffold--probes', '9lives', 'class']) {
      const refused = await generate(root, name);
      expect(refused.ok).toBe(false);
      expect(refused.stderr).toMatch(/must be kebab-case|reserved word/);
    }

    expect([...CREATED, ...REGISTERED].map((file) => readFileSync(path.join(root, file), 'utf8'))).toEqual(before);
    expect(existsSync(path.join(root, 'apps/api/src/modules/Scaffold-Probes'))).toBe(false);
  }, 60_000);
});
