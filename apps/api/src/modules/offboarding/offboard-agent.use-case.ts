import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  COMPANY_CHANNEL,
  ConflictError,
  departmentChannel,
  ErrorCode,
  type FiringReason,
  nextOffboardingStep,
  NotFoundError,
  OFFBOARDING_LIMITS,
  offboardingNotice,
  type OffboardingProgress,
  type OffboardingStep,
  type OffboardingStepOutcome,
} from '@app/domain';
import type { AgentEntity, OffboardingRecordEntity, TaskHandoverEntry } from '@app/persistence';
import { announce, DistributedLock, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { AuditTrail } from '../audit';
import { MemoryService } from '../memory';
import { ChannelDirectory, MessagePosting } from '../messages';
import { toOffboardingRecord } from './offboarding.mapper';
import { type OffboardingChanges, OffboardingRepository } from './offboarding.repository';
import { TaskHandover } from './task-handover';

/** Who posts the team's notice. */
const NOTICE_SENDER = 'system';

export interface OffboardOptions {
  /** Stop once this step is recorded, leaving the rest for a resume (how the tests simulate a crash). */
  until?: OffboardingStep;
}

/** What a step did: the record's changes besides its progress, and the line its log keeps. */
interface StepResult {
  /** The record the changes apply to, when the step saved a plan first. */
  record?: OffboardingRecordEntity;
  changes?: OffboardingChanges;
  outcome: OffboardingStepOutcome;
  detail: string;
}

/**
 * The offboarding pipeline (engine.md §13, in the order of OFFBOARDING_STEPS): terminate, interrupt
 * the agent's open tasks, wait for their runs to stop, hand the tasks over, archive memory (skipped:
 * no memory backend), tell the team, record the end. Each step is recorded once done (a
 * compare-and-set on the record), and `execute` runs the steps after the last one recorded: a request,
 * or a restart's resume hook, picks up where a crash left off. Every step is safe to run again: the
 * career events and the message carry ids chosen with the record, task moves are compare-and-sets
 * recognised by the record's marker, and one process at a time runs a record's pipeline (a lock
 * that holds across replicas on Postgres).
 */
@Injectable()
export class OffboardAgentUseCase {
  private readonly log: Logger;

  constructor(
    private readonly records: OffboardingRepository,
    private readonly handover: TaskHandover,
    private readonly roster: AgentRoster,
    private readonly posting: MessagePosting,
    private readonly channels: ChannelDirectory,
    private readonly audit: AuditTrail,
    private readonly bus: EventBus,
    private readonly lock: DistributedLock,
    private readonly memory: MemoryService,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.offboarding');
  }

  /** Runs the record's remaining steps in order; answers the record as they left it. */
  execute(recordId: string, options: OffboardOptions = {}): Promise<OffboardingRecordEntity> {
    return this.lock.runExclusive(`offboarding:${recordId}`, async () => {
      let record = await this.getOrThrow(recordId);
      for (let step = nextStep(record); step !== null; step = nextStep(record)) {
        record = await this.perform(step, record);
        if (step === options.until) {
          break;
        }
      }
      return record;
    });
  }

  private async perform(step: OffboardingStep, record: OffboardingRecordEntity): Promise<OffboardingRecordEntity> {
    const result = await this.run(step, record);
    const base = result.record ?? record;
    const entry = { step, outcome: result.outcome, at: new Date().toISOString(), detail: result.detail };
    const saved = await this.records.update(base, {
      ...result.changes,
      step,
      stepLog: [...base.stepLog.filter((logged) => logged.step !== step), entry],
    });
    if (!saved) {
      // Another process recorded the record meanwhile: go on from what it stored.
      return this.getOrThrow(record.id);
    }
    this.log.info(
      { firing_request_id: record.id, agent_id: record.agentId, step, outcome: result.outcome, detail: result.detail },
      'hr.offboarding.step_done',
    );
    return saved;
  }

  private run(step: OffboardingStep, record: OffboardingRecordEntity): Promise<StepResult> {
    switch (step) {
      case 'terminated':
        return this.terminate(record);
      case 'tasks_interrupted':
        return this.interruptTasks(record);
      case 'runs_stopped':
        return this.awaitRuns(record);
      case 'tasks_reassigned':
        return this.reassignTasks(record);
      case 'memory_archived':
        return this.archiveMemory(record);
      case 'team_notified':
        return this.notifyTeam(record);
      case 'offboarded':
        return this.finish(record);
    }
  }

  /**
   * The agent's memory archived read-only (its id on the record) and its semantic and procedural
   * entries promoted to organisation facts; skipped when there is no memory backend and nothing stored.
   */
  private async archiveMemory(record: OffboardingRecordEntity): Promise<StepResult> {
    const archiveId = `memarch-${record.id}`;
    const done = await this.memory.archiveAgent(
      { id: record.agentId, name: record.agentName, department: record.department },
      archiveId,
    );
    if (!done) {
      return {
        changes: { memoryArchiveId: null, orgMemoriesPromoted: 0 },
        outcome: 'skipped',
        detail: 'skipped: no memory backend',
      };
    }
    return {
      changes: { memoryArchiveId: archiveId, orgMemoriesPromoted: done.promoted },
      outcome: 'done',
      detail: `archived ${done.archived} entries, promoted ${done.promoted} to organisation memory`,
    };
  }

  private async terminate(record: OffboardingRecordEntity): Promise<StepResult> {
    const agent = await this.roster.findByRef(record.agentId);
    if (!agent) {
      return { outcome: 'skipped', detail: 'the agent is no longer on the roster' };
    }
    const terminated = await this.roster.terminate(agent);
    await this.roster.recordCareerEvent({
      id: record.firedEventId,
      agent,
      type: 'fired',
      at: new Date(),
      initiatedBy: record.requestedBy,
      details: `Fired (${record.reason.replace('_', ' ')})${record.details ? `: ${record.details}` : ''}`,
      metadata: { reason: record.reason, firing_request_id: record.id },
    });
    await this.announce('agent.fired', terminated, record);
    return { outcome: 'done', detail: `${agent.name} is terminated and takes no new work` };
  }

  private async interruptTasks(record: OffboardingRecordEntity): Promise<StepResult> {
    const planned = await this.handover.plan(record);
    // The list is saved before any task moves: a task interrupted just before a crash is still known.
    const listed =
      planned.length > 0 ? await this.save(record, { handover: [...record.handover, ...planned] }) : record;
    const handover: TaskHandoverEntry[] = [];
    for (const entry of listed.handover) {
      handover.push(entry.outcome === 'planned' ? await this.handover.interrupt(listed, entry) : entry);
    }
    const interrupted = handover.filter((entry) => entry.outcome === 'interrupted').length;
    const detail =
      handover.length === 0
        ? 'no open tasks'
        : `${interrupted} task(s) interrupted, unassigned and raised one priority step${moved(handover)}`;
    return { record: listed, changes: { handover }, outcome: 'done', detail };
  }

  private async awaitRuns(record: OffboardingRecordEntity): Promise<StepResult> {
    const { stopped, late } = await this.handover.awaitRuns(record.handover);
    const detail =
      late.length > 0
        ? `${stopped} run(s) ended; still running after the wait (handed over all the same): ${late.join(', ')}`
        : `${stopped} run(s) ended`;
    return { outcome: 'done', detail };
  }

  private async reassignTasks(record: OffboardingRecordEntity): Promise<StepResult> {
    const chosen = await this.handover.chooseSuccessors(record, record.handover);
    // The choices are saved before any task moves, so a resumed step hands each task to the same agent.
    const changed = chosen.some((entry, i) => entry.toAgentId !== record.handover[i].toAgentId);
    const planned = changed ? await this.save(record, { handover: chosen }) : record;
    const handover: TaskHandoverEntry[] = [];
    for (const entry of planned.handover) {
      handover.push(await this.handover.reassign(planned, entry));
    }
    const count = (outcome: string) => handover.filter((entry) => entry.outcome === outcome).length;
    const detail =
      `${count('reassigned')} task(s) handed over${listed(handover, 'reassigned')}, ` +
      `${count('unassigned')} left unassigned${listed(handover, 'unassigned')} ` +
      `(no other active agent in ${record.department})${moved(handover)}`;
    return { record: planned, changes: { handover }, outcome: 'done', detail };
  }

  private async notifyTeam(record: OffboardingRecordEntity): Promise<StepResult> {
    const agent = await this.roster.findByRef(record.agentId);
    const own = departmentChannel(record.department);
    const channel = (await this.channels.find(own)) ? own : COMPANY_CHANNEL;
    await this.posting.post({
      id: record.teamMessageId,
      from: NOTICE_SENDER,
      type: 'hr_notification',
      channel,
      content: offboardingNotice({
        agentName: record.agentName,
        role: agent?.role ?? 'former agent',
        department: record.department,
        reason: record.reason as FiringReason,
        details: record.details,
        tasks: record.handover
          .filter((entry) => entry.outcome === 'reassigned' || entry.outcome === 'unassigned')
          .map((entry) => ({
            taskId: entry.taskId,
            title: entry.title,
            toAgent: entry.outcome === 'reassigned' ? entry.toAgentName : null,
          })),
      }),
      metadata: { extra: [['firing_request_id', record.id]] },
    });
    return { changes: { teamChannel: channel }, outcome: 'done', detail: `posted to ${channel}` };
  }

  private async finish(record: OffboardingRecordEntity): Promise<StepResult> {
    const agent = await this.roster.findByRef(record.agentId);
    const reassigned = record.handover.filter((entry) => entry.outcome === 'reassigned').length;
    const summary = `${reassigned} of ${record.handover.length} open task(s) handed over; team told in ${record.teamChannel ?? 'no channel'}`;
    if (agent) {
      await this.roster.recordCareerEvent({
        id: record.offboardedEventId,
        agent,
        type: 'offboarded',
        at: new Date(),
        initiatedBy: record.requestedBy,
        details: `Offboarded: ${summary}`,
        metadata: { firing_request_id: record.id },
      });
    }
    const completedAt = new Date();
    await this.audit.record({
      actor: record.requestedBy,
      action: 'agent.offboarded',
      target: `agent:${record.agentName}`,
      outcome: 'success',
      details: { firing_request_id: record.id, tasks: record.handover.length, reassigned },
    });
    if (agent) {
      await this.announce('agent.offboarded', agent, { ...record, step: 'offboarded', completedAt });
    }
    return { changes: { completedAt }, outcome: 'done', detail: summary };
  }

  /** Saves a plan without recording a step; another writer meanwhile is a conflict (the lock should prevent it). */
  private async save(record: OffboardingRecordEntity, changes: OffboardingChanges): Promise<OffboardingRecordEntity> {
    const saved = await this.records.update(record, changes);
    if (!saved) {
      throw new ConflictError(
        `The offboarding of ${record.agentName} was changed by another process; it resumes at the next start`,
        ErrorCode.VersionConflict,
      );
    }
    return saved;
  }

  private announce(
    type: 'agent.fired' | 'agent.offboarded',
    agent: AgentEntity,
    record: OffboardingRecordEntity,
  ): Promise<void> {
    return announce(this.bus, this.log, {
      channel: Channel.Agents,
      event_type: type,
      payload: { agent: this.roster.render(agent), offboarding: toOffboardingRecord(record) },
    });
  }

  private async getOrThrow(id: string): Promise<OffboardingRecordEntity> {
    const record = await this.records.findById(id);
    if (!record) {
      throw new NotFoundError(`No offboarding record "${id}"`, ErrorCode.OffboardingNotFound);
    }
    return record;
  }
}

function nextStep(record: OffboardingRecordEntity): OffboardingStep | null {
  return nextOffboardingStep(record.step as OffboardingProgress);
}

/** " (task-1 to Bob, task-2 to Cat)": the tasks of one outcome, the first few by name. */
function listed(handover: readonly TaskHandoverEntry[], outcome: 'reassigned' | 'unassigned'): string {
  const tasks = handover.filter((entry) => entry.outcome === outcome);
  if (tasks.length === 0) {
    return '';
  }
  const named = tasks
    .slice(0, OFFBOARDING_LIMITS.noticeTaskLines)
    .map((e) => (outcome === 'reassigned' ? `${e.taskId} to ${e.toAgentName ?? '?'}` : e.taskId));
  const more = tasks.length > named.length ? `, and ${tasks.length - named.length} more` : '';
  return ` (${named.join(', ')}${more})`;
}

/** ", N moved by someone else first" when some were. */
function moved(handover: readonly TaskHandoverEntry[]): string {
  const count = handover.filter((entry) => entry.outcome === 'moved').length;
  return count > 0 ? `, ${count} moved by someone else first` : '';
}
