export * from './cost-redaction';
export * from './password-policy';
export * from './permissions';
export * from './roles';
