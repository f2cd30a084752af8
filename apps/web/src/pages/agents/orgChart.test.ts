import { describe, expect, it } from 'vitest';

import { agentFixture, departmentFixture, STARTUP_AGENTS, STARTUP_DEPARTMENTS } from './fixtures';
import { buildOrgChart, supervisorsOf } from './orgChart';

const names = (nodes: { agent: { name: string }; reports: unknown[] }[]): unknown[] =>
  nodes.map((n) => (n.reports.length ? [n.agent.name, names(n.reports as typeof nodes)] : n.agent.name));

describe('buildOrgChart', () => {
  it('should group the agents by department in the company’s order, each a tree under its head', () => {
    const groups = buildOrgChart(STARTUP_AGENTS, STARTUP_DEPARTMENTS);
    expect(groups.map((g) => [g.name, g.agentCount])).toEqual([
      ['executive', 1],
      ['engineering', 3],
      ['product', 1],
    ]);
    expect(names(groups[1].roots)).toEqual([['Grace Hopper', ['Linus Torvalds', 'Ken Thompson']]]);
    // Department heads and headless departments report to the executive head.
    expect(groups[1].roots[0].reportsToOutside?.name).toBe('Ada Lovelace');
    expect(groups[2].roots[0].reportsToOutside?.name).toBe('Ada Lovelace');
    expect(groups[0].roots[0].reportsToOutside).toBeNull();
  });

  it('should follow reports_to, reporting lines and team leads before the head', () => {
    const agents = [
      agentFixture({ id: 'h', name: 'Head', role: 'VP', department: 'eng' }),
      agentFixture({ id: 'l', name: 'Lead', role: 'Lead', department: 'eng' }),
      agentFixture({ id: 'm', name: 'Member', role: 'Dev', department: 'eng' }),
      agentFixture({ id: 's', name: 'Sub', role: 'Tester', department: 'eng' }),
      agentFixture({ id: 'r', name: 'Direct', role: 'Dev', department: 'eng', authority: { reports_to: 'Member' } }),
    ];
    const departments = [
      departmentFixture({
        name: 'eng',
        head: 'VP',
        teams: [{ lead: 'Lead', members: ['Member'] }],
        reporting_lines: [{ subordinate: 'Tester', supervisor: 'Lead' }],
      }),
    ];
    const bosses = supervisorsOf(agents, departments);
    expect(bosses.get('m')?.name).toBe('Lead');
    expect(bosses.get('s')?.name).toBe('Lead');
    expect(bosses.get('r')?.name).toBe('Member');
    expect(bosses.get('l')?.name).toBe('Head');
    expect(bosses.has('h')).toBe(false);
    expect(names(buildOrgChart(agents, departments)[0].roots)).toEqual([
      ['Head', [['Lead', [['Member', ['Direct']], 'Sub']]]],
    ]);
  });

  it('should list agents of a department the company does not name, and survive a loop', () => {
    const agents = [
      agentFixture({ id: 'x', name: 'X', role: 'A', department: 'lab', authority: { reports_to: 'Y' } }),
      agentFixture({ id: 'y', name: 'Y', role: 'B', department: 'lab', authority: { reports_to: 'X' } }),
    ];
    const groups = buildOrgChart(agents, []);
    expect(groups).toHaveLength(1);
    expect(groups[0].department).toBeNull();
    expect(groups[0].agentCount).toBe(2);
    expect(JSON.stringify(names(groups[0].roots))).toContain('X');
    expect(JSON.stringify(names(groups[0].roots))).toContain('Y');
  });

  it('should keep empty departments, for the chart to say they have no agents yet', () => {
    const groups = buildOrgChart([], STARTUP_DEPARTMENTS);
    expect(groups.map((g) => g.agentCount)).toEqual([0, 0, 0]);
  });
});
