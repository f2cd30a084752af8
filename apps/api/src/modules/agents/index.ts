// The agents module's public face: other modules import only from here.
export { ActivitySources } from './activity-sources';
export { type AgentEdit, AgentRoster, type CareerEvent } from './agent-roster.facade';
export { AgentsModule } from './agents.module';
export type { NewAgent } from './agents.service';
export { PersonalitiesService } from './personalities.service';
export { AgentConfigDto } from './dto/agent.dto';
