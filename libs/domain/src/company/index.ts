export * from './enums';
export * from './company-plan';
export * from './activity';
export * from './rules';
export * from './model-matching';
export * from './company-profile';
export * from './agent-edits';
