/**
 * The engine's public face. Extension types (pre-flight checks, tools, security checks, output
 * scanners, spend control) are declared in @app/domain; modules register implementations with
 * RunPreflight, RunSpend, RunOutputs and ToolInvoker. What runs leave behind is read through the run ledger (modules/run-ledger).
 */
export { EngineModule } from './engine.module';
export { logOrchestration } from './orchestration-log';
export { RunParking } from './parking/run-parking';
export { RunEnds } from './run-ends';
export { type FinishedRun, RunMemory, type RunMemoryPort } from './run-memory';
export { RunOutputs } from './run-outputs';
export { RunPreflight } from './run-preflight';
export { RunSpend } from './run-spend';
export { TaskEngine } from './task-engine';
export { toolDefinition } from './tools/builtin-tools';
export { MergedFiles, type TaskMerge } from './workspace/merged-files';
export { ToolInvoker, type ToolInvocation, type ToolInvocationResult } from './tools/tool-invoker';
