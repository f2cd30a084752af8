import { Injectable } from '@nestjs/common';

import {
  DETECTOR_NAMES,
  type DetectorName,
  expandActionTypes,
  type OutputScanPolicy,
  type SecurityEnforcementMode,
  type SecurityPolicy,
  type SettingValue,
} from '@app/domain';

import { SettingsSnapshot } from '../settings';
import { DETECTOR_SETTING_KEYS } from './security.settings';

/**
 * The `security` settings as the pipeline's policy, read from the running snapshot on each call so
 * a change applies to the next tool call. An invalid action list throws (naming the entry): the
 * guard then refuses the call, and at startup the module refuses to boot.
 */
@Injectable()
export class SecurityPolicySource {
  constructor(private readonly settings: SettingsSnapshot) {}

  policy(): SecurityPolicy {
    return {
      mode: this.mode(),
      hardDeny: this.actions('hard_deny_actions'),
      autoApprove: this.actions('auto_approve_actions'),
      detectors: Object.fromEntries(
        DETECTOR_NAMES.map((name) => [name, this.settings.value<boolean>('security', DETECTOR_SETTING_KEYS[name])]),
      ) as Record<DetectorName, boolean>,
      maxArgumentLength: this.settings.value<number>('security', 'max_argument_length'),
    };
  }

  /** `disabled` when security is switched off altogether, else the enforcement mode. */
  mode(): SecurityEnforcementMode {
    if (!this.settings.value<boolean>('security', 'enabled')) {
      return 'disabled';
    }
    return this.settings.value<SecurityEnforcementMode>('security', 'enforcement_mode');
  }

  scanPolicy(): OutputScanPolicy {
    return this.settings.value<OutputScanPolicy>('security', 'output_scan_policy_type');
  }

  scanningEnabled(): boolean {
    return this.settings.value<boolean>('security', 'post_tool_scanning_enabled');
  }

  auditEnabled(): boolean {
    return this.settings.value<boolean>('security', 'audit_enabled');
  }

  private actions(key: string): string[] {
    const raw = this.settings.value<SettingValue>('security', key);
    const entries = Array.isArray(raw) ? raw.filter((entry): entry is string => typeof entry === 'string') : [];
    if (!Array.isArray(raw) || entries.length !== raw.length) {
      throw new TypeError(`security.${key} is not a list of action types`);
    }
    return expandActionTypes(entries, `security.${key}`);
  }
}
