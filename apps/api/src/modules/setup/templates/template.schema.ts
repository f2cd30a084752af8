import {
  AUTONOMY_LEVELS,
  CEREMONY_STRATEGIES,
  COMMUNICATION_PATTERNS,
  MODEL_TIERS,
  SENIORITY_LEVELS,
  WORKFLOWS,
} from '@app/domain';
import { z } from 'zod';

/** Largest number of agents a single roster entry may expand to. */
export const MAX_AGENTS_PER_ENTRY = 50;

/** Template variable types, as spelled in template files. */
export const TEMPLATE_VARIABLE_TYPES = ['str', 'int', 'float', 'bool'] as const;

/** A whole-value `{{variable}}` reference, as used by an agent entry's `count`. */
export const VARIABLE_REFERENCE = /^\{\{\s*([a-z][a-z0-9_]*)\s*\}\}$/;

const slug = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, 'expected lower_snake_case (a-z, 0-9, _; starting with a letter)')
  .max(64);
const text = z.string().trim().min(1, 'must not be empty');
const shortText = text.max(200);
const tag = z
  .string()
  .regex(/^[a-z0-9]+([-_][a-z0-9]+)*$/, 'expected a lower-case tag (a-z, 0-9, - or _)')
  .max(40);
const skillPattern = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'expected a short kebab-case pattern such as web-development')
  .max(40);

const variableSchema = z
  .strictObject({
    name: slug,
    description: shortText,
    var_type: z.enum(TEMPLATE_VARIABLE_TYPES),
    default: z.union([z.string(), z.number(), z.boolean(), z.null()]).default(null),
    required: z.boolean().default(false),
  })
  .superRefine((variable, ctx) => {
    if (variable.default !== null && !valueMatchesType(variable.default, variable.var_type)) {
      ctx.addIssue({ code: 'custom', path: ['default'], message: `the default is not a valid ${variable.var_type}` });
    }
  });

const companySchema = z.strictObject({
  type: slug,
  budget_monthly: z.number().positive().finite(),
  autonomy: z.enum(AUTONOMY_LEVELS).default('semi'),
  communication: z.enum(COMMUNICATION_PATTERNS).default('hybrid'),
});

const departmentSchema = z.strictObject({
  name: slug,
  budget_percent: z.number().min(0).max(100),
  head_role: shortText.optional(),
});

const agentSchema = z.strictObject({
  role: shortText,
  name: shortText.optional(),
  level: z.enum(SENIORITY_LEVELS),
  model: z.enum(MODEL_TIERS),
  personality_preset: slug,
  department: slug,
  /** A literal number of agents or a `{{variable}}` naming an int variable. */
  count: z
    .union([
      z.number().int().min(0).max(MAX_AGENTS_PER_ENTRY),
      z.string().regex(VARIABLE_REFERENCE, 'expected an integer or a "{{variable}}" reference'),
    ])
    .default(1),
  /** Level of the first agent an entry expands to (the rest use `level`), e.g. a senior among mids. */
  first_level: z.enum(SENIORITY_LEVELS).optional(),
  /** Model tier of the first agent an entry expands to (the rest use `model`). */
  first_model: z.enum(MODEL_TIERS).optional(),
});

export const templateFileSchema = z
  .strictObject({
    name: slug,
    display_name: shortText,
    description: text.max(2000),
    version: z.string().regex(/^\d+\.\d+(\.\d+)?$/, 'expected a version such as 1.0.0 (quote it in YAML)'),
    min_agents: z.number().int().min(0),
    max_agents: z.number().int().min(1),
    tags: z.array(tag).default([]),
    skill_patterns: z.array(skillPattern).default([]),
    variables: z.array(variableSchema).default([]),
    company: companySchema,
    workflow: z.enum(WORKFLOWS).default('kanban'),
    ceremony_strategy: z.enum(CEREMONY_STRATEGIES).nullable().default(null),
    departments: z.array(departmentSchema).min(1, 'a template needs at least one department'),
    agents: z.array(agentSchema).min(1, 'a template needs at least one agent'),
  })
  .superRefine((template, ctx) => {
    if (template.min_agents > template.max_agents) {
      ctx.addIssue({ code: 'custom', path: ['min_agents'], message: 'min_agents is greater than max_agents' });
    }

    const variables = new Map<string, TemplateVariableFile>();
    template.variables.forEach((variable, index) => {
      if (variables.has(variable.name)) {
        ctx.addIssue({ code: 'custom', path: ['variables', index, 'name'], message: `duplicate variable` });
      }
      variables.set(variable.name, variable);
    });
    const budget = variables.get('budget');
    if (budget) {
      const index = template.variables.indexOf(budget);
      if (budget.var_type !== 'float' && budget.var_type !== 'int') {
        ctx.addIssue({ code: 'custom', path: ['variables', index, 'var_type'], message: 'budget must be a number' });
      } else if (budget.default !== null && budget.default !== template.company.budget_monthly) {
        ctx.addIssue({
          code: 'custom',
          path: ['variables', index, 'default'],
          message: 'the budget default must equal company.budget_monthly',
        });
      }
    }

    const departments = new Set<string>();
    let percentTotal = 0;
    template.departments.forEach((department, index) => {
      if (departments.has(department.name)) {
        ctx.addIssue({ code: 'custom', path: ['departments', index, 'name'], message: 'duplicate department' });
      }
      departments.add(department.name);
      percentTotal += department.budget_percent;
    });
    // Rounded so that shares such as 33.3 + 33.3 + 33.4 are not rejected by float error.
    if (Math.round(percentTotal * 1000) / 1000 > 100) {
      ctx.addIssue({
        code: 'custom',
        path: ['departments'],
        message: `department budget_percent values add up to ${percentTotal}, more than 100`,
      });
    }

    const roles = new Set(template.agents.map((agent) => agent.role));
    template.departments.forEach((department, index) => {
      if (department.head_role !== undefined && !roles.has(department.head_role)) {
        ctx.addIssue({
          code: 'custom',
          path: ['departments', index, 'head_role'],
          message: `no agent in the roster has the role "${department.head_role}"`,
        });
      }
    });

    template.agents.forEach((agent, index) => {
      if (!departments.has(agent.department)) {
        ctx.addIssue({
          code: 'custom',
          path: ['agents', index, 'department'],
          message: `department "${agent.department}" is not declared in departments`,
        });
      }
      if (typeof agent.count === 'string') {
        const reference = variableReference(agent.count) ?? '';
        const variable = variables.get(reference);
        if (!variable || variable.var_type !== 'int') {
          ctx.addIssue({
            code: 'custom',
            path: ['agents', index, 'count'],
            message: `"${reference}" is not a declared int variable`,
          });
        } else if (variable.default === null) {
          ctx.addIssue({
            code: 'custom',
            path: ['agents', index, 'count'],
            message: `variable "${reference}" is used as a count and needs a default`,
          });
        }
      }
      if (agent.name !== undefined && agent.count !== 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['agents', index, 'name'],
          message: 'a fixed name is only allowed on an entry with count 1',
        });
      }
    });
  });

export type TemplateFile = z.output<typeof templateFileSchema>;
export type TemplateVariableFile = z.output<typeof variableSchema>;
export type TemplateAgentFile = z.output<typeof agentSchema>;
export type TemplateVariableType = (typeof TEMPLATE_VARIABLE_TYPES)[number];

/** The variable name inside a whole-value `{{variable}}` reference, or null when the text is not one. */
export function variableReference(value: string): string | null {
  const match = VARIABLE_REFERENCE.exec(value);
  return match ? (match[1] ?? null) : null;
}

/** Whether a value is acceptable for a variable type (no coercion: numbers must be numbers). */
export function valueMatchesType(value: unknown, type: TemplateVariableType): boolean {
  switch (type) {
    case 'str':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'bool':
      return typeof value === 'boolean';
  }
}
