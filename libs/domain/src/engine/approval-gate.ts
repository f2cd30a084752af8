import type { RiskLevel } from '../security/risk';

/** A tool call a security check escalated: the run waits for a person before it executes. */
export interface EscalatedCall {
  /** The id the approval item must take: the parked run is saved under it before the item exists. */
  approvalId: string;
  taskId: string;
  agentId: string;
  agentName: string;
  /** The agent's department, so that its manager may decide. */
  department: string | null;
  tool: string;
  arguments: Record<string, unknown>;
  /** The check's reason for asking a person. */
  reason: string;
  /** The security verdict's action type and risk level, when the check classified the call. */
  actionType?: string;
  riskLevel?: RiskLevel;
}

/**
 * Where the engine files an escalated tool call as a pending approval item; the run then parks. With
 * no gate registered there is nobody to ask, and an escalated call is refused (fail closed).
 */
export interface ApprovalGate {
  request(call: EscalatedCall): Promise<void>;
}

/** A person's (or a timeout's) answer to a parked run's pending tool call. */
export interface ParkedRunDecision {
  approvalId: string;
  approved: boolean;
  /** The decision's comment or reason; given to the agent on a refusal. */
  reason: string | null;
  /** Who decided: a username, or `system` for a timeout. */
  decidedBy: string;
  /** What a refusal does to the run. */
  onRefusal: RejectionBehaviour;
}

/** What a refused call does to the run: the agent reads the refusal and goes on, or the run ends. */
export const REJECTION_BEHAVIOURS = ['continue', 'end_run'] as const;
export type RejectionBehaviour = (typeof REJECTION_BEHAVIOURS)[number];
