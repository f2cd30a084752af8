#!/usr/bin/env node
// `npm run new:module -- NAME [--entity SINGULAR]`: scaffolds a feature module in the house pattern
// (public face, module, controller, service and its spec, repository, mapper, DTOs), its entity and an
// e2e spec skeleton. It registers the entity, the module and a not-found error code, then prints the
// steps left to do by hand (the migration first). It refuses to overwrite anything and writes all or
// nothing. `--root DIR` runs it on another checkout (the scaffold's own test uses a temporary copy).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const templates = require('./new-module.templates');

const NAME_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const MAX_NAME = 40;
// Words that cannot name a constructor parameter or a variable (a one-word module's camelCase name).
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await index'
  ).split(' '),
);

/** Parses the command line: the module name and the options. */
function parseArgs(argv) {
  const args = { name: '', entity: '', root: path.resolve(__dirname, '..') };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--entity' || arg === '--root') {
      const value = argv[i + 1];
      if (value === undefined) {
        throw new Error(`${arg} needs a value`);
      }
      if (arg === '--root') {
        args.root = path.resolve(value);
      } else {
        args.entity = value;
      }
      i += 1;
    } else if (arg.startsWith('-')) {
      throw new Error(`unknown option ${arg}`);
    } else if (args.name) {
      throw new Error(`one module name only (got "${args.name}" and "${arg}")`);
    } else {
      args.name = arg;
    }
  }
  return args;
}

/** Refuses a name that is not kebab-case, too long, or a reserved word. */
function assertKebab(value, what) {
  if (!NAME_PATTERN.test(value) || value.length > MAX_NAME) {
    throw new Error(
      `${what} "${value}" must be kebab-case (lower-case letters and digits, words joined by single hyphens, ` +
        `starting with a letter), at most ${MAX_NAME} characters`,
    );
  }
  if (RESERVED.has(value)) {
    throw new Error(`${what} "${value}" is a reserved word in TypeScript`);
  }
}

/** The singular of a kebab-case name, by the plain English rules on its last word. */
function singularOf(name) {
  const words = name.split('-');
  const last = words[words.length - 1];
  let singular = last;
  if (/[^aeiou]ies$/.test(last)) {
    singular = last.slice(0, -3) + 'y';
  } else if (/(ss|x|ch|sh)es$/.test(last)) {
    singular = last.slice(0, -2);
  } else if (/[^isu]s$/.test(last) && last.length > 3) {
    singular = last.slice(0, -1);
  }
  return [...words.slice(0, -1), singular].join('-');
}

/** The spellings of one kebab-case name. */
function spellings(kebab) {
  const words = kebab.split('-');
  const pascal = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return {
    kebab,
    pascal,
    camel: pascal[0].toLowerCase() + pascal.slice(1),
    snake: words.join('_'),
    words: words.join(' '),
    Words: words.join(' ').replace(/^./, (c) => c.toUpperCase()),
  };
}

/** Every name the templates use, derived from the module name and its entity's singular. */
function namesFor(name, entity) {
  assertKebab(name, 'Module name');
  const singular = entity || singularOf(name);
  assertKebab(singular, 'Entity name');
  const plural = spellings(name);
  const one = spellings(singular);
  return {
    module: plural,
    entity: one,
    table: plural.snake,
    idParam: `${one.snake}_id`,
    notFound: `${one.pascal}NotFound`,
    entityClass: `${one.pascal}Entity`,
    responseDto: `${one.pascal}ResponseDto`,
    createDto: `Create${one.pascal}Dto`,
    mapper: `to${one.pascal}`,
    migration: plural.pascal,
  };
}

/** A planned change: a new file, or the new content of an existing one. */
function plan(root, relative, content, existing) {
  return { relative, file: path.join(root, relative), content, existing };
}

/** Inserts `line` (with its newline) before the first line matching `anchor`; null when there is none. */
function insertBefore(text, anchor, line) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => anchor.test(l));
  if (at < 0) {
    return null;
  }
  lines.splice(at, 0, line);
  return lines.join('\n');
}

/** Registers the entity in libs/persistence's entity index (import, export list, ALL_ENTITIES), in file order. */
function registerEntity(text, n) {
  const file = `${n.entity.kebab}.entity`;
  const imports = [...text.matchAll(/^import \{ (\w+Entity)\b[^}]*\} from '\.\/([\w-]+\.entity)';$/gm)].map((m) => ({
    cls: m[1],
    file: m[2],
  }));
  if (imports.length === 0 || imports.some((i) => i.file === file || i.cls === n.entityClass)) {
    return null;
  }
  const next = imports.find((i) => i.file > file);
  const importLine = `import { ${n.entityClass} } from './${file}';`;
  const listLine = `  ${n.entityClass},`;
  if (next) {
    const before = text.replace(new RegExp(`^import \\{ ${next.cls}\\b`, 'm'), (found) => `${importLine}\n${found}`);
    const listed = before.split(`\n  ${next.cls},\n`);
    return listed.length === 3 ? listed.join(`\n${listLine}\n  ${next.cls},\n`) : null;
  }
  const last = imports[imports.length - 1];
  const lines = text.split('\n');
  const importAt = lines.findIndex((l) => l.startsWith(`import { ${last.cls}`));
  lines.splice(importAt + 1, 0, importLine);
  const listed = lines.join('\n').split(`\n  ${last.cls},\n`);
  return listed.length === 3 ? listed.join(`\n  ${last.cls},\n${listLine}\n`) : null;
}

/** Adds `<Entity>NotFound` after the last 3xxx code; the code it has (added or already there). */
function registerNotFoundCode(text, n) {
  const existing = new RegExp(`^\\s+${n.notFound}: (\\d{4}),$`, 'm').exec(text);
  if (existing) {
    return { text, code: Number(existing[1]), added: false };
  }
  const codes = [...text.matchAll(/^\s+\w+: (3\d{3}),$/gm)];
  if (codes.length === 0) {
    return null;
  }
  const last = codes[codes.length - 1];
  const code = Math.max(...codes.map((m) => Number(m[1]))) + 1;
  if (code > 3999) {
    return null;
  }
  const end = (last.index ?? 0) + last[0].length;
  const entry = `\n  /** No ${n.entity.words} has the given id. */\n  ${n.notFound}: ${code},`;
  return { text: text.slice(0, end) + entry + text.slice(end), code, added: true };
}

/** Imports the module in app.module.ts (after the other feature modules); null when the layout is not the known one. */
function registerModule(text, n) {
  const className = `${n.module.pascal}Module`;
  if (text.includes(className)) {
    return null;
  }
  const source = `./modules/${n.module.kebab}`;
  const imports = [...text.matchAll(/^import \{ \w+ \} from '(\.\/modules\/[\w-]+)';$/gm)];
  if (imports.length === 0) {
    return null;
  }
  const next = imports.find((m) => m[1] > source);
  const line = `import { ${className} } from '${source}';`;
  const anchor = next ?? imports[imports.length - 1];
  const at = (anchor.index ?? 0) + (next ? 0 : anchor[0].length + 1);
  const withImport = text.slice(0, at) + line + '\n' + text.slice(at);
  return insertBefore(withImport, /^\s+RealtimeModule,$/, `        ${className},`);
}

/** Works out every file to write; throws before anything is written when one would be overwritten. */
function planModule(root, n) {
  const dir = `apps/api/src/modules/${n.module.kebab}`;
  const entityFile = `libs/persistence/src/entities/${n.entity.kebab}.entity.ts`;
  const e2eFile = `test/e2e/${n.module.kebab}.e2e-spec.ts`;
  for (const target of [dir, entityFile, e2eFile]) {
    if (fs.existsSync(path.join(root, target))) {
      throw new Error(`${target} already exists: choose another name (or --entity for the entity)`);
    }
  }
  const read = (relative) => fs.readFileSync(path.join(root, relative), 'utf8');
  const entityIndex = 'libs/persistence/src/entities/index.ts';
  const registeredEntities = registerEntity(read(entityIndex), n);
  if (registeredEntities === null) {
    throw new Error(`cannot register ${n.entityClass} in ${entityIndex}: is it already there?`);
  }
  const errorCodes = 'libs/domain/src/errors/error-codes.ts';
  const codes = registerNotFoundCode(read(errorCodes), n);
  if (codes === null) {
    throw new Error(`cannot add ${n.notFound} to ${errorCodes}: no free 3xxx code after the last one`);
  }
  const appModule = 'apps/api/src/app.module.ts';
  const registeredModule = registerModule(read(appModule), n);
  const m = n.module.kebab;
  const files = [
    plan(root, `${dir}/index.ts`, templates.index(n)),
    plan(root, `${dir}/${m}.module.ts`, templates.module(n)),
    plan(root, `${dir}/${m}.controller.ts`, templates.controller(n)),
    plan(root, `${dir}/${m}.service.ts`, templates.service(n)),
    plan(root, `${dir}/${m}.service.spec.ts`, templates.serviceSpec(n)),
    plan(root, `${dir}/${m}.repository.ts`, templates.repository(n)),
    plan(root, `${dir}/${m}.mapper.ts`, templates.mapper(n)),
    plan(root, `${dir}/dto/${n.entity.kebab}.dto.ts`, templates.dto(n)),
    plan(root, entityFile, templates.entity(n)),
    plan(root, e2eFile, templates.e2e(n)),
    plan(root, entityIndex, registeredEntities, read(entityIndex)),
  ];
  if (codes.added) {
    files.push(plan(root, errorCodes, codes.text, read(errorCodes)));
  }
  if (registeredModule !== null) {
    files.push(plan(root, appModule, registeredModule, read(appModule)));
  }
  return { dir, files, code: codes.code, moduleRegistered: registeredModule !== null };
}

/** Formats with the project's Prettier settings, so the output is what `prettier --check` expects. */
async function formatAll(files) {
  const prettier = require('prettier');
  for (const f of files) {
    const options = (await prettier.resolveConfig(f.file)) ?? {};
    f.content = await prettier.format(f.content, { ...options, filepath: f.file });
  }
}

/** Writes every planned file; on any failure removes what it created and restores what it changed. */
function writeAll(root, dir, files) {
  const done = [];
  const moduleDir = path.join(root, dir);
  try {
    for (const f of files) {
      fs.mkdirSync(path.dirname(f.file), { recursive: true });
      fs.writeFileSync(f.file, f.content, { flag: f.existing === undefined ? 'wx' : 'w' });
      done.push(f);
    }
  } catch (error) {
    for (const f of done.reverse()) {
      if (f.existing === undefined) {
        fs.rmSync(f.file, { force: true });
      } else {
        fs.writeFileSync(f.file, f.existing);
      }
    }
    fs.rmSync(moduleDir, { recursive: true, force: true });
    throw error;
  }
}

/** The steps the scaffold leaves to the developer, in order. */
function nextSteps(n, result) {
  const steps = [
    `Review the columns of ${n.entityClass}, then write its migration for both dialects:\n       npm run migration:generate -- ${n.migration}`,
    `Add the error codes of the module's other refusals to libs/domain/src/errors/error-codes.ts (one line each).`,
    `Declare the module's channel and events in libs/domain/src/events (channels.ts, event-payloads.ts,\n` +
      `     event-catalogue.ts) before its first write announces one through announce().`,
    `Regenerate the OpenAPI document and commit it:\n       npm run build && npm run openapi`,
    `Name the module, its public face and the ${n.table} table it owns in the module table of docs/architecture.md.`,
    `Check: npm run typecheck && npm run lint, the service spec, then the e2e spec (after npm run build).`,
  ];
  if (!result.moduleRegistered) {
    steps.unshift(
      `Import ${n.module.pascal}Module (from './modules/${n.module.kebab}') in apps/api/src/app.module.ts.`,
    );
  }
  return steps.map((s, i) => `  ${i + 1}. ${s}`).join('\n');
}

/** Scaffolds the module under `root`; returns the report printed by the command. */
async function generate(root, name, entity) {
  const n = namesFor(name, entity);
  const result = planModule(root, n);
  await formatAll(result.files);
  writeAll(root, result.dir, result.files);
  const created = result.files.filter((f) => f.existing === undefined).map((f) => `  ${f.relative}`);
  const changed = result.files.filter((f) => f.existing !== undefined).map((f) => `  ${f.relative}`);
  return [
    `Created the ${n.module.kebab} module (${n.notFound} = ${result.code}):`,
    ...created,
    'Registered in:',
    ...changed,
    'Next:',
    nextSteps(n, result),
  ].join('\n');
}

if (require.main === module) {
  (async () => {
    const args = parseArgs(process.argv.slice(2));
    if (!args.name) {
      throw new Error(
        'usage: npm run new:module -- NAME [--entity SINGULAR]   (NAME in kebab-case, e.g. meeting-rooms)',
      );
    }
    process.stdout.write(`${await generate(args.root, args.name, args.entity)}\n`);
  })().catch((error) => {
    process.stderr.write(`new:module: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

module.exports = { generate, namesFor, singularOf };
