import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  checklistComplete,
  ConflictError,
  ErrorCode,
  newTaskId,
  NotFoundError,
  ONBOARDING_STEPS,
  ONBOARDING_TASK_CREATOR,
  ONBOARDING_TASK_PROJECT,
  type OnboardingStep,
  type OnboardingStepName,
  settleStep,
  TASK_LIMITS,
  type TaskStatus,
} from '@app/domain';
import type { AgentEntity, AgentOnboardingEntity } from '@app/persistence';
import {
  type ActorContext,
  announce,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  type Transaction,
} from '@app/platform';

import { AgentRoster } from '../agents';
import { AuditTrail } from '../audit';
import { newTaskRow, TaskLifecycle, type TaskMoved } from '../tasks';
import type { OnboardingDto } from './dto/hiring.dto';
import { assertManages } from './hiring.service';
import { toOnboarding } from './hiring.mapper';
import { OnboardingBriefing } from './onboarding-briefing';
import { OnboardingRepository } from './onboarding.repository';

/** A step's task ended in one of these: the step failed (a retry gives it a new task). */
const FAILED_TASK_STATUSES: readonly TaskStatus[] = ['failed', 'blocked', 'cancelled'];
/** Compare-and-set attempts on a checklist before a concurrent writer is left to finish. */
const CAS_ATTEMPTS = 5;
const RECONCILE_BATCH = 200;
/** A step's task missing this long after its checklist was written is taken as lost (the step fails). */
const MISSING_TASK_GRACE_MS = 60_000;

/**
 * A new agent's onboarding (engine.md §13): its checklist (company_context, project_briefing,
 * team_introductions) runs as tasks the agent itself runs through the engine, each briefed with what
 * the company, its department and its projects say now. The agent is `onboarding` meanwhile (the
 * engine runs only these tasks for it) and becomes `active` with its `onboarded` career event when
 * every step is done. A failed step keeps the agent onboarding with the reason, until a person asks
 * for a retry. The only writer of `agent_onboardings`.
 */
@Injectable()
export class OnboardingService {
  private readonly log: Logger;

  constructor(
    private readonly checklists: OnboardingRepository,
    private readonly briefing: OnboardingBriefing,
    private readonly roster: AgentRoster,
    private readonly lifecycle: TaskLifecycle,
    private readonly audit: AuditTrail,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.onboarding');
  }

  /**
   * Stores the checklist of a just-hired agent, in the hire's transaction: its steps' task ids are
   * chosen now, so a crash before the tasks exist leaves steps whose tasks are missing, which the
   * startup reconciliation marks failed (retryable) rather than an agent onboarding forever.
   */
  async store(agent: AgentEntity, hiringRequestId: string | null, tx: Transaction): Promise<AgentOnboardingEntity> {
    const now = new Date();
    const row: AgentOnboardingEntity = {
      agentId: agent.id,
      agentName: agent.name,
      hiringRequestId,
      steps: ONBOARDING_STEPS.map((name) => ({
        name,
        state: 'running',
        taskId: newTaskId(),
        attempts: 1,
        reason: null,
        summary: null,
        completedAt: null,
      })),
      onboardedEventId: randomUUID(),
      version: 1,
      startedAt: now,
      completedAt: null,
      updatedAt: now,
    };
    await this.checklists.insert(row, tx);
    return row;
  }

  /** Creates and assigns the tasks of a stored checklist's steps: the agent starts running them. */
  async launch(agent: AgentEntity, checklist: AgentOnboardingEntity): Promise<void> {
    for (const step of checklist.steps as OnboardingStep[]) {
      await this.assignStep(agent, step);
    }
  }

  async get(name: string): Promise<OnboardingDto> {
    const { checklist } = await this.findOrThrow(name);
    return toOnboarding(checklist);
  }

  /** Runs the failed steps again, each in a new task (409, 4083 when no step failed). */
  async retry(actor: ActorContext, name: string): Promise<OnboardingDto> {
    const { agent, checklist } = await this.findOrThrow(name);
    assertManages(actor, agent.department);
    const failed = checklist.steps.filter((step) => step.state === 'failed');
    if (checklist.completedAt !== null || failed.length === 0 || agent.status !== 'onboarding') {
      throw new ConflictError(
        `${agent.name}'s onboarding has no failed step to retry (${checklist.completedAt ? 'it is done' : 'it runs'})`,
        ErrorCode.OnboardingNotRetryable,
      );
    }
    const steps = (checklist.steps as OnboardingStep[]).map((step) =>
      step.state === 'failed'
        ? { ...step, state: 'running' as const, taskId: newTaskId(), attempts: step.attempts + 1, reason: null }
        : step,
    );
    const updated = await this.checklists.update(checklist, { steps });
    if (!updated) {
      throw new ConflictError(`${agent.name}'s onboarding changed meanwhile; read it again`, ErrorCode.VersionConflict);
    }
    await this.audit.record({
      actor: actor.username,
      action: 'agent.onboarding_retried',
      target: `agent:${agent.id}`,
      outcome: 'success',
      details: { agent: agent.name, steps: failed.map((step) => step.name) },
    });
    for (const step of steps.filter((s) => failed.some((f) => f.name === s.name))) {
      await this.assignStep(agent, step);
    }
    return toOnboarding(updated);
  }

  /** A task of any replica moved: when it is a running step's and it ended, the step settles. */
  async onTaskMoved(move: TaskMoved): Promise<void> {
    if (move.status !== 'completed' && !FAILED_TASK_STATUSES.includes(move.status as TaskStatus)) {
      return;
    }
    for (const checklist of await this.checklists.unfinished(RECONCILE_BATCH)) {
      if (checklist.steps.some((step) => step.taskId === move.taskId && step.state === 'running')) {
        await this.settle(checklist.agentId, move.taskId);
        return;
      }
    }
  }

  /** At startup: steps whose tasks ended while no replica listened, and checklists done but not applied. */
  async reconcile(): Promise<void> {
    for (const checklist of await this.checklists.unfinished(RECONCILE_BATCH)) {
      // A checklist written just now may still be having its tasks made (by another replica).
      const settled = Date.now() - checklist.updatedAt.getTime() >= MISSING_TASK_GRACE_MS;
      for (const step of checklist.steps.filter((s) => s.state === 'running')) {
        if (settled || (await this.lifecycle.find(step.taskId)) !== null) {
          await this.settle(checklist.agentId, step.taskId);
        }
      }
      await this.completeIfDone(checklist.agentId);
    }
  }

  /** Records how the step's task ended (a compare-and-set, retried on a concurrent write), then completes. */
  private async settle(agentId: string, taskId: string): Promise<void> {
    const task = await this.lifecycle.find(taskId);
    const status = (task?.status ?? 'cancelled') as TaskStatus;
    if (status !== 'completed' && !FAILED_TASK_STATUSES.includes(status)) {
      return;
    }
    const outcome =
      status === 'completed'
        ? { ok: true as const, summary: task?.result ?? '' }
        : { ok: false as const, reason: `task ${taskId} ${status}: ${task?.statusReason ?? 'deleted'}` };
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
      const checklist = await this.checklists.findByAgent(agentId);
      const steps = checklist ? settleStep(checklist.steps as OnboardingStep[], taskId, outcome, new Date()) : null;
      if (!checklist || !steps) {
        return;
      }
      const updated = await this.checklists.update(checklist, { steps });
      if (updated) {
        const step = steps.find((s) => s.taskId === taskId) as OnboardingStep;
        await this.stepSettled(updated, step);
        await this.completeIfDone(agentId);
        return;
      }
    }
  }

  private async stepSettled(checklist: AgentOnboardingEntity, step: OnboardingStep): Promise<void> {
    const agent = await this.roster.findByRef(checklist.agentId);
    this.log.info(
      { agent_id: checklist.agentId, step: step.name, state: step.state, reason: step.reason },
      'hr.onboarding.step',
    );
    await this.audit.record({
      actor: 'system',
      action: 'agent.onboarding_step',
      target: `agent:${checklist.agentId}`,
      outcome: step.state === 'done' ? 'success' : 'failure',
      details: {
        agent: checklist.agentName,
        step: step.name,
        state: step.state,
        task_id: step.taskId,
        reason: step.reason,
      },
    });
    if (agent) {
      await announce(this.bus, this.log, {
        channel: Channel.Agents,
        event_type: 'agent.onboarding_step',
        payload: { agent: this.roster.render(agent), step: step.name, state: step.state, reason: step.reason },
      });
    }
  }

  /** Every step done: the agent becomes active with its `onboarded` event (once), then the checklist closes. */
  private async completeIfDone(agentId: string): Promise<void> {
    const checklist = await this.checklists.findByAgent(agentId);
    if (!checklist || checklist.completedAt !== null || !checklistComplete(checklist.steps as OnboardingStep[])) {
      return;
    }
    const agent = await this.roster.findByRef(agentId);
    if (agent?.status === 'onboarding') {
      const activated = await this.roster.completeOnboarding(
        agent,
        checklist.onboardedEventId,
        'onboarding',
        `Onboarded: ${ONBOARDING_STEPS.join(', ')} done`,
      );
      if (activated) {
        await this.audit.record({
          actor: 'system',
          action: 'agent.onboarded',
          target: `agent:${agent.id}`,
          outcome: 'success',
          details: { agent: agent.name, hiring_request_id: checklist.hiringRequestId },
        });
      }
    }
    await this.checklists.update(checklist, { completedAt: new Date() });
  }

  /** Creates the step's task (its id chosen in the checklist) and assigns it to the agent. */
  private async assignStep(agent: AgentEntity, step: OnboardingStep): Promise<void> {
    const brief = await this.briefing.forStep(agent, step.name);
    const row = newTaskRow({
      ...this.placeholder(step.name),
      id: step.taskId,
      description: brief.slice(0, TASK_LIMITS.descriptionMax),
      maxRetries: 0,
    });
    await this.lifecycle.create(row, ONBOARDING_TASK_CREATOR);
    await this.lifecycle.transition(row.id, 'assigned', {
      by: ONBOARDING_TASK_CREATOR,
      current: row,
      changes: () => ({ assignedTo: agent.name, assigneeId: agent.id }),
    });
  }

  private placeholder(step: OnboardingStepName) {
    return {
      title: `Onboarding: ${step.replace('_', ' ')}`,
      description: '',
      type: 'research' as const,
      project: ONBOARDING_TASK_PROJECT,
      createdBy: ONBOARDING_TASK_CREATOR,
    };
  }

  private async findOrThrow(name: string): Promise<{ agent: AgentEntity; checklist: AgentOnboardingEntity }> {
    const agent = await this.roster.findByRef(name);
    if (!agent) {
      throw new NotFoundError(`Agent "${name}" not found`, ErrorCode.AgentNotFound);
    }
    const checklist = await this.checklists.findByAgent(agent.id);
    if (!checklist) {
      throw new NotFoundError(
        `${agent.name} has no onboarding checklist (it was not hired through a hiring request)`,
        ErrorCode.OnboardingNotFound,
      );
    }
    return { agent, checklist };
  }
}
