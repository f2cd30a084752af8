// The single catalogue of 4-digit error codes. The first digit is the category band
// (1 auth, 2 validation, 3 not_found, 4 conflict, 5 rate_limit, 6 budget_exhausted, 7 provider_error, 8 internal).
// Codes are part of the wire contract: never renumber, only add. Every refusal a service throws names its
// specific code (2001 for a malformed request field, as the validation pipe reports it). The generic codes of a
// band (2000, 3000, 4000) are left to the framework's own failures and to the few answers whose code clients
// already rely on.
export const ErrorCode = {
  // 1xxx auth
  Unauthorized: 1000,
  Forbidden: 1001,
  SessionRevoked: 1002,
  AccountLocked: 1003,
  CsrfRejected: 1004,
  /** The agent's tool access (access level, allowed and denied lists) does not grant the tool it called. */
  ToolPermissionDenied: 1007,
  /** The delegator has no authority over the delegatee: not a subordinate, skip-level off, or outside `can_delegate_to`. */
  DelegationNotAuthorized: 1010,
  /** A manager edited an agent outside the department they manage, or moved one into another department (403). */
  AgentOutsideManagedDepartment: 1999,
  /** A manager filed, chose or instantiated a hiring request for a department they do not manage (403). */
  HiringOutsideManagedDepartment: 1980,
  // 2xxx validation
  ValidationError: 2000,
  RequestValidationError: 2001,
  /** Artifact content over the per-artifact size limit (413). */
  ArtifactTooLarge: 2002,
  ConfigValidationError: 2005,
  SeniorityAutonomyViolation: 2012,
  /** A local-model operation (pull, delete, launch config) on a provider whose preset does not support it. */
  ProviderCapabilityUnsupported: 2013,
  /** Discovery or probing refused: the target resolves to a private, loopback, link-local or metadata address. */
  UnsafeDiscoveryTarget: 2014,
  /** The model router could not resolve a model for the request (e.g. manual routing without an override). */
  RoutingUnresolved: 2015,
  /** The discovery allowlist is full: remove an entry before adding another. */
  DiscoveryAllowlistFull: 2016,
  /** A provider name breaks the naming rule (2-64 lower-case letters, digits, inner hyphens) or is reserved. */
  ProviderNameInvalid: 2017,
  /** A provider's auth settings do not fit together (auth type, secrets, header name, subscription terms, preset). */
  ProviderAuthInvalid: 2018,
  /** A provider has no base_url and neither its preset nor its gateway provider supplies one. */
  ProviderEndpointRequired: 2019,
  /** A provider's model list is too long or uses one id or alias twice. */
  ProviderModelsInvalid: 2020,
  /** A provider's degradation names the provider itself as its fallback. */
  ProviderFallbackInvalid: 2021,
  /** A provider URL (base_url, OAuth token URL) is not an absolute http(s) URL without credentials or fragment. */
  ProviderUrlInvalid: 2022,
  /** A workspace operation got an unusable argument (a task id unsafe as a path, an empty commit message). */
  WorkspaceArgumentInvalid: 2023,
  /** A domain event is malformed (channel, event type, payload or timestamp). */
  EventMalformed: 2024,
  /** The `Idempotency-Key` header is empty, longer than 255 characters or not visible ASCII. */
  IdempotencyKeyInvalid: 2025,
  /** The `Idempotency-Key` was already used for this route and resource with a different request (422). */
  IdempotencyKeyMismatch: 2026,
  /** A JSON body nests arrays or objects deeper than the server accepts. */
  RequestNestingTooDeep: 2027,
  /** A provider's endpoint changed without its credentials being given again in the same request. */
  ProviderCredentialsRequired: 2028,
  /** `budget.auto_downgrade_map` is not a list of distinct [from, to] model alias pairs. */
  BudgetDowngradeMapInvalid: 2030,
  /** `period` of the analytics trends is not 7d, 30d or 90d. */
  TrendPeriodInvalid: 2035,
  /** `metric` of the analytics trends is not one of spend, tasks_completed, active_agents, success_rate. */
  TrendMetricInvalid: 2036,
  /** `horizon_days` of the analytics forecast is not an integer from 1 to 90. */
  ForecastHorizonOutOfRange: 2037,
  /** A report `period` other than daily, weekly or monthly. */
  ReportPeriodInvalid: 2038,
  /** A report `template` the service does not know. */
  ReportTemplateInvalid: 2039,
  /** A setting value is not of its declared type (int, float, bool, json). */
  SettingTypeInvalid: 2040,
  /** A setting value is not one of its enum values. */
  SettingEnumInvalid: 2041,
  /** A numeric setting value is outside its min/max range. */
  SettingOutOfRange: 2042,
  /** A string setting value does not match its pattern. */
  SettingPatternMismatch: 2043,
  /** A setting value is longer than the stored text allows. */
  SettingValueTooLong: 2044,
  /** A log sink setting (sink_overrides, custom_sinks) breaks a sink rule; the message names the field. */
  SinkSettingInvalid: 2045,
  /** A security configuration import names no setting, an unknown one, or gives one no value; the message names the field. */
  SecurityImportInvalid: 2046,
  /** An action type is neither one of the 26 `category:action` types nor a category name; the message names it. */
  SecurityActionTypeUnknown: 2070,
  /** The sandbox overrides setting is not an object of tool categories to sandbox backends. */
  SandboxConfigInvalid: 2071,
  /** A restore was asked for without `confirm: true`. */
  BackupRestoreNotConfirmed: 2050,
  /** A restore names a component the backup does not hold. */
  BackupComponentNotInBackup: 2051,
  /** An archive entry is unsafe to extract (absolute path, `..`, link or special file). */
  BackupArchiveUnsafe: 2052,
  /** A backup cannot start: too little free space at the target. */
  BackupInsufficientSpace: 2053,
  /** A backup component cannot be produced or restored on this backend (missing tool or source). */
  BackupComponentUnavailable: 2054,
  /** An approval timeout setting (tiers, escalation chain) does not have the documented shape. */
  ApprovalPolicyInvalid: 2055,
  /** Approval metadata has more than 20 keys, or a key or value that is not a string of at most 256 characters. */
  ApprovalMetadataInvalid: 2056,
  /** An audit query's time range ends before it starts. */
  AuditRangeInvalid: 2057,
  /** A message's content is blank or too long. */
  MessageContentInvalid: 2060,
  /** Not one of the message types. */
  MessageTypeInvalid: 2061,
  /** Not one of the message priorities. */
  MessagePriorityInvalid: 2062,
  /** A channel name that is not `#` and lower-case words. */
  ChannelNameInvalid: 2063,
  /** A message's recipient cannot be reached (a direct message to oneself, or to no agent). */
  MessageRecipientInvalid: 2064,
  /** An artifact id that is not safe as a file name (path traversal, separators). */
  ArtifactIdInvalid: 2065,
  /** An artifact's path is empty, absolute or leaves its root. */
  ArtifactPathInvalid: 2066,
  /** Not one of the artifact types (code, tests, documentation). */
  ArtifactTypeInvalid: 2067,
  /** An upload that is not a raw body or a multipart form with one file. */
  ArtifactUploadInvalid: 2068,
  /** A Range header that cannot be served (416). */
  ArtifactRangeInvalid: 2069,
  /** A meeting trigger whose event name is blank or whose context breaks the context limits. */
  MeetingTriggerInvalid: 2090,
  /** A `coordination.meeting_types` value that is not a valid list of meeting types. */
  MeetingTypesSettingInvalid: 2091,
  /** The decompose phase of a coordination failed (no usable decomposition: malformed, too large, a cycle). */
  CoordinationDecomposeFailed: 2085,
  /** The route phase of a coordination failed (a subtask no agent can take). */
  CoordinationRouteFailed: 2086,
  /** The validate phase of a coordination failed (nothing routable, the parent not coordinable). */
  CoordinationValidateFailed: 2087,
  /** A coordination request names an agent that is not on the roster or not active. */
  CoordinationAgentUnknown: 2088,
  /** An agent edit names a model provider that is not registered. */
  AgentProviderUnknown: 2999,
  /** An agent edit names a model (or fallback model) that no registered provider offers. */
  AgentModelUnknown: 2998,
  /** An agent edit moves the agent into a department the company does not have. */
  AgentDepartmentUnknown: 2997,
  /** An agent edit names a personality preset that is neither built in nor custom. */
  AgentPersonalityPresetUnknown: 2996,
  /** A hiring request's department is not one of the company's. */
  HiringDepartmentUnknown: 2980,
  /** A hiring request's `template_name` names no template. */
  HiringTemplateUnknown: 2981,
  /** The candidate id chosen is not one of the request's candidates. */
  HiringCandidateUnknown: 2982,
  /** No registered provider offers a model, so no candidate can be given one. */
  HiringNoModel: 2983,
  /** A hiring request's role, reason or a required skill is blank after trimming. */
  HiringRequestBlank: 2984,
  /** A tool server's configuration is invalid (name, transport fields, env names, tool action types, allowlist). */
  ToolServerInvalid: 2900,
  /** A tool server's destination (command, args, URL) changed without its secrets given again or cleared. */
  ToolServerSecretsMustFollow: 2901,
  /** An MCP request to the service's own server is malformed (not a JSON-RPC message the endpoint takes). */
  McpRequestInvalid: 2902,
  /** The configured embedding provider speaks a protocol without an embeddings endpoint (Anthropic). */
  MemoryEmbedderUnsupported: 2940,
  /** A memory search's query is empty once trimmed, or longer than the embedder accepts. */
  MemoryQueryInvalid: 2941,
  /** A memory consolidation setting (category retention) is malformed. */
  MemoryConsolidationSettingInvalid: 2945,
  // 3xxx not_found
  ResourceNotFound: 3000,
  RecordNotFound: 3001,
  RouteNotFound: 3002,
  ProjectNotFound: 3003,
  TaskNotFound: 3004,
  /** No message channel of that name. */
  ChannelNotFound: 3007,
  ModelNotFound: 3011,
  /** No backup has the given id (a malformed id is reported the same way). */
  BackupNotFound: 3015,
  AgentNotFound: 3013,
  DepartmentNotFound: 3014,
  UserNotFound: 3016,
  SessionNotFound: 3017,
  CompanyNotFound: 3018,
  PersonalityPresetNotFound: 3019,
  ProviderNotFound: 3020,
  TemplateNotFound: 3021,
  ProviderPresetNotFound: 3022,
  /** No workspace exists for the task (never created, or already removed). */
  WorkspaceNotFound: 3023,
  /** No approval item has the given id. */
  ApprovalNotFound: 3024,
  /** No artifact has that id, or it has no content yet. */
  ArtifactNotFound: 3025,
  /** No message has the given id. */
  MessageNotFound: 3026,
  /** No stored report has the given id. */
  ReportNotFound: 3032,
  /** No settings namespace of that name. */
  SettingNamespaceNotFound: 3040,
  /** The namespace declares no setting of that key. */
  SettingNotFound: 3041,
  /** No meeting has the given id. */
  MeetingNotFound: 3042,
  /** The agent was never fired: it has no offboarding record. */
  OffboardingNotFound: 3099,
  /** No hiring request has the id. */
  HiringRequestNotFound: 3080,
  /** The agent has no onboarding checklist (it was not hired through a hiring request). */
  OnboardingNotFound: 3081,
  /** No tool server has the given name. */
  ToolServerNotFound: 3090,
  /** The tool server has no tool of that name (in its last discovered list). */
  ToolServerToolNotFound: 3091,
  /** The agent has no memory entry with the given id. */
  MemoryEntryNotFound: 3050,
  /** No organisation fact has the given id. */
  OrgFactNotFound: 3051,
  // 4xxx conflict
  ResourceConflict: 4000,
  DuplicateRecord: 4001,
  VersionConflict: 4002,
  TaskVersionConflict: 4003,
  /** A backup, restore or delete is already running (on this or another replica). */
  BackupInProgress: 4009,
  /** The approval item was already approved or rejected (the reference's ESCALATION_ALREADY_DECIDED). */
  ApprovalAlreadyDecided: 4006,
  /** A channel of that name exists already. */
  ChannelAlreadyExists: 4005,
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
  /** The last CEO can be neither demoted nor deleted: the organisation always keeps one. */
  LastCeoRequired: 4019,
  /** A user cannot delete their own account. */
  SelfDeletionRefused: 4020,
  /** The built-in system identity cannot be modified or deleted. */
  SystemIdentityImmutable: 4021,
  /** The first request with this `Idempotency-Key` is still running (retryable). */
  IdempotencyKeyInFlight: 4022,
  /** The approval item expired before a decision: it can no longer be approved or rejected. */
  ApprovalExpired: 4023,
  /** The delegatee is already in the task's delegation chain: the delegation would loop. */
  DelegationAncestryLoop: 4061,
  /** The delegation chain would exceed `max_delegation_depth`. */
  DelegationDepthExceeded: 4062,
  /** The same work went to the same delegatee within `dedup_window_seconds`. */
  DelegationDuplicate: 4063,
  /** The configured meeting types (company setting or a department's ceremony policy) are invalid. */
  MeetingTypesInvalid: 4024,
  /** A new agent (or a rename) would take the name of a former, terminated agent: names are not reused. */
  AgentNameRetired: 4098,
  /** The agent has been fired already (its offboarding is under way or finished) or is terminated. */
  AgentAlreadyFired: 4099,
  /** The agent's level changed less than the promotion cooldown (`promotion_cooldown_hours`) ago. */
  LevelChangeCooldown: 4070,
  /** The agent cannot be evaluated for a level change: it is not active (onboarding, on leave or terminated). */
  AgentNotEvaluable: 4071,
  /** Promotion and demotion are switched off (`company.promotion_enabled`). */
  PromotionsDisabled: 4072,
  /** Only a terminated agent's name can be released for reuse. */
  AgentNameNotReleasable: 4073,
  /** The terminated agent's name was released already. */
  AgentNameAlreadyReleased: 4074,
  /** A request to fire the agent already waits in the approvals queue. */
  FireRequestPending: 4075,
  /** The agent is terminated: its configuration can no longer be edited. */
  AgentTerminated: 4999,
  /** An agent status change the edit route does not make (only active <-> on_leave; hiring, onboarding and firing have their own). */
  AgentStatusChangeInvalid: 4998,
  /** The hiring request still waits for a decision: only an approved request is instantiated. */
  HiringRequestPending: 4080,
  /** The hiring request was rejected: it can no longer be instantiated or changed. */
  HiringRequestRejected: 4081,
  /** The hiring request was already instantiated: its agent exists. */
  HiringRequestInstantiated: 4082,
  /** The onboarding has no failed step to retry (it runs, or it is done). */
  OnboardingNotRetryable: 4083,
  /** A tool server of that name is registered already. */
  ToolServerExists: 4090,
  /** The tool server was changed concurrently: reload it and retry. */
  ToolServerVersionConflict: 4091,
  /** The memory entry belongs to an archived (offboarded) agent's memory: read-only. */
  MemoryEntryArchived: 4040,
  // 5xxx rate_limit
  RateLimited: 5000,
  PerOperationRateLimited: 5001,
  ConcurrencyLimitExceeded: 5002,
  /** Too many delegations between two agents in a minute (`max_per_pair_per_minute` plus `burst_allowance`). */
  DelegationRateLimited: 5010,
  /** Work bounced between two agents `bounce_threshold` times: their delegations pause for `cooldown_seconds`. */
  DelegationCircuitOpen: 5011,
  // 6xxx budget_exhausted
  BudgetExhausted: 6000,
  DailyLimitExceeded: 6001,
  RiskBudgetExhausted: 6002,
  ProjectBudgetExhausted: 6003,
  QuotaExhausted: 6004,
  /** The agents' monthly budget limits would add up to more than their department's share of the company budget. */
  DepartmentBudgetLimitExceeded: 6999,
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
  /** A tool server could not be started, reached or listed (the test answer carries it). */
  ToolServerUnavailable: 7090,
  /** A tool server's call failed: it crashed, timed out or answered with a protocol error. */
  ToolServerCallFailed: 7091,
  /** The embedding model answered with the wrong number of vectors, or vectors of the wrong size. */
  EmbeddingMalformed: 7040,
  // 8xxx internal
  InternalError: 8000,
  ServiceUnavailable: 8001,
  PersistenceError: 8002,
  EngineError: 8003,
  /** Restoring a component failed; what was restored so far was rolled back. */
  BackupRestoreFailed: 8012,
  /** A backup's manifest is missing, malformed, or its checksum does not match the files. */
  BackupManifestError: 8013,
  /** A message could not be stored or delivered. */
  CommunicationError: 8005,
  /** The artifact store is full (507). */
  ArtifactStorageFull: 8007,
  SettingsEncryptionError: 8014,
  SinkConfigValidationError: 8015,
  /** No memory backend is wired: no embedding model resolves (GET /memory/status says why). */
  MemoryBackendUnavailable: 8040,
  /** The database cannot be reached (down, restarting, connection lost): 503, retry after a few seconds. */
  DatabaseUnavailable: 8020,
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
