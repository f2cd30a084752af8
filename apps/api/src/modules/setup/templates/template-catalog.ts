import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

import {
  type CompanyPlan,
  ErrorCode,
  NotFoundError,
  type PlannedAgent,
  type TemplateSource,
  type TemplateSummary,
  type TemplateVariable,
  ValidationError,
} from '@app/domain';
import { parse as parseYaml } from 'yaml';
import { type z } from 'zod';

import {
  MAX_AGENTS_PER_ENTRY,
  type TemplateFile,
  templateFileSchema,
  valueMatchesType,
  variableReference,
} from './template.schema';

type VariableValue = string | number | boolean;

interface CatalogEntry {
  file: TemplateFile;
  summary: TemplateSummary;
}

/** At most this many schema problems are listed in one load error. */
const MAX_REPORTED_ISSUES = 10;

/**
 * The company templates found in one directory, validated when loaded. Rendering a template turns it
 * into a {@link CompanyPlan} with its variables applied and every roster entry expanded.
 */
export class TemplateCatalog {
  private readonly entries: ReadonlyMap<string, CatalogEntry>;

  private constructor(entries: Map<string, CatalogEntry>) {
    this.entries = entries;
  }

  /**
   * Where the built-in templates live: `config/templates` of the installation, found from this file
   * (source or compiled) upwards, so it does not depend on the working directory.
   */
  static builtinDir(from: string = __dirname): string {
    for (let dir = resolve(from); ; dir = dirname(dir)) {
      const candidate = join(dir, 'config', 'templates');
      if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) {
        return candidate;
      }
      if (dirname(dir) === dir) {
        return resolve(process.cwd(), 'config', 'templates');
      }
    }
  }

  /**
   * Reads and validates every `*.yaml` file in `dir`. Any problem throws an Error naming the file and
   * the offending path, so a broken template stops startup instead of surfacing later.
   */
  static load(dir: string, source: TemplateSource = 'builtin'): TemplateCatalog {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new Error(`Template directory not found: ${dir}`);
    }
    const files = readdirSync(dir)
      .filter((entry) => entry.endsWith('.yaml'))
      .sort();
    const entries = new Map<string, CatalogEntry>();
    for (const fileName of files) {
      const { file, agentCount } = loadTemplateFile(join(dir, fileName), fileName);
      entries.set(file.name, { file, summary: summarize(file, source, agentCount) });
    }
    return new TemplateCatalog(entries);
  }

  /** A plan with nothing in it, for setting a company up without a template. */
  static blankPlan(): CompanyPlan {
    return {
      templateName: null,
      companyType: 'custom',
      budgetMonthly: 100,
      autonomyLevel: 'semi',
      workflow: 'kanban',
      communicationPattern: 'hybrid',
      ceremonyStrategy: null,
      departments: [],
      agents: [],
    };
  }

  list(): TemplateSummary[] {
    return [...this.entries.keys()].sort().map((name) => this.summary(name));
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  summary(name: string): TemplateSummary {
    return structuredClone(this.entry(name).summary);
  }

  /**
   * Renders a template into a plan. Variables not supplied (or supplied as null) keep their defaults;
   * supplied values must match the declared type exactly, and unknown names are rejected.
   */
  render(name: string, variables: Record<string, unknown> = {}): CompanyPlan {
    const { file } = this.entry(name);
    const values = resolveVariables(file, variables);
    const agents = expandAgents(
      file,
      values,
      (message) => new ValidationError(message, ErrorCode.RequestValidationError),
    );
    const budget = values.get('budget');
    return {
      templateName: file.name,
      companyType: file.company.type,
      budgetMonthly: typeof budget === 'number' ? budget : file.company.budget_monthly,
      autonomyLevel: file.company.autonomy,
      workflow: file.workflow,
      communicationPattern: file.company.communication,
      ceremonyStrategy: file.ceremony_strategy,
      departments: file.departments.map((department) => ({
        name: department.name,
        budgetPercent: department.budget_percent,
        headRole: department.head_role ?? null,
      })),
      agents,
    };
  }

  /** A template's roster with its default variables: the roles hiring offers candidates from. */
  roles(name: string): PlannedAgent[] {
    const { file } = this.entry(name);
    return expandAgents(
      file,
      defaultValues(file),
      (message) => new ValidationError(message, ErrorCode.RequestValidationError),
    );
  }

  private entry(name: string): CatalogEntry {
    const entry = this.entries.get(name);
    if (!entry) {
      throw new NotFoundError(
        `Company template "${name}" not found; GET /api/v1/setup/templates lists them`,
        ErrorCode.TemplateNotFound,
      );
    }
    return entry;
  }
}

function loadTemplateFile(filePath: string, fileName: string): { file: TemplateFile; agentCount: number } {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(filePath, 'utf8'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Template file ${fileName}: invalid YAML: ${message}`, { cause: error });
  }
  const parsed = templateFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`Template file ${fileName}: ${describeIssues(parsed.error.issues)}`);
  }
  const file = parsed.data;
  const stem = basename(fileName, '.yaml');
  if (file.name !== stem) {
    throw new Error(`Template file ${fileName}: name: "${file.name}" must equal the file name "${stem}"`);
  }
  // The defaults must produce a roster the template itself accepts.
  const agents = expandAgents(
    file,
    defaultValues(file),
    (message) => new Error(`Template file ${fileName}: ${message}`),
  );
  return { file, agentCount: agents.length };
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const described = issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_REPORTED_ISSUES) {
    described.push(`... and ${issues.length - MAX_REPORTED_ISSUES} more`);
  }
  return described.join('; ');
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) {
    return '(top level)';
  }
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function summarize(file: TemplateFile, source: TemplateSource, agentCount: number): TemplateSummary {
  return {
    name: file.name,
    displayName: file.display_name,
    description: file.description,
    source,
    tags: [...file.tags],
    skillPatterns: [...file.skill_patterns],
    variables: file.variables.map((variable): TemplateVariable => ({
      name: variable.name,
      description: variable.description,
      varType: variable.var_type,
      default: variable.default,
      required: variable.required,
    })),
    agentCount,
    departmentCount: file.departments.length,
    autonomyLevel: file.company.autonomy,
    workflow: file.workflow,
  };
}

function defaultValues(file: TemplateFile): Map<string, VariableValue> {
  const values = new Map<string, VariableValue>();
  for (const variable of file.variables) {
    if (variable.default !== null) {
      values.set(variable.name, variable.default);
    }
  }
  return values;
}

function resolveVariables(file: TemplateFile, supplied: Record<string, unknown>): Map<string, VariableValue> {
  if (supplied === null || typeof supplied !== 'object' || Array.isArray(supplied)) {
    throw new ValidationError('Template variables must be an object', ErrorCode.RequestValidationError);
  }
  const declared = new Map(file.variables.map((variable) => [variable.name, variable]));
  const values = defaultValues(file);
  for (const [name, value] of Object.entries(supplied)) {
    const variable = declared.get(name);
    if (!variable) {
      throw new ValidationError(
        `Unknown variable "${name}" for template "${file.name}"`,
        ErrorCode.RequestValidationError,
      );
    }
    if (value === undefined || value === null) {
      continue;
    }
    if (!valueMatchesType(value, variable.var_type)) {
      throw new ValidationError(
        `Variable "${name}" must be of type ${variable.var_type}`,
        ErrorCode.RequestValidationError,
      );
    }
    if (variable.required && typeof value === 'string' && value.trim() === '') {
      throw new ValidationError(`Variable "${name}" must not be empty`, ErrorCode.RequestValidationError);
    }
    if (name === 'budget' && (value as number) < 0) {
      throw new ValidationError('Variable "budget" must not be negative', ErrorCode.RequestValidationError);
    }
    values.set(name, value as VariableValue);
  }
  return values;
}

/** Expands every roster entry by its count; `fail` builds the error for a count or total out of range. */
function expandAgents(
  file: TemplateFile,
  values: ReadonlyMap<string, VariableValue>,
  fail: (message: string) => Error,
): PlannedAgent[] {
  const agents: PlannedAgent[] = [];
  for (const entry of file.agents) {
    let count: number;
    if (typeof entry.count === 'number') {
      count = entry.count;
    } else {
      // The schema guarantees the reference names an int variable with a default.
      const variable = variableReference(entry.count) ?? '';
      count = values.get(variable) as number;
      if (!Number.isInteger(count) || count < 0 || count > MAX_AGENTS_PER_ENTRY) {
        throw fail(`Variable "${variable}" must be between 0 and ${MAX_AGENTS_PER_ENTRY}`);
      }
    }
    for (let index = 0; index < count; index++) {
      const first = index === 0;
      agents.push({
        name: entry.name ?? null,
        role: entry.role,
        department: entry.department,
        level: first && entry.first_level ? entry.first_level : entry.level,
        modelTier: first && entry.first_model ? entry.first_model : entry.model,
        personalityPreset: entry.personality_preset,
      });
    }
  }
  if (agents.length < file.min_agents || agents.length > file.max_agents) {
    throw fail(
      `Template "${file.name}" would hire ${agents.length} agents; it allows ${file.min_agents} to ${file.max_agents}`,
    );
  }
  return agents;
}
