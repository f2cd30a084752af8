import type {
  AutonomyLevel,
  CeremonyStrategy,
  CommunicationPattern,
  ModelTier,
  SeniorityLevel,
  Workflow,
} from './enums';

/** A department a company plan will create, with its share of the monthly budget. */
export interface PlannedDepartment {
  name: string;
  /** Share of the monthly budget, 0..100; the shares of one plan add up to at most 100. */
  budgetPercent: number;
  /** Role expected to lead the department, when the plan names one. */
  headRole: string | null;
}

/** One agent a company plan will hire (a template's `count` has already been expanded). */
export interface PlannedAgent {
  /** Display name fixed by the template; null lets the hiring step pick one. */
  name: string | null;
  role: string;
  department: string;
  level: SeniorityLevel;
  modelTier: ModelTier;
  personalityPreset: string;
}

/** Everything needed to stand up a company: either rendered from a template or blank. */
export interface CompanyPlan {
  /** The template the plan was rendered from; null for a blank plan. */
  templateName: string | null;
  companyType: string;
  budgetMonthly: number;
  autonomyLevel: AutonomyLevel;
  workflow: Workflow;
  communicationPattern: CommunicationPattern;
  ceremonyStrategy: CeremonyStrategy | null;
  departments: PlannedDepartment[];
  agents: PlannedAgent[];
}

export type TemplateVariableType = 'str' | 'int' | 'float' | 'bool';

/** A value the person applying a template may supply. */
export interface TemplateVariable {
  name: string;
  description: string;
  varType: TemplateVariableType;
  default: string | number | boolean | null;
  required: boolean;
}

export type TemplateSource = 'builtin' | 'user';

/** What a template offers, without rendering it. */
export interface TemplateSummary {
  name: string;
  displayName: string;
  description: string;
  source: TemplateSource;
  tags: string[];
  skillPatterns: string[];
  variables: TemplateVariable[];
  /** Number of agents the template hires when every variable keeps its default. */
  agentCount: number;
  departmentCount: number;
  autonomyLevel: AutonomyLevel;
  workflow: Workflow;
}
