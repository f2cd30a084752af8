import { type ActivityEvent, type ActivitySource, clipDescription } from '@app/domain';
import type { DelegationRecordEntity } from '@app/persistence';

import type { DelegationRepository } from './delegation.repository';

/**
 * Delegation records in the activity feed: each one is a `delegation_sent` of the delegator and a
 * `delegation_received` of the delegatee; an agent's own feed shows its side only.
 */
export function delegationActivitySource(records: DelegationRepository): ActivitySource {
  return {
    name: 'delegation_record_store',
    eventTypes: ['delegation_sent', 'delegation_received'],
    read: async (since, agentId) => (await records.since(since, agentId)).flatMap((r) => delegationEvents(r, agentId)),
  };
}

export function delegationEvents(record: DelegationRecordEntity, agentId?: string): ActivityEvent[] {
  const timestamp = record.timestamp.toISOString();
  const tasks = { original_task_id: record.originalTaskId, delegated_task_id: record.delegatedTaskId };
  const events: ActivityEvent[] = [];
  if (agentId === undefined || agentId === record.delegatorId) {
    events.push({
      event_type: 'delegation_sent',
      timestamp,
      description: clipDescription(
        `Delegated task ${record.delegatedTaskId} to ${record.delegateeName}: ${record.title}`,
      ),
      related_ids: {
        agent_id: record.delegatorId,
        delegation_id: record.id,
        delegatee_id: record.delegateeId,
        ...tasks,
      },
    });
  }
  if (agentId === undefined || agentId === record.delegateeId) {
    events.push({
      event_type: 'delegation_received',
      timestamp,
      description: clipDescription(
        `Received task ${record.delegatedTaskId} from ${record.delegatorName}: ${record.title}`,
      ),
      related_ids: {
        agent_id: record.delegateeId,
        delegation_id: record.id,
        delegator_id: record.delegatorId,
        ...tasks,
      },
    });
  }
  return events;
}
