// Shared fixtures of the offboarding specs (excluded from the build).
import type { OffboardingRecordEntity, TaskHandoverEntry } from '@app/persistence';

/** A record of firing Ada (engineering) at its start, or as `overrides` leave it. */
export function offboardingRecord(overrides: Partial<OffboardingRecordEntity> = {}): OffboardingRecordEntity {
  const at = new Date('2026-01-02T03:04:05.000Z');
  return {
    id: 'fire-1',
    agentId: 'agent-ada',
    agentName: 'Ada',
    department: 'engineering',
    reason: 'performance',
    details: 'Missed deadlines.',
    requestedBy: 'ceo',
    step: 'requested',
    version: 1,
    stepLog: [],
    handover: [],
    firedEventId: 'event-fired',
    offboardedEventId: 'event-offboarded',
    teamMessageId: 'message-1',
    teamChannel: null,
    memoryArchiveId: null,
    orgMemoriesPromoted: 0,
    startedAt: at,
    completedAt: null,
    updatedAt: at,
    ...overrides,
  };
}

/** One of Ada's tasks as the hand-over lists it. */
export function handoverEntry(overrides: Partial<TaskHandoverEntry> = {}): TaskHandoverEntry {
  return {
    taskId: 'task-1',
    title: 'Write docs',
    fromStatus: 'in_progress',
    priorityBefore: 'medium',
    priorityAfter: 'high',
    outcome: 'planned',
    toAgentId: null,
    toAgentName: null,
    ...overrides,
  };
}
