import { ErrorCode } from '../errors';
import {
  assertInstantiable,
  assertSelectable,
  estimateMonthlyCost,
  HIRING_STATUSES,
  type HiringStatus,
  presetForRole,
} from './hiring-rules';

describe('hiring rules', () => {
  describe(assertInstantiable.name, () => {
    it('should let only an approved request through', () => {
      expect(() => assertInstantiable('r', 'approved')).not.toThrow();
    });

    it.each<[HiringStatus, number]>([
      ['pending', ErrorCode.HiringRequestPending],
      ['rejected', ErrorCode.HiringRequestRejected],
      ['instantiated', ErrorCode.HiringRequestInstantiated],
    ])('should refuse a %s request with its own code', (status, code) => {
      expect(() => assertInstantiable('r', status)).toThrow(expect.objectContaining({ code }));
    });

    it('should give every status a distinct answer', () => {
      const codes = HIRING_STATUSES.map((status) => {
        try {
          assertInstantiable('r', status);
          return 'ok';
        } catch (error) {
          return (error as { code: number }).code;
        }
      });
      expect(new Set(codes).size).toBe(HIRING_STATUSES.length);
    });
  });

  describe(assertSelectable.name, () => {
    it('should allow a choice while pending or approved and refuse it after', () => {
      expect(() => assertSelectable('r', 'pending')).not.toThrow();
      expect(() => assertSelectable('r', 'approved')).not.toThrow();
      expect(() => assertSelectable('r', 'rejected')).toThrow(
        expect.objectContaining({ code: ErrorCode.HiringRequestRejected }),
      );
      expect(() => assertSelectable('r', 'instantiated')).toThrow(
        expect.objectContaining({ code: ErrorCode.HiringRequestInstantiated }),
      );
    });
  });

  describe(estimateMonthlyCost.name, () => {
    it('should price 1M input and 250k output tokens at the model prices, to the cent', () => {
      expect(estimateMonthlyCost({ costPer1kInput: 1, costPer1kOutput: 2 })).toBe(1500);
      expect(estimateMonthlyCost({ costPer1kInput: 0.003, costPer1kOutput: 0.015 })).toBe(6.75);
      expect(estimateMonthlyCost({ costPer1kInput: 0, costPer1kOutput: 0 })).toBe(0);
    });
  });

  describe(presetForRole.name, () => {
    it.each([
      ['Security Auditor', 'security_sentinel'],
      ['QA Engineer', 'quality_guardian'],
      ['Product Manager', 'user_advocate'],
      ['UX Designer', 'creative_innovator'],
      ['Data Analyst', 'data_driven_optimizer'],
      ['CTO', 'systems_thinker'],
      ['Backend Developer', 'pragmatic_builder'],
    ])('should give "%s" the %s preset', (role, preset) => {
      expect(presetForRole(role)).toBe(preset);
    });
  });
});
