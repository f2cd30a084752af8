export * from './personality';
export * from './builtin-presets';
