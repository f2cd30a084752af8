import type { Schemas } from '@app/client';

import type { Agent } from './agentText';

type Department = Schemas['Department'];

/** One agent in the chart with the agents that report to it inside the same department. */
export interface OrgNode {
  agent: Agent;
  /** A supervisor outside this department (e.g. a department head reporting to the CEO). */
  reportsToOutside: Agent | null;
  reports: OrgNode[];
}

/** A department with its agents as a tree along the reporting lines. */
export interface OrgGroup {
  key: string;
  department: Department | null;
  name: string;
  agentCount: number;
  roots: OrgNode[];
}

const EXECUTIVE = 'executive';
const key = (text: string) => text.trim().toLowerCase();

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Who each agent reports to (agent id → supervisor), the same rules the service applies: the
 * agent's own `authority.reports_to`; a reporting line of its department naming it; the lead of a
 * team it is a member of; its department's head; the head of the executive department. A name or
 * role names the first agent with that name, else with that role (one in the same department first).
 */
export function supervisorsOf(agents: readonly Agent[], departments: readonly Department[]): Map<string, Agent> {
  const byDept = new Map(departments.map((d) => [key(d.name), d]));
  const resolve = (ref: string | null | undefined, self: Agent): Agent | undefined => {
    if (!ref || !ref.trim()) {
      return undefined;
    }
    const wanted = key(ref);
    const others = agents.filter((a) => a.id !== self.id);
    return (
      others.find((a) => key(a.name) === wanted) ??
      others.find((a) => key(a.role) === wanted && key(a.department) === key(self.department)) ??
      others.find((a) => key(a.role) === wanted)
    );
  };
  const executive = byDept.get(EXECUTIVE);
  const result = new Map<string, Agent>();
  for (const agent of agents) {
    const dept = byDept.get(key(agent.department));
    const own = new Set([key(agent.name), key(agent.role)]);
    const line = (dept?.reporting_lines ?? [])
      .map(record)
      .find((l) => typeof l.subordinate === 'string' && own.has(key(l.subordinate)));
    const team = (dept?.teams ?? [])
      .map(record)
      .find((t) => strings(t.members).some((m) => key(m) === key(agent.name)));
    const headRef = dept?.head ?? null;
    const isHead = headRef !== null && own.has(key(headRef));
    const reportsTo = record(agent.authority).reports_to;
    const supervisor =
      resolve(typeof reportsTo === 'string' ? reportsTo : null, agent) ??
      resolve(typeof line?.supervisor === 'string' ? line.supervisor : null, agent) ??
      resolve(typeof team?.lead === 'string' ? team.lead : null, agent) ??
      (isHead ? undefined : resolve(headRef, agent)) ??
      resolve(executive?.head, agent);
    if (supervisor) {
      result.set(agent.id, supervisor);
    }
  }
  return result;
}

/**
 * The org chart: one group per department (in the company's order, then any department only the
 * agents name), each a tree along the reporting lines inside it. Agents whose supervisor sits in
 * another department are roots of their own department's tree, with that supervisor noted.
 */
export function buildOrgChart(agents: readonly Agent[], departments: readonly Department[]): OrgGroup[] {
  const supervisors = supervisorsOf(agents, departments);
  const members = new Map<string, Agent[]>();
  for (const agent of agents) {
    const dept = key(agent.department ?? '');
    members.set(dept, [...(members.get(dept) ?? []), agent]);
  }
  const known: Array<{ key: string; department: Department | null; name: string }> = departments.map((d) => ({
    key: key(d.name),
    department: d,
    name: d.name,
  }));
  const extra = [...members.keys()]
    .filter((k) => !known.some((d) => d.key === k))
    .sort()
    .map((k) => ({ key: k, department: null, name: k }));

  return [...known, ...extra].map(({ key: deptKey, department, name }) => {
    const list = members.get(deptKey) ?? [];
    const inDept = new Set(list.map((a) => a.id));
    const children = new Map<string, Agent[]>();
    const roots: Agent[] = [];
    for (const agent of list) {
      const boss = supervisors.get(agent.id);
      if (boss && inDept.has(boss.id)) {
        children.set(boss.id, [...(children.get(boss.id) ?? []), agent]);
      } else {
        roots.push(agent);
      }
    }
    const placed = new Set<string>();
    const grow = (agent: Agent): OrgNode => {
      placed.add(agent.id);
      const boss = supervisors.get(agent.id);
      return {
        agent,
        reportsToOutside: boss && !inDept.has(boss.id) ? boss : null,
        reports: (children.get(agent.id) ?? []).filter((a) => !placed.has(a.id)).map(grow),
      };
    };
    const nodes = roots.map(grow);
    // A hand-made chart with a loop has no root for the loop's agents: list them at the top.
    for (const agent of list) {
      if (!placed.has(agent.id)) {
        nodes.push(grow(agent));
      }
    }
    return { key: deptKey, department, name, agentCount: list.length, roots: nodes };
  });
}
