import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { AuthSessionsEvents1795282436928 } from './1795282436928-auth-sessions-events';
import { CompanyStructure1795284720793 } from './1795284720793-company-structure';
import { ProviderRuntime1795287671026 } from './1795287671026-provider-runtime';
import { TaskEngine1795291282083 } from './1795291282083-task-engine';
import { IdempotencyKeys1795598708698 } from './1795598708698-idempotency-keys';
import { ListIndexes1795603478664 } from './1795603478664-list-indexes';
import { Messages1795608266780 } from './1795608266780-messages';
import { CostRollups1795608397288 } from './1795608397288-cost-rollups';
import { Approvals1795609012009 } from './1795609012009-approvals';
import { Reports1795609086344 } from './1795609086344-reports';
import { SecurityRecords1795609611301 } from './1795609611301-security-records';
import { BudgetReservations1795609692630 } from './1795609692630-budget-reservations';
import { Artifacts1795609822777 } from './1795609822777-artifacts';
import { SecurityTrust1795620251854 } from './1795620251854-security-trust';
import { DelegationRecords1795620365157 } from './1795620365157-delegation-records';
import { Meetings1795620380907 } from './1795620380907-meetings';
import { RiskRecords1795700000000 } from './1795700000000-risk-records';
import { CostRecordPageIndexes1795700000001 } from './1795700000001-cost-record-page-indexes';
import { TaskAssigneeNameIndex1795700000002 } from './1795700000002-task-assignee-name-index';
import { HistoryReadIndexes1795700000003 } from './1795700000003-history-read-indexes';
import { AuditPageIndexes1795700000004 } from './1795700000004-audit-page-indexes';
import { AgentVersion1795750000000 } from './1795750000000-agent-version';
import { OffboardingRecords1795760044000 } from './1795760044000-offboarding-records';
import { HiringAndOnboarding1795810000001 } from './1795810000001-hiring-and-onboarding';
import { LevelChanges1795820000001 } from './1795820000001-level-changes';
import { AgentMemory1795830000000 } from './1795830000000-agent-memory';
import { HeldRuns1795850000001 } from './1795850000001-held-runs';
import { ToolServers1795860000000 } from './1795860000000-tool-servers';
import { RunStartedAt1795870000000 } from './1795870000000-run-started-at';
import { MemoryReembedding1795877897829 } from './1795877897829-memory-reembedding';

/** Postgres migrations in order. Immutable once merged; add new files at the end. */
export const POSTGRES_MIGRATIONS = [
  InitialSchema1763700000000,
  AuthSessionsEvents1795282436928,
  CompanyStructure1795284720793,
  ProviderRuntime1795287671026,
  TaskEngine1795291282083,
  IdempotencyKeys1795598708698,
  ListIndexes1795603478664,
  Messages1795608266780,
  CostRollups1795608397288,
  Approvals1795609012009,
  Reports1795609086344,
  SecurityRecords1795609611301,
  BudgetReservations1795609692630,
  Artifacts1795609822777,
  SecurityTrust1795620251854,
  DelegationRecords1795620365157,
  Meetings1795620380907,
  RiskRecords1795700000000,
  CostRecordPageIndexes1795700000001,
  TaskAssigneeNameIndex1795700000002,
  HistoryReadIndexes1795700000003,
  AuditPageIndexes1795700000004,
  AgentVersion1795750000000,
  OffboardingRecords1795760044000,
  HiringAndOnboarding1795810000001,
  LevelChanges1795820000001,
  AgentMemory1795830000000,
  HeldRuns1795850000001,
  ToolServers1795860000000,
  RunStartedAt1795870000000,
  MemoryReembedding1795877897829,
];
