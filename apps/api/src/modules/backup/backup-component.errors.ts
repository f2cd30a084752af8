import { AppError, ErrorCode, ValidationError } from '@app/domain';

/** A component cannot be backed up or restored here: a missing tool, an unusable source. */
export class BackupComponentUnavailableError extends ValidationError {
  constructor(message: string) {
    super(message, ErrorCode.BackupComponentUnavailable);
  }
}

/** Free space at the backup target is below twice the size of the last backup. */
export class BackupInsufficientSpaceError extends AppError {
  constructor(freeBytes: number, neededBytes: number) {
    super(
      ErrorCode.BackupInsufficientSpace,
      `Backup refused: ${freeBytes} bytes free at the backup path, at least ${neededBytes} needed (twice the last backup)`,
      false,
      { httpStatus: 400 },
    );
  }
}
