import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-codes';
import { ConflictError, NotFoundError, ValidationError } from '../errors/errors';

/** No backup has the id; a malformed id is answered the same way (nothing could have it). */
export class BackupNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`Backup "${id}" not found`, ErrorCode.BackupNotFound);
  }
}

/** A backup, restore or delete already runs here or on another replica. */
export class BackupInProgressError extends ConflictError {
  constructor() {
    super(
      'A backup, restore or delete is already in progress; try again when it has finished',
      ErrorCode.BackupInProgress,
    );
  }
}

/** A manifest that is missing or malformed, or a checksum that does not match the files. */
export class BackupManifestError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(ErrorCode.BackupManifestError, message, false, { cause, publicDetail: true });
  }
}

/** Restoring a component failed; everything restored by this request was rolled back. */
export class BackupRestoreFailedError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(ErrorCode.BackupRestoreFailed, message, false, { cause, publicDetail: true });
  }
}

/** An archive entry that would escape the extraction directory or is not a plain file or directory. */
export class UnsafeArchiveEntryError extends ValidationError {
  constructor(entry: string, reason: string) {
    super(`Backup archive entry "${entry}" refused: ${reason}`, ErrorCode.BackupArchiveUnsafe);
  }
}
