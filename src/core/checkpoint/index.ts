export * from './checkpoint-types';
export * from './metadata';
export * from './half-float';
export * from './tensor-records';
export * from './checkpoint-reader';
export * from './checkpoint-writer';
export * from './flowtune-file';
export * from './tfjs-format';
