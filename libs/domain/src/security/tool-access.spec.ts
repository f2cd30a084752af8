import {
  ACCESS_LEVEL_CATEGORIES,
  DEFAULT_CATEGORY_ACTION,
  TOOL_CATEGORIES,
  type ToolAccessLevel,
  type ToolCategory,
  type ToolPermissions,
  resolveToolPermission,
  toolSecurityProfile,
} from './tool-access';

describe('tool categories', () => {
  it.each<[ToolCategory, string]>([
    ['file_system', 'code:write'],
    ['code_execution', 'code:write'],
    ['terminal', 'code:write'],
    ['mcp', 'code:write'],
    ['version_control', 'vcs:commit'],
    ['web', 'comms:external'],
    ['database', 'db:query'],
    ['design', 'docs:write'],
    ['communication', 'comms:internal'],
    ['analytics', 'code:read'],
    ['other', 'code:read'],
    ['deployment', 'deploy:staging'],
  ])('should default the %s category to %s', (category, action) => {
    expect(DEFAULT_CATEGORY_ACTION[category]).toBe(action);
  });

  it.each([
    ['read_file', 'file_system', 'code:read'],
    ['list_files', 'file_system', 'code:read'],
    ['search_files', 'file_system', 'code:read'],
    ['write_file', 'file_system', 'code:write'],
    [' Write_File ', 'file_system', 'code:write'],
    ['commit_changes', 'version_control', 'vcs:commit'],
    ['run_command', 'code_execution', 'code:write'],
    ['mystery_tool', 'other', 'code:read'],
    ['hasOwnProperty', 'other', 'code:read'],
  ])('should classify the tool %j as %s / %s', (tool, category, action) => {
    expect(toolSecurityProfile(tool)).toEqual({ category, action });
  });
});

describe('access levels', () => {
  it.each<[ToolAccessLevel, ToolCategory[]]>([
    ['sandboxed', ['file_system', 'code_execution', 'version_control']],
    ['restricted', ['file_system', 'code_execution', 'version_control', 'web']],
    ['standard', ['file_system', 'code_execution', 'version_control', 'web', 'terminal', 'analytics']],
    ['elevated', [...TOOL_CATEGORIES]],
    ['custom', []],
  ])('should grant %s the categories %j', (level, categories) => {
    expect([...ACCESS_LEVEL_CATEGORIES[level]].sort()).toEqual([...categories].sort());
  });
});

describe('permission resolution', () => {
  const perms = (accessLevel: ToolAccessLevel, allowed: string[] = [], denied: string[] = []): ToolPermissions => ({
    accessLevel,
    allowed,
    denied,
  });

  it.each<[string, ToolPermissions, string, ToolCategory, boolean, string]>([
    [
      'denied beats allowed',
      perms('elevated', ['write_file'], ['write_file']),
      'write_file',
      'file_system',
      false,
      'denied_list',
    ],
    [
      'denied beats the level',
      perms('elevated', [], ['WRITE_FILE ']),
      'write_file',
      'file_system',
      false,
      'denied_list',
    ],
    ['allowed beats the level', perms('sandboxed', ['deploy_app']), 'deploy_app', 'deployment', true, 'allowed_list'],
    ['allowed matched loosely', perms('custom', [' Deploy_App']), 'deploy_app', 'deployment', true, 'allowed_list'],
    ['the level grants', perms('standard'), 'read_file', 'file_system', true, 'access_level'],
    ['restricted grants web', perms('restricted'), 'fetch', 'web', true, 'access_level'],
    ['sandboxed lacks web', perms('sandboxed'), 'fetch', 'web', false, 'default_deny'],
    ['standard lacks database', perms('standard'), 'sql', 'database', false, 'default_deny'],
    ['elevated grants deployment', perms('elevated'), 'deploy_app', 'deployment', true, 'access_level'],
    ['custom grants nothing by level', perms('custom'), 'read_file', 'file_system', false, 'default_deny'],
  ])('should decide: %s', (_label, permissions, tool, category, granted, rule) => {
    const decision = resolveToolPermission(permissions, tool, category);
    expect(decision).toMatchObject({ granted, rule });
    expect(decision.reason).toContain(rule === 'access_level' || rule === 'default_deny' ? category : tool);
  });
});
