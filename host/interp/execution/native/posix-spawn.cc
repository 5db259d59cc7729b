// External commands through posix_spawn(3) instead of libuv's fork(2) (see native-spawn.ts).
// glibc's posix_spawn clones with CLONE_VM|CLONE_VFORK: no copy of this large process's page
// tables, so a command starts in about half the time. The child is watched through a pidfd
// polled by the event loop (libuv's SIGCHLD handler reaps only the processes libuv spawned).
//
// Also anonymous pipes (pipe(2)), which Node cannot make.
//
// spawn(file, argv, env, cwd, fds, setsid, onExit[, ignored]) -> pid, or -errno when nothing was started
//   file, cwd: Buffer (bytes, no NUL); argv, env: Buffer[] ("NAME=value"); fds: Int32Array, the
//   parent fd for each child fd 0..n-1 (-1: closed in the child); setsid: a new session and
//   process group (libuv's `detached`); onExit(code, signal): code -1 when killed by `signal`;
//   ignored: Int32Array of signals the child starts with ignored (the shell's `trap '' SIG`).
#include <node_api.h>
#include <uv.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string>
#include <vector>

namespace {

struct Child {
  uv_poll_t poll;
  pid_t pid;
  int pidfd;
  napi_env env;
  napi_ref onExit;
  napi_async_context async;
};

void closed(uv_handle_t* h) {
  Child* c = static_cast<Child*>(h->data);
  close(c->pidfd);
  delete c;
}

void ready(uv_poll_t* p, int, int) {
  Child* c = static_cast<Child*>(p->data);
  int st = 0;
  pid_t r = waitpid(c->pid, &st, WNOHANG);
  if (r == 0) return;  // (not a zombie yet: the pidfd is polled again)
  uv_poll_stop(p);
  int code = -1, sig = 0;
  if (r > 0 && WIFEXITED(st)) code = WEXITSTATUS(st);
  else if (r > 0 && WIFSIGNALED(st)) sig = WTERMSIG(st);
  napi_env env = c->env;
  napi_handle_scope scope;
  napi_open_handle_scope(env, &scope);
  napi_value fn, global, argv[2], result;
  napi_get_reference_value(env, c->onExit, &fn);
  napi_get_global(env, &global);
  napi_create_int32(env, code, &argv[0]);
  napi_create_int32(env, sig, &argv[1]);
  // (make_callback: microtasks and nextTicks run after it, as after any libuv callback)
  napi_make_callback(env, c->async, global, fn, 2, argv, &result);
  napi_delete_reference(env, c->onExit);
  napi_async_destroy(env, c->async);
  napi_close_handle_scope(env, scope);
  uv_close(reinterpret_cast<uv_handle_t*>(p), closed);
}

std::string bytes(napi_env env, napi_value v) {
  void* data = nullptr;
  size_t len = 0;
  if (napi_get_buffer_info(env, v, &data, &len) != napi_ok) return std::string();
  return std::string(static_cast<char*>(data), len);
}

std::vector<std::string> byteList(napi_env env, napi_value v) {
  std::vector<std::string> out;
  uint32_t n = 0;
  napi_get_array_length(env, v, &n);
  for (uint32_t i = 0; i < n; i++) {
    napi_value e;
    napi_get_element(env, v, i, &e);
    out.push_back(bytes(env, e));
  }
  return out;
}

napi_value number(napi_env env, int v) {
  napi_value r;
  napi_create_int32(env, v, &r);
  return r;
}

napi_value Spawn(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value a[8];
  napi_get_cb_info(env, info, &argc, a, nullptr, nullptr);
  if (argc < 7) {
    napi_throw_type_error(env, nullptr, "spawn: 7 arguments expected");
    return nullptr;
  }
  std::string file = bytes(env, a[0]), cwd = bytes(env, a[3]);
  std::vector<std::string> args = byteList(env, a[1]), envs = byteList(env, a[2]);
  napi_typedarray_type type;
  size_t nfds = 0;
  void* fdData = nullptr;
  napi_value ab;
  size_t offset;
  if (napi_get_typedarray_info(env, a[4], &type, &nfds, &fdData, &ab, &offset) != napi_ok || type != napi_int32_array) {
    napi_throw_type_error(env, nullptr, "spawn: fds must be an Int32Array");
    return nullptr;
  }
  const int32_t* fds = static_cast<const int32_t*>(fdData);
  bool newSession = false;
  napi_get_value_bool(env, a[5], &newSession);

  std::vector<char*> argvp, envp;
  for (auto& s : args) argvp.push_back(const_cast<char*>(s.c_str()));
  argvp.push_back(nullptr);
  for (auto& s : envs) envp.push_back(const_cast<char*>(s.c_str()));
  envp.push_back(nullptr);

  int err = 0;
  // Each source is first duplicated above every target fd (close-on-exec), so that no dup2 onto
  // a target can clobber a source a later one still needs.
  std::vector<int> tmp(nfds, -1);
  for (size_t i = 0; i < nfds && !err; i++) {
    if (fds[i] < 0) continue;
    tmp[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, static_cast<int>(nfds));
    if (tmp[i] < 0) err = errno;
    // like libuv, the child's stdio is in blocking mode (the flag belongs to the open file,
    // shared with the child: libuv clears it from the child, which is the same)
    else if (i <= 2) {
      int fl = fcntl(tmp[i], F_GETFL);
      if (fl >= 0 && (fl & O_NONBLOCK)) fcntl(tmp[i], F_SETFL, fl & ~O_NONBLOCK);
    }
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  for (size_t i = 0; i < nfds && !err; i++) {
    if (tmp[i] >= 0) posix_spawn_file_actions_adddup2(&actions, tmp[i], static_cast<int>(i));
    else posix_spawn_file_actions_addclose(&actions, static_cast<int>(i));
  }
  if (!err && !cwd.empty()) err = posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  // every signal back to its default action and unblocked, as libuv does in its child
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  // A signal the shell ignores stays ignored in the child, as bash's are: posix_spawn leaves a
  // signal out of the default set as the parent has it, so the parent ignores it for the moment
  // of the spawn (the shell ignores it anyway: its trap is '').
  std::vector<int> ignored;
  if (argc >= 8) {
    napi_typedarray_type itype;
    size_t n = 0;
    void* data = nullptr;
    if (napi_get_typedarray_info(env, a[7], &itype, &n, &data, &ab, &offset) == napi_ok && itype == napi_int32_array) {
      const int32_t* sigs = static_cast<const int32_t*>(data);
      for (size_t i = 0; i < n; i++) if (sigs[i] > 0 && sigs[i] < NSIG && sigs[i] != SIGKILL && sigs[i] != SIGSTOP) ignored.push_back(sigs[i]);
    }
  }
  std::vector<struct sigaction> saved(ignored.size());
  struct sigaction ign = {};
  ign.sa_handler = SIG_IGN;
  for (size_t i = 0; i < ignored.size(); i++) {
    sigdelset(&all, ignored[i]);
    sigaction(ignored[i], &ign, &saved[i]);
  }
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (newSession) flags |= POSIX_SPAWN_SETSID;
  posix_spawnattr_setflags(&attr, flags);
  pid_t pid = -1;
  if (!err) err = posix_spawn(&pid, file.c_str(), &actions, &attr, argvp.data(), envp.data());
  for (size_t i = ignored.size(); i-- > 0;) sigaction(ignored[i], &saved[i], nullptr);
  for (int t : tmp) if (t >= 0) close(t);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (err) return number(env, -err);

  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  uv_loop_t* loop = nullptr;
  napi_get_uv_event_loop(env, &loop);
  Child* c = new Child();
  c->pid = pid;
  c->pidfd = pidfd;
  c->env = env;
  c->poll.data = c;
  if (pidfd < 0 || uv_poll_init(loop, &c->poll, pidfd) != 0) {
    // (cannot happen on Linux >= 5.3; the caller checks pidfd support before using this module)
    if (pidfd >= 0) close(pidfd);
    delete c;
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return number(env, -ENOSYS);
  }
  napi_create_reference(env, a[6], 1, &c->onExit);
  napi_value name;
  napi_create_string_utf8(env, "hpatch-interp-spawn", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, nullptr, name, &c->async);
  uv_poll_start(&c->poll, UV_READABLE, ready);
  return number(env, pid);
}

// pipe() -> [read fd, write fd] of a new anonymous pipe (close-on-exec), or -errno. A FIFO
// reopened through /dev/stdin waits for a writer once its own is gone; a pipe gives end-of-file.
napi_value Pipe(napi_env env, napi_callback_info) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return number(env, -errno);
  napi_value arr;
  napi_create_array_with_length(env, 2, &arr);
  napi_set_element(env, arr, 0, number(env, fds[0]));
  napi_set_element(env, arr, 1, number(env, fds[1]));
  return arr;
}

// supported() -> whether pidfd_open works here (Linux >= 5.3)
napi_value Supported(napi_env env, napi_callback_info) {
  int fd = static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0));
  napi_value r;
  napi_get_boolean(env, fd >= 0, &r);
  if (fd >= 0) close(fd);
  return r;
}

}  // namespace

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "spawn", NAPI_AUTO_LENGTH, Spawn, nullptr, &fn);
  napi_set_named_property(env, exports, "spawn", fn);
  napi_create_function(env, "pipe", NAPI_AUTO_LENGTH, Pipe, nullptr, &fn);
  napi_set_named_property(env, exports, "pipe", fn);
  napi_create_function(env, "supported", NAPI_AUTO_LENGTH, Supported, nullptr, &fn);
  napi_set_named_property(env, exports, "supported", fn);
  return exports;
}
