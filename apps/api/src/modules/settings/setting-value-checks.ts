import { Injectable } from '@nestjs/common';

import { AppError, ErrorCode, parseChain, parseTiers, type SettingDefinition, ValidationError } from '@app/domain';
import { validateSinkSettings } from '@app/platform';

import { SettingsSnapshot } from './settings-snapshot';

/**
 * Rules beyond a definition's type, enum, range and pattern, checked before a value is stored: the
 * log sink settings must keep every sink rule together (one of them is checked with the other's
 * running value, so a change cannot make the pair collide).
 */
@Injectable()
export class SettingValueChecks {
  constructor(private readonly snapshot: SettingsSnapshot) {}

  /** @throws ValidationError (2045) naming the field that breaks a sink rule; 2055 for an approval policy. */
  check(definition: SettingDefinition, text: string): void {
    if (definition.namespace === 'security') {
      this.checkApprovalPolicy(definition.key, text);
      return;
    }
    if (definition.namespace !== 'observability') {
      return;
    }
    if (definition.key === 'sink_overrides') {
      this.checkSinks(text, this.snapshot.value('observability', 'custom_sinks'));
    } else if (definition.key === 'custom_sinks') {
      this.checkSinks(this.snapshot.value('observability', 'sink_overrides'), text);
    }
  }

  /** The approval timeout tiers and escalation chain must have their documented shape. */
  private checkApprovalPolicy(key: string, text: string): void {
    const parse = key === 'approval_tiers' ? parseTiers : key === 'approval_escalation_chain' ? parseChain : null;
    if (parse === null) {
      return;
    }
    try {
      parse(JSON.parse(text));
    } catch (error) {
      throw new ValidationError(`security.${key}: ${(error as Error).message}`, ErrorCode.ApprovalPolicyInvalid);
    }
  }

  /** Validates a candidate pair of sink settings (JSON text or parsed values). */
  checkSinks(sinkOverrides: unknown, customSinks: unknown): void {
    try {
      validateSinkSettings(sinkOverrides, customSinks);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.SinkConfigValidationError) {
        throw new ValidationError(error.message, ErrorCode.SinkSettingInvalid);
      }
      throw error;
    }
  }
}
