// The agents module's public face: other modules import only from here.
export { ActivitySources } from './activity-sources';
export { AgentRoster, type CareerEvent } from './agent-roster.facade';
export type { AgentSettings } from './agents.mapper';
export { AgentsModule } from './agents.module';
export type { AgentEdit, LevelChange, NewAgent, VersionedAgentEdit } from './agents.service';
export { PersonalitiesService } from './personalities.service';
export { AgentConfigDto } from './dto/agent.dto';
export { PERSONALITY_UPDATE_BODY } from './dto/personality.dto';
