import { ErrorCode } from '../errors';

/** An agent as the org chart sees it. */
export interface OrgAgent {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  /** Department name key (lower-cased). */
  readonly department: string;
  /** `authority.reports_to`: an agent name or a role; null when unset. */
  readonly reportsTo: string | null;
  /** `authority.can_delegate_to`: roles (or names) the agent may hand work to; empty means any subordinate. */
  readonly canDelegateTo: readonly string[];
}

/** A department as the org chart sees it: its head, teams and explicit reporting lines (names or roles). */
export interface OrgDepartment {
  readonly nameKey: string;
  readonly head: string | null;
  readonly teams: ReadonlyArray<{ readonly lead: string; readonly members: readonly string[] }>;
  readonly reportingLines: ReadonlyArray<{ readonly subordinate: string; readonly supervisor: string }>;
}

/** The department whose head the heads of other departments (and agents without one) report to. */
export const EXECUTIVE_DEPARTMENT = 'executive';

/** The `coordination` hierarchy settings. */
export interface HierarchyPolicy {
  /** Off: an agent may delegate to any other agent (the `can_delegate_to` roles still apply). */
  readonly enforceChainOfCommand: boolean;
  /** On: a manager may delegate to a subordinate's subordinates, not only to direct reports. */
  readonly allowSkipLevel: boolean;
}

export const DEFAULT_HIERARCHY_POLICY: HierarchyPolicy = { enforceChainOfCommand: true, allowSkipLevel: false };

export type AuthorityVerdict =
  | { readonly allowed: true; readonly relation: 'direct' | 'skip_level' | 'unenforced' }
  | { readonly allowed: false; readonly code: ErrorCode; readonly message: string };

const key = (text: string) => text.trim().toLowerCase();

/**
 * Who each agent reports to (agent id → supervisor id), first rule that names someone else:
 * the agent's own `reports_to`; a reporting line of its department naming it (by name or role);
 * the lead of a team of its department it is a member of; its department's head; the head of the
 * executive department. A name or role names the first agent in roster order with that name, else
 * with that role (one in the same department first).
 */
export function supervisorsOf(agents: readonly OrgAgent[], departments: readonly OrgDepartment[]): Map<string, string> {
  const byDept = new Map(departments.map((d) => [d.nameKey, d]));
  const resolve = (ref: string | null | undefined, self: OrgAgent): OrgAgent | undefined => {
    if (!ref || !ref.trim()) {
      return undefined;
    }
    const wanted = key(ref);
    const others = agents.filter((a) => a.id !== self.id);
    return (
      others.find((a) => key(a.name) === wanted) ??
      others.find((a) => key(a.role) === wanted && a.department === self.department) ??
      others.find((a) => key(a.role) === wanted)
    );
  };
  const names = (agent: OrgAgent) => new Set([key(agent.name), key(agent.role)]);
  const executive = byDept.get(EXECUTIVE_DEPARTMENT);
  const result = new Map<string, string>();
  for (const agent of agents) {
    const dept = byDept.get(agent.department);
    const own = names(agent);
    const line = dept?.reportingLines.find((l) => own.has(key(l.subordinate)));
    const team = dept?.teams.find((t) => t.members.some((m) => key(m) === key(agent.name)));
    const headRef = dept?.head ?? null;
    const isHead = headRef !== null && own.has(key(headRef));
    const supervisor =
      resolve(agent.reportsTo, agent) ??
      resolve(line?.supervisor, agent) ??
      resolve(team?.lead, agent) ??
      (isHead ? undefined : resolve(headRef, agent)) ??
      resolve(executive?.head, agent);
    if (supervisor) {
      result.set(agent.id, supervisor.id);
    }
  }
  return result;
}

/** The agent's supervisors, nearest first (cycles in a hand-made chart end the walk). */
export function chainOfCommand(agentId: string, supervisors: ReadonlyMap<string, string>): string[] {
  const chain: string[] = [];
  const seen = new Set([agentId]);
  for (let current = supervisors.get(agentId); current !== undefined; current = supervisors.get(current)) {
    if (seen.has(current)) {
      break;
    }
    seen.add(current);
    chain.push(current);
  }
  return chain;
}

/**
 * Whether the delegator may hand work to the delegatee: never to itself; under the chain of command
 * only to a direct report, or to a report's reports when skip-level is allowed; and, when the
 * delegator's `can_delegate_to` is set, only to an agent of one of those roles (or names).
 */
export function checkDelegationAuthority(
  delegator: OrgAgent,
  delegatee: OrgAgent,
  supervisors: ReadonlyMap<string, string>,
  policy: HierarchyPolicy,
): AuthorityVerdict {
  if (delegator.id === delegatee.id) {
    return refuse(`${delegator.name} cannot delegate to itself`);
  }
  let relation: 'direct' | 'skip_level' | 'unenforced' = 'unenforced';
  if (policy.enforceChainOfCommand) {
    const above = chainOfCommand(delegatee.id, supervisors);
    const distance = above.indexOf(delegator.id);
    if (distance < 0) {
      return refuse(`${delegatee.name} is not a subordinate of ${delegator.name}`);
    }
    if (distance > 0 && !policy.allowSkipLevel) {
      return refuse(
        `${delegatee.name} is ${distance + 1} levels below ${delegator.name}, not a direct report, and skip-level ` +
          'delegation is off: delegate to their manager',
      );
    }
    relation = distance === 0 ? 'direct' : 'skip_level';
  }
  const allowed = delegator.canDelegateTo.map(key).filter((entry) => entry.length > 0);
  if (allowed.length > 0 && !allowed.includes(key(delegatee.role)) && !allowed.includes(key(delegatee.name))) {
    return refuse(
      `${delegator.name} may delegate only to ${delegator.canDelegateTo.join(', ')}; ${delegatee.name} is a ${delegatee.role}`,
    );
  }
  return { allowed: true, relation };
}

function refuse(message: string): AuthorityVerdict {
  return { allowed: false, code: ErrorCode.DelegationNotAuthorized, message };
}
