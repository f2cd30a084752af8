// The settings module's public face: other modules import only from here.
export { type SettingListener, SettingsSnapshot } from './settings-snapshot';
export { SettingsFeatureModule, SettingsModule } from './settings.module';
export { LoggingSettingsApplier } from './logging-settings.applier';
