import { Injectable } from '@nestjs/common';

type AgentLookup = (provider: string) => Promise<string[]>;

/**
 * Who still uses a provider's models, so a provider in use is not deleted. The roster answers it
 * through this hook (the agents module builds on the providers module, so providers cannot ask it
 * directly); without a roster no agent uses any provider.
 */
@Injectable()
export class ProviderUsage {
  private agentLookup: AgentLookup = () => Promise.resolve([]);

  /** Installs the lookup of the names of agents whose model comes from a provider. */
  answerAgentsUsing(lookup: AgentLookup): void {
    this.agentLookup = lookup;
  }

  agentsUsing(provider: string): Promise<string[]> {
    return this.agentLookup(provider);
  }
}
