// The agent-edits module's public face: nothing but the module (its route is its interface).
export { AgentEditsModule } from './agent-edits.module';
