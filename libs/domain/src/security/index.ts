export * from './action-types';
export * from './autonomy';
export * from './risk';
export * from './tool-access';
export * from './detectors';
export * from './output-scan';
export * from './pipeline';
export * from './sandbox';
