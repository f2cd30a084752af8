// The memory module's public face: other modules import only from here.
export { MemoryModule } from './memory.module';
export { MemoryService } from './memory.service';
export { MemoryBackup } from './memory-backup';
export { MemoryReembedding, type ReembeddingProgress } from './memory-reembedding';
export { type ConsolidationReport, MemoryConsolidation } from './memory-consolidation';
export { ORG_FACT_ACTION, OrgFactProposals } from './org-fact-proposals';
