export * from './meeting-minutes';
export * from './meeting-protocols';
export * from './meeting-types';
