/**
 * Node's file-system errors (`ENOENT: no such file or directory, open '…/.x.123.tmp'`) as one
 * sentence a user can act on: the path they gave, what sitemapkit was doing with it, why it failed
 * and what to do. Pure: it only reads the error's `code`, so every edge that touches the disk
 * translates the same way.
 */
import { type ErrorCode, isSitemapkitError, SitemapkitError } from './errors.js';

/** A Node system error: `code` such as `ENOENT`, usually with `syscall` and `path`. */
export interface SystemError extends Error {
  code: string;
  syscall?: string;
  path?: string;
}

/** Whether `error` is one of Node's system errors (`ENOENT`, `EACCES`, `EMFILE`, …). */
export function isSystemError(error: unknown): error is SystemError {
  if (typeof error !== 'object' || error === null || isSitemapkitError(error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
}

/** What was being done with the path when it failed. */
export interface FsContext {
  /** The path as the user gave it (never a temp name derived from it). */
  path: string;
  /** What sitemapkit was doing, as a verb phrase: `read the input file`, `create the output folder`. */
  doing: string;
  /** Reading or writing decides the advice. @default 'read' */
  mode?: 'read' | 'write';
  /** @default 'ERR_INPUT' when reading, 'ERR_OUTPUT' when writing */
  code?: ErrorCode;
  /** Replaces the advice that comes from the error code. */
  hint?: string;
  /** What the path should be, for "no such file" or "no such folder". @default 'file' */
  kind?: 'file' | 'folder';
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted here',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOSPC: 'no space is left on the device',
  EDQUOT: 'the disk quota is used up',
  EEXIST: 'something of that name is already there',
  ELOOP: 'symbolic links loop (or nest too deep) on the way',
  EMFILE: 'too many files are open in this process',
  ENFILE: 'too many files are open on this system',
  ENAMETOOLONG: 'the path is too long',
  EBUSY: 'it is busy (in use by another program)',
  EIO: 'the device reported an I/O error',
  ENOTEMPTY: 'the folder is not empty',
  EXDEV: 'it lies on another file system',
  ETXTBSY: 'it is a program that is running',
  EINVAL: 'the path is not valid here',
  ENXIO: 'no device answers for it',
};

function advice(code: string, mode: 'read' | 'write'): string {
  switch (code) {
    case 'ENOENT':
      return mode === 'read'
        ? 'check the path (relative paths start from the current folder)'
        : 'create the folder first, or choose another path';
    case 'EACCES':
    case 'EPERM':
      return mode === 'read'
        ? 'check its permissions, or run as a user who may read it'
        : 'choose a folder you may write to, or change its permissions';
    case 'EROFS':
      return 'choose a path on a writable file system';
    case 'EISDIR':
      return mode === 'read'
        ? 'give the path of a file inside it'
        : 'give the path of a file, not of a folder';
    case 'ENOTDIR':
      return 'check the path: a name in it that should be a folder is a file';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'free some space and run again';
    case 'EEXIST':
      return 'move it away, or choose another path';
    case 'ELOOP':
      return 'fix the symbolic link';
    case 'EMFILE':
    case 'ENFILE':
      return 'raise the limit of open files (ulimit -n), or run fewer jobs at once';
    case 'ENAMETOOLONG':
      return 'choose a shorter path';
    case 'EBUSY':
    case 'ETXTBSY':
      return 'close the program that holds it, or choose another path';
    default:
      return mode === 'read'
        ? 'check the path and the device'
        : 'check the path and the device, or choose another path';
  }
}

/** `permission denied`: the reason of a system error, in words (with its code when it is a rare one). */
export function fsReason(error: SystemError, kind: 'file' | 'folder' = 'file'): string {
  if (error.code === 'ENOENT') return `no such ${kind}`;
  const reason = REASONS[error.code];
  if (reason !== undefined) return reason;
  // An unknown code: Node's text without the path it repeats (the path is `where`).
  const text = error.message.replace(/^[A-Z0-9]+:\s*/, '').replace(/,\s*\w+\s+'.*'$/, '');
  return `${text} (${error.code})`;
}

/**
 * The {@link SitemapkitError} for a file-system failure at an edge. A `SitemapkitError` passes
 * unchanged (it already says what happened); anything that is not a system error is returned as
 * it is, for the caller to rethrow.
 */
export function fsError(error: unknown, context: FsContext): unknown {
  if (!isSystemError(error)) return error;
  const mode = context.mode ?? 'read';
  return new SitemapkitError(
    context.code ?? (mode === 'read' ? 'ERR_INPUT' : 'ERR_OUTPUT'),
    `cannot ${context.doing}: ${fsReason(error, context.kind)}`,
    { cause: error, where: context.path, hint: context.hint ?? advice(error.code, mode) },
  );
}

/** {@link fsError} for the `catch` of a promise: `await x.catch(rethrowFs({ … }))`. */
export function rethrowFs(context: FsContext): (error: unknown) => never {
  return (error) => {
    throw fsError(error, context);
  };
}
