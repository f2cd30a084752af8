import { describe, expect, it } from 'vitest';

import { resolveStep, resumeStep, type SetupStatus } from './steps';

const FRESH: SetupStatus = {
  needs_admin: true,
  needs_setup: true,
  has_company: false,
  has_agents: false,
  has_providers: false,
  has_name_locales: false,
  min_password_length: 12,
};
const SIGNED_UP = { ...FRESH, needs_admin: false };
const WITH_COMPANY = { ...SIGNED_UP, has_company: true, has_agents: true };
const WITH_PROVIDER = { ...WITH_COMPANY, has_providers: true };

describe('setup steps', () => {
  it('should resume at the first step the service still needs', () => {
    expect(resumeStep(FRESH)).toBe('account');
    expect(resumeStep(SIGNED_UP)).toBe('company');
    expect(resumeStep(WITH_COMPANY)).toBe('provider');
    expect(resumeStep(WITH_PROVIDER)).toBe('agents');
  });

  it('should let the address revisit a step already reached but not skip ahead', () => {
    expect(resolveStep('company', WITH_PROVIDER)).toBe('company');
    expect(resolveStep('finish', WITH_PROVIDER)).toBe('finish');
    expect(resolveStep('agents', WITH_COMPANY)).toBe('provider');
    expect(resolveStep('finish', SIGNED_UP)).toBe('company');
  });

  it('should never show the account step once a CEO exists, nor another step before', () => {
    expect(resolveStep('account', WITH_COMPANY)).toBe('provider');
    expect(resolveStep('provider', FRESH)).toBe('account');
    expect(resolveStep(undefined, FRESH)).toBe('account');
    expect(resolveStep('nonsense', WITH_COMPANY)).toBe('provider');
  });
});
