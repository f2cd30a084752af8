import { OFFBOARDING_STEPS, type OffboardingProgress, offboardingStepReached } from '@app/domain';
import type { OffboardingRecordEntity } from '@app/persistence';

import type { OffboardingRecordDto, OffboardingStepDto } from './dto/offboarding.dto';

/** A record as the API shows it: every step in order, with the done ones' outcome. */
export function toOffboardingRecord(row: OffboardingRecordEntity): OffboardingRecordDto {
  const progress = row.step as OffboardingProgress;
  const steps: OffboardingStepDto[] = OFFBOARDING_STEPS.map((name) => {
    const logged = row.stepLog.find((entry) => entry.step === name);
    if (!logged || !offboardingStepReached(progress, name)) {
      return { name, state: 'pending', completed_at: null, detail: '' };
    }
    return { name, state: logged.outcome, completed_at: logged.at, detail: logged.detail };
  });
  return {
    firing_request_id: row.id,
    agent_id: row.agentId,
    agent_name: row.agentName,
    reason: row.reason,
    details: row.details,
    requested_by: row.requestedBy,
    steps,
    tasks_reassigned: row.handover.filter((t) => t.outcome === 'reassigned').map((t) => t.taskId),
    memory_archive_id: row.memoryArchiveId,
    org_memories_promoted: row.orgMemoriesPromoted,
    team_notification_sent: row.teamChannel !== null,
    started_at: row.startedAt.toISOString(),
    completed_at: row.completedAt ? row.completedAt.toISOString() : null,
  };
}
