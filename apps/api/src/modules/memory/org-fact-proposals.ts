import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, ORG_FACT_CATEGORIES, type OrgFactCategory, redactSecrets } from '@app/domain';
import type { AgentEntity, OrgFactEntity } from '@app/persistence';
import { EventBus, LOGGING_RUNTIME, type LoggingRuntime, subscribeTo } from '@app/platform';

import { ApprovalsService } from '../approvals';
import { MAX_ENTRY_CHARS, MemoryService } from './memory.service';

/** The action type of an approval item carrying an agent's proposed organisation fact. */
export const ORG_FACT_ACTION = 'memory:org_fact';

/** A decided item as the approvals channel reports it (the fields this module reads). */
interface DecidedItem {
  id: string;
  action_type?: unknown;
  status?: unknown;
  decided_by?: unknown;
  description?: unknown;
  metadata?: unknown;
}

/**
 * Agents' proposals of organisation facts: a proposal files an approval item (its description is the
 * fact, as it will be stored) for the agent's department; when a person approves it, the fact is
 * created by the memory service, the one writer POST /memory/org uses too, under the item's id, so
 * a decision handled twice stores it once. A rejection or expiry stores nothing.
 */
@Injectable()
export class OrgFactProposals implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  private off: (() => void) | null = null;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly approvals: ApprovalsService,
    private readonly memory: MemoryService,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('memory.proposals');
  }

  onModuleInit(): void {
    // Handled by the replica that made the decision (its event is local there).
    this.off = subscribeTo(this.bus, Channel.Approvals, (event) => {
      if (event.origin === 'remote' || event.event_type !== 'approval.decided') {
        return;
      }
      const item = event.payload.approval as DecidedItem;
      if (item.action_type !== ORG_FACT_ACTION) {
        return;
      }
      const work: Promise<void> = this.decided(item)
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error, approval_id: item.id }, 'memory.proposal.failed'))
        .finally(() => this.pending.delete(work));
      this.pending.add(work);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.off?.();
    await Promise.allSettled([...this.pending]);
  }

  /** Files the proposal; answers the approval item's id. */
  async propose(agent: AgentEntity, proposal: { category: OrgFactCategory; content: string; reason: string }) {
    const content = redactSecrets(proposal.content.trim()).text.slice(0, MAX_ENTRY_CHARS);
    const item = await this.approvals.fileRequest({
      actionType: ORG_FACT_ACTION,
      title: `${agent.name} proposes an organisation ${proposal.category.replace('_', ' ')}`,
      description: content,
      requestedBy: agent.id,
      riskLevel: 'low',
      department: agent.department,
      metadata: {
        kind: 'org_fact_proposal',
        category: proposal.category,
        department: agent.department.slice(0, 256),
        agent_name: agent.name.slice(0, 256),
        reason: redactSecrets(proposal.reason.trim()).text.slice(0, 256),
      },
    });
    this.log.info({ approval_id: item.id, agent_id: agent.id, category: proposal.category }, 'memory.proposal.filed');
    return item.id;
  }

  /** An approved proposal becomes a fact (once); anything else, or a decision by no person, stores nothing. */
  async decided(item: DecidedItem): Promise<OrgFactEntity | null> {
    const metadata = (item.metadata ?? {}) as Record<string, unknown>;
    const category = metadata.category;
    const person = typeof item.decided_by === 'string' && item.decided_by !== 'system' ? item.decided_by : null;
    if (
      item.status !== 'approved' ||
      person === null ||
      typeof item.description !== 'string' ||
      typeof category !== 'string' ||
      !(ORG_FACT_CATEGORIES as readonly string[]).includes(category)
    ) {
      return null;
    }
    const existing = await this.memory.findFact(item.id).catch(() => null);
    if (existing) {
      return existing;
    }
    const fact = await this.memory.storeFact({
      id: item.id,
      category: category as OrgFactCategory,
      content: item.description,
      department: typeof metadata.department === 'string' ? metadata.department : null,
      author: `agent:${typeof metadata.agent_name === 'string' ? metadata.agent_name : 'unknown'}`,
    });
    this.log.info({ approval_id: item.id, fact_id: fact.id, approved_by: person }, 'memory.proposal.approved');
    return fact;
  }

  /** Waits for the decisions being applied (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
  }
}
