/** The fast-check arbitraries of the kit, all derived from schemas/fields.ts and schemas/operations.ts. */
export * from './values';
export * from './requests';
export * from './responses';
export * from './envelopes';
export * from './property';
export * from './boundaries';
export * from './invalid';
export * from './mutations';
export * from './context';
export * from './xml';
