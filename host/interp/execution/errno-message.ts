// bash's strerror texts for Node's fs error codes, as its messages print them.

export function errnoMsg(e: any): string {
  switch (e?.code) {
    case 'ENOENT': return 'No such file or directory';
    case 'EACCES': return 'Permission denied';
    case 'EISDIR': return 'Is a directory';
    case 'ENOTDIR': return 'Not a directory';
    case 'EEXIST': return 'File exists';
    case 'EBADF': return 'Bad file descriptor';
    case 'ENOTEMPTY': return 'Directory not empty';
    case 'ELOOP': return 'Too many levels of symbolic links';
    case 'ENXIO': return 'No such device or address';
    case 'EPERM': return 'Operation not permitted';
    case 'ENAMETOOLONG': return 'File name too long';
    case 'EROFS': return 'Read-only file system';
    case 'ENOSPC': return 'No space left on device';
    case 'ETXTBSY': return 'Text file busy';
    case 'ENODEV': return 'No such device';
    case 'EINVAL': return 'Invalid argument';
    case 'EIO': return 'Input/output error';
    case 'EPIPE': return 'Broken pipe';
    case 'EMFILE': return 'Too many open files';
    default: {
      // (libuv's `ECODE: text, syscall 'path'`: the text, as strerror spells it)
      const m = typeof e?.message === 'string' ? /^E[A-Z0-9]+: ([^,]+)/.exec(e.message) : null;
      return m ? m[1]![0]!.toUpperCase() + m[1]!.slice(1) : e?.message ?? String(e);
    }
  }
}
