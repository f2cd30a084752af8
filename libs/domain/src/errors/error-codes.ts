// The single catalogue of 4-digit error codes. The first digit is the category band
// (1 auth, 2 validation, 3 not_found, 4 conflict, 5 rate_limit, 6 budget_exhausted, 7 provider_error, 8 internal).
// Codes are part of the wire contract: never renumber, only add.
export const ErrorCode = {
  // 1xxx auth
  Unauthorized: 1000,
  Forbidden: 1001,
  SessionRevoked: 1002,
  AccountLocked: 1003,
  CsrfRejected: 1004,
  // 2xxx validation
  ValidationError: 2000,
  RequestValidationError: 2001,
  ConfigValidationError: 2005,
  SeniorityAutonomyViolation: 2012,
  /** A local-model operation (pull, delete, launch config) on a provider whose preset does not support it. */
  ProviderCapabilityUnsupported: 2013,
  /** Discovery or probing refused: the target resolves to a private, loopback, link-local or metadata address. */
  UnsafeDiscoveryTarget: 2014,
  /** The model router could not resolve a model for the request (e.g. manual routing without an override). */
  RoutingUnresolved: 2015,
  /** A JSON body nests arrays or objects deeper than the server accepts. */
  RequestNestingTooDeep: 2016,
  /** A provider's endpoint changed without its credentials being given again in the same request. */
  ProviderCredentialsRequired: 2017,
  // 3xxx not_found
  ResourceNotFound: 3000,
  RecordNotFound: 3001,
  RouteNotFound: 3002,
  ProjectNotFound: 3003,
  TaskNotFound: 3004,
  ModelNotFound: 3011,
  AgentNotFound: 3013,
  DepartmentNotFound: 3014,
  UserNotFound: 3016,
  SessionNotFound: 3017,
  CompanyNotFound: 3018,
  PersonalityPresetNotFound: 3019,
  ProviderNotFound: 3020,
  TemplateNotFound: 3021,
  ProviderPresetNotFound: 3022,
  // 4xxx conflict
  ResourceConflict: 4000,
  DuplicateRecord: 4001,
  VersionConflict: 4002,
  TaskVersionConflict: 4003,
  SetupAlreadyComplete: 4010,
  BuiltinPresetImmutable: 4011,
  /** A provider cannot be deleted while agents are assigned to its models. */
  ProviderInUse: 4012,
  AgentRuntimeNotConfigured: 4014,
  /** A task transition the state machine does not allow. */
  InvalidTaskTransition: 4015,
  /** The task is completed or cancelled: no further transition (including cancel). */
  TaskAlreadyTerminal: 4016,
  /** The write breaks the assignment invariant (created has no assignee; assigned…completed need one). */
  TaskAssignmentConflict: 4017,
  /** The assignee cannot take the task (not active). */
  AgentNotAvailable: 4018,
  // 5xxx rate_limit
  RateLimited: 5000,
  PerOperationRateLimited: 5001,
  ConcurrencyLimitExceeded: 5002,
  // 6xxx budget_exhausted
  BudgetExhausted: 6000,
  DailyLimitExceeded: 6001,
  RiskBudgetExhausted: 6002,
  ProjectBudgetExhausted: 6003,
  QuotaExhausted: 6004,
  // 7xxx provider_error
  ProviderError: 7000,
  ProviderTimeout: 7001,
  ProviderConnection: 7002,
  ProviderInternal: 7003,
  ProviderAuthenticationFailed: 7004,
  ProviderInvalidRequest: 7005,
  ProviderContentFiltered: 7006,
  /** The OAuth token endpoint refused or failed the client-credentials exchange. */
  ProviderOAuthError: 7008,
  /** The provider answered 429: its own rate limit (retryable, with the provider's reset when given). */
  ProviderRateLimited: 7010,
  // 8xxx internal
  InternalError: 8000,
  ServiceUnavailable: 8001,
  PersistenceError: 8002,
  EngineError: 8003,
  SettingsEncryptionError: 8014,
  SinkConfigValidationError: 8015,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_CATEGORIES = [
  'auth',
  'validation',
  'not_found',
  'conflict',
  'rate_limit',
  'budget_exhausted',
  'provider_error',
  'internal',
] as const;

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** The category is the code's band: 1xxx → auth … 8xxx → internal. */
export function categoryOf(code: number): ErrorCategory {
  const band = Math.floor(code / 1000);
  const category = ERROR_CATEGORIES[band - 1];
  if (!category || code < 1000 || code > 8999) {
    throw new RangeError(`error code ${code} is not a 4-digit code in a known band`);
  }
  return category;
}

export const CATEGORY_TITLES: Readonly<Record<ErrorCategory, string>> = {
  auth: 'Authentication Error',
  validation: 'Validation Error',
  not_found: 'Resource Not Found',
  conflict: 'Resource Conflict',
  rate_limit: 'Rate Limit Exceeded',
  budget_exhausted: 'Budget Exhausted',
  provider_error: 'Provider Error',
  internal: 'Internal Server Error',
};

export const ERROR_DOCS_BASE = 'https://synthorg.io/docs/errors';

export function categoryTypeUri(category: ErrorCategory): string {
  return `${ERROR_DOCS_BASE}#${category}`;
}
