import { SettingEntity } from './setting.entity';

export { SettingEntity };

/** Every entity, registered with the DataSource of both dialects. */
export const ALL_ENTITIES = [SettingEntity];
