export * from './action-types';
export * from './autonomy';
export * from './risk';
export * from './tool-access';
