// One end of a Unix socket (SOCK_SEQPACKET: a message and its descriptors arrive
// whole or not at all) that sends and receives file descriptors with SCM_RIGHTS.
// Thin: non-blocking calls that report EAGAIN as null, and a wait for readiness
// on the event loop (uv_poll); lib/ipc/handle-channel.ts decides what a message
// holds, what is refused and who closes what.
#include "ipc/ipc.h"

#include "environment.h"

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#if !defined(_WIN32)
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <uv.h>
#endif

namespace ocl {
namespace {

#if !defined(_WIN32)

// An Error with the errno's name as `code`, as Node's own system errors have.
[[noreturn]] void ThrowErrno(Napi::Env env, const char* call, int error) {
  static const std::pair<int, const char*> kNames[] = {{EPIPE, "EPIPE"},
                                                       {ECONNRESET, "ECONNRESET"},
                                                       {ECONNREFUSED, "ECONNREFUSED"},
                                                       {ENOENT, "ENOENT"},
                                                       {EADDRINUSE, "EADDRINUSE"},
                                                       {EACCES, "EACCES"},
                                                       {EBADF, "EBADF"},
                                                       {ENOTSOCK, "ENOTSOCK"},
                                                       {EMFILE, "EMFILE"},
                                                       {ENFILE, "ENFILE"},
                                                       {ENOBUFS, "ENOBUFS"},
                                                       {ENOMEM, "ENOMEM"},
                                                       {EINVAL, "EINVAL"},
                                                       {EAGAIN, "EAGAIN"},
                                                       {ENAMETOOLONG, "ENAMETOOLONG"},
                                                       {EPERM, "EPERM"},
                                                       {ETOOMANYREFS, "ETOOMANYREFS"},
                                                       {EMSGSIZE, "EMSGSIZE"},
                                                       {ENOTCONN, "ENOTCONN"},
                                                       {EPROTOTYPE, "EPROTOTYPE"}};
  const char* code = "EUNKNOWN";
  for (auto& [number, name] : kNames)
    if (number == error) code = name;
  Napi::Error e = Napi::Error::New(env, std::string(call) + " failed: " + std::strerror(error) + " (" + code + ")");
  e.Set("code", code);
  e.Set("syscall", call);
  e.Set("errno", Napi::Number::New(env, -error));
  throw e;
}

bool SetFlags(int fd) {
  int fl = fcntl(fd, F_GETFL);
  return fl != -1 && fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) == 0;
}

sockaddr_un PathAddress(Napi::Env env, const Napi::Value& value, socklen_t* length) {
  std::string path = value.As<Napi::String>().Utf8Value();
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof address.sun_path) throw Napi::RangeError::New(env, "the socket path does not fit in sun_path");
  if (path.find('\0') != std::string::npos) throw Napi::TypeError::New(env, "the socket path holds a NUL byte");
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  *length = socklen_t(offsetof(sockaddr_un, sun_path) + path.size() + 1);
  return address;
}

#endif

// The descriptors live channels own, in every thread of the process (descriptors are the process's): an
// adoption of one would make two owners that both close it.
std::mutex live_mutex;
std::set<int>& LiveFds() {
  static std::set<int> fds;
  return fds;
}
void Own(int fd) {
  std::lock_guard<std::mutex> lock(live_mutex);
  LiveFds().insert(fd);
}
[[maybe_unused]] void Disown(int fd) {
  std::lock_guard<std::mutex> lock(live_mutex);
  LiveFds().erase(fd);
}
[[maybe_unused]] bool Owned(int fd) {
  std::lock_guard<std::mutex> lock(live_mutex);
  return LiveFds().count(fd) != 0;
}

class NativeHandleChannel : public Napi::ObjectWrap<NativeHandleChannel> {
 public:
  static constexpr const char* kName = "NativeHandleChannel";
  static const napi_type_tag kTypeTag;  // its key in the environment's constructors

  explicit NativeHandleChannel(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeHandleChannel>(info) {
    env_ = info.Env();
    fd_ = info[0].As<Napi::Number>().Int32Value();
    if (fd_ >= 0) Own(fd_);
    napi_add_env_cleanup_hook(env_, Cleanup, this);
  }
  ~NativeHandleChannel() override {
    napi_remove_env_cleanup_hook(env_, Cleanup, this);
    Shut(false);
  }

  static Napi::Object Make(Napi::Env env, int fd) { return AddonData::Get(env).constructors.at(&kTypeTag).New({Napi::Number::New(env, fd)}); }

  static void Init(Napi::Env env, Napi::Object exports) {
    Napi::Function ctor = DefineClass(env, kName,
                                      {InstanceMethod("send", &NativeHandleChannel::Send), InstanceMethod("receive", &NativeHandleChannel::Receive),
                                       InstanceMethod("accept", &NativeHandleChannel::Accept), InstanceMethod("wait", &NativeHandleChannel::Wait),
                                       InstanceMethod("peer", &NativeHandleChannel::Peer), InstanceMethod("close", &NativeHandleChannel::Close),
                                       InstanceAccessor("fd", &NativeHandleChannel::Fd, nullptr)});
    AddonData::Get(env).constructors[&kTypeTag] = Napi::Persistent(ctor);
  }

 private:
  // A pending wait of one direction: its promise and the async context its settling runs in.
  struct Waiter {
    napi_deferred deferred = nullptr;
    napi_async_context context = nullptr;
  };
#if !defined(_WIN32)
  // The channel's one poll handle (libuv allows one per descriptor), watching what the pending waits need.
  struct Poll {
    uv_poll_t handle;
    NativeHandleChannel* owner;
  };
#else
  struct Poll {};
#endif

  static void Cleanup(void* self) { static_cast<NativeHandleChannel*>(self)->Shut(false); }

  // Settles a wait: resolved (the caller tries its call again), or rejected with a libuv status. Inside a
  // callback scope where `scoped`, so that the promise's reactions run now.
  static void Settle(napi_env env, Waiter waiter, int status, bool scoped) {
    if (!waiter.deferred) return;
    napi_handle_scope handles;
    napi_open_handle_scope(env, &handles);
    napi_callback_scope scope = nullptr;
    if (scoped) {
      napi_value resource;
      napi_create_object(env, &resource);
      napi_open_callback_scope(env, resource, waiter.context, &scope);
    }
    napi_value value;
    if (status < 0) {
#if !defined(_WIN32)
      napi_value message;
      napi_create_string_utf8(env, uv_strerror(status), NAPI_AUTO_LENGTH, &message);
      napi_create_error(env, nullptr, message, &value);
#else
      napi_get_undefined(env, &value);
#endif
      napi_reject_deferred(env, waiter.deferred, value);
    } else {
      napi_get_undefined(env, &value);
      napi_resolve_deferred(env, waiter.deferred, value);
    }
    if (scope) napi_close_callback_scope(env, scope);
    napi_async_destroy(env, waiter.context);
    napi_close_handle_scope(env, handles);
  }

  // Stops watching and closes the fd. `settle`: close() was called, so the pending waits resolve (their
  // callers find the channel closed); otherwise the environment is going away or the object was collected,
  // and nothing is settled.
  void Shut(bool settle) {
#if !defined(_WIN32)
    if (poll_) {
      Poll* p = poll_;
      poll_ = nullptr;
      p->owner = nullptr;
      uv_poll_stop(&p->handle);
      uv_close(reinterpret_cast<uv_handle_t*>(&p->handle), [](uv_handle_t* h) { delete static_cast<Poll*>(h->data); });
    }
    if (fd_ >= 0) {
      Disown(fd_);
      close(fd_);
    }
#endif
    fd_ = -1;
    Waiter read = read_, write = write_;
    read_ = write_ = Waiter{};
    if (settle) {
      Settle(env_, read, 0, false);
      Settle(env_, write, 0, false);
    } else {
      if (read.context) napi_async_destroy(env_, read.context);
      if (write.context) napi_async_destroy(env_, write.context);
    }
  }

  int Live(Napi::Env env) const {
    if (fd_ < 0) throw Napi::Error::New(env, "the channel is closed");
    return fd_;
  }

  Napi::Value Fd(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), fd_); }

  // send(bytes: Uint8Array, fds: number[]) -> bytes sent | null (EAGAIN: wait for writable)
  Napi::Value Send(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
#if defined(_WIN32)
    throw Napi::Error::New(env, "SCM_RIGHTS needs a Unix socket");
#else
    int fd = Live(env);
    Napi::Uint8Array bytes = info[0].As<Napi::Uint8Array>();
    Napi::Array list = info[1].As<Napi::Array>();
    std::vector<int> fds(list.Length());
    for (uint32_t i = 0; i < fds.size(); ++i) fds[i] = list.Get(i).As<Napi::Number>().Int32Value();
    iovec iov{bytes.Data(), bytes.ByteLength()};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    std::vector<char> control(fds.empty() ? 0 : CMSG_SPACE(sizeof(int) * fds.size()));
    if (!fds.empty()) {
      message.msg_control = control.data();
      message.msg_controllen = control.size();
      cmsghdr* header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t sent;
    do sent = sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);  // a closed peer is EPIPE, never SIGPIPE
    while (sent < 0 && errno == EINTR);
    if (sent < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return env.Null();
      ThrowErrno(env, "sendmsg", errno);
    }
    return Napi::Number::New(env, double(sent));
#endif
  }

  // receive(maxBytes, maxFds) -> { bytes, fds, truncated, controlTruncated, ended } | null (EAGAIN).
  // A datagram of no bytes is also what recvmsg returns at the end of the stream: `ended` tells them apart
  // (the peer has shut down and no message is left queued).
  Napi::Value Receive(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
#if defined(_WIN32)
    throw Napi::Error::New(env, "SCM_RIGHTS needs a Unix socket");
#else
    int fd = Live(env);
    size_t maxBytes = size_t(info[0].As<Napi::Number>().Int64Value());
    size_t maxFds = size_t(info[1].As<Napi::Number>().Int64Value());
    std::vector<uint8_t> buffer(maxBytes);
    std::vector<char> control(CMSG_SPACE(sizeof(int) * maxFds));
    iovec iov{buffer.data(), buffer.size()};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    ssize_t got;
    do got = recvmsg(fd, &message, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    while (got < 0 && errno == EINTR);
    if (got < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return env.Null();
      ThrowErrno(env, "recvmsg", errno);
    }
    Napi::Array fds = Napi::Array::New(env);
    uint32_t n = 0;
    for (cmsghdr* header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
      if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
      size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      const int* data = reinterpret_cast<const int*>(CMSG_DATA(header));
      for (size_t i = 0; i < count; ++i) fds.Set(n++, Napi::Number::New(env, data[i]));
    }
    bool ended = false;
    if (got == 0 && n == 0 && !(message.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
      pollfd hangup{fd, POLLRDHUP, 0};
      int queued = 0;
      ended = poll(&hangup, 1, 0) == 1 && (hangup.revents & (POLLRDHUP | POLLHUP)) != 0 && ioctl(fd, FIONREAD, &queued) == 0 && queued == 0;
    }
    Napi::Object out = Napi::Object::New(env);
    out.Set("bytes", Napi::Uint8Array::New(env, size_t(got)));
    std::memcpy(out.Get("bytes").As<Napi::Uint8Array>().Data(), buffer.data(), size_t(got));
    out.Set("fds", fds);
    out.Set("truncated", (message.msg_flags & MSG_TRUNC) != 0);
    out.Set("controlTruncated", (message.msg_flags & MSG_CTRUNC) != 0);
    out.Set("ended", ended);
    return out;
#endif
  }

  // accept() -> NativeHandleChannel | null (EAGAIN: wait for readable) on a listening channel
  Napi::Value Accept(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
#if defined(_WIN32)
    throw Napi::Error::New(env, "SCM_RIGHTS needs a Unix socket");
#else
    int fd = Live(env);
    int peer;
    do peer = accept4(fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    while (peer < 0 && errno == EINTR);
    if (peer < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return env.Null();
      ThrowErrno(env, "accept4", errno);
    }
    return Make(env, peer);
#endif
  }

  // peer() -> { pid, uid, gid } of the process at the other end when it connected (SO_PEERCRED), or null
  Napi::Value Peer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
#if defined(_WIN32)
    return env.Null();
#else
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (fd_ < 0 || getsockopt(fd_, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return env.Null();
    Napi::Object out = Napi::Object::New(env);
    out.Set("pid", Napi::Number::New(env, credentials.pid));
    out.Set("uid", Napi::Number::New(env, credentials.uid));
    out.Set("gid", Napi::Number::New(env, credentials.gid));
    return out;
#endif
  }

  // wait(writable: boolean) -> Promise<void>: resolves once the socket is readable (or writable), hung up, or
  // closed by close(). One wait of each direction at a time: a receive (or accept) and a send wait together.
  // The event loop stays alive while one is pending.
  Napi::Value Wait(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
#if defined(_WIN32)
    throw Napi::Error::New(env, "SCM_RIGHTS needs a Unix socket");
#else
    int fd = Live(env);
    bool writable = info[0].ToBoolean();
    Waiter& waiter = writable ? write_ : read_;
    if (waiter.deferred) throw Napi::Error::New(env, writable ? "a send already waits on this channel" : "a receive already waits on this channel");
    if (!poll_) {
      uv_loop_t* loop = nullptr;
      if (napi_get_uv_event_loop(env, &loop) != napi_ok || !loop) throw Napi::Error::New(env, "no event loop");
      auto* p = new Poll{};
      p->owner = this;
      if (uv_poll_init(loop, &p->handle, fd) != 0) {
        delete p;
        ThrowErrno(env, "uv_poll_init", EBADF);
      }
      p->handle.data = p;
      poll_ = p;
    }
    napi_value promise;
    napi_create_promise(env, &waiter.deferred, &promise);
    napi_async_init(env, nullptr, Napi::String::New(env, "opencl-interop handle channel"), &waiter.context);
    Arm();
    return Napi::Value(env, promise);
#endif
  }

#if !defined(_WIN32)
  // Watches what the pending waits need, or nothing.
  void Arm() {
    if (!poll_) return;
    int events = (read_.deferred ? UV_READABLE : 0) | (write_.deferred ? UV_WRITABLE : 0);
    if (events == 0) {
      uv_poll_stop(&poll_->handle);
      return;
    }
    uv_poll_start(&poll_->handle, events | UV_DISCONNECT, OnPoll);
  }

  static void OnPoll(uv_poll_t* handle, int status, int events) {
    NativeHandleChannel* self = static_cast<Poll*>(handle->data)->owner;
    if (!self) return;
    bool hungUp = status < 0 || (events & UV_DISCONNECT) != 0;
    Waiter read{}, write{};
    if (self->read_.deferred && (hungUp || (events & UV_READABLE))) std::swap(read, self->read_);
    if (self->write_.deferred && (hungUp || (events & UV_WRITABLE))) std::swap(write, self->write_);
    self->Arm();
    napi_env env = self->env_;
    // The first settling may run JavaScript that closes or collects the channel: `self` is not used after it.
    Settle(env, read, status, true);
    Settle(env, write, status, true);
  }
#endif

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Shut(true);
    return info.Env().Undefined();
  }

  napi_env env_;
  int fd_ = -1;
  Poll* poll_ = nullptr;
  Waiter read_, write_;
};

const napi_type_tag NativeHandleChannel::kTypeTag = {0x3c91e6a47b2d5f08ULL, 0xd2a7f05c18e49b63ULL};

#if !defined(_WIN32)
// ipcSocketPair() -> [NativeHandleChannel, NativeHandleChannel]
Napi::Value SocketPair(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) != 0) ThrowErrno(env, "socketpair", errno);
  Napi::Array out = Napi::Array::New(env, 2);
  out.Set(0u, NativeHandleChannel::Make(env, fds[0]));
  out.Set(1u, NativeHandleChannel::Make(env, fds[1]));
  return out;
}

// ipcConnect(path) -> NativeHandleChannel
Napi::Value Connect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  socklen_t length;
  sockaddr_un address = PathAddress(env, info[0], &length);
  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) ThrowErrno(env, "socket", errno);
  int rc;
  do rc = connect(fd, reinterpret_cast<sockaddr*>(&address), length);
  while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    int error = errno;
    close(fd);
    ThrowErrno(env, "connect", error);
  }
  return NativeHandleChannel::Make(env, fd);
}

// ipcListen(path, backlog, mode) -> NativeHandleChannel (listening). The socket file is made with `mode`
// less the umask (the socket's own mode, set before bind, is what bind gives the file), and nothing can
// connect before listen(); a failed listen() removes the file bind made.
Napi::Value Listen(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  socklen_t length;
  sockaddr_un address = PathAddress(env, info[0], &length);
  int backlog = info[1].As<Napi::Number>().Int32Value();
  mode_t mode = mode_t(info[2].As<Napi::Number>().Uint32Value() & 0777);
  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) ThrowErrno(env, "socket", errno);
  if (fchmod(fd, mode) != 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0) {
    int error = errno;
    close(fd);
    ThrowErrno(env, "bind", error);
  }
  if (listen(fd, backlog) != 0) {
    int error = errno;
    unlink(address.sun_path);
    close(fd);
    ThrowErrno(env, "listen", error);
  }
  return NativeHandleChannel::Make(env, fd);
}

// ipcAdopt(fd) -> NativeHandleChannel | string (why the fd is not a Unix SOCK_SEQPACKET socket): takes the fd over
Napi::Value Adopt(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int fd = info[0].As<Napi::Number>().Int32Value();
  if (fcntl(fd, F_GETFD) == -1) return Napi::String::New(env, "it is not an open file descriptor");
  if (Owned(fd))
    return Napi::String::New(env,
                             "it is the descriptor of a live HandleChannel of this process, which closes it (use that channel, or close it first)");
  int type = 0, domain = 0;
  socklen_t size = sizeof type;
  if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) != 0) return Napi::String::New(env, "it is not a socket");
  size = sizeof domain;
  if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &size) != 0 || domain != AF_UNIX) return Napi::String::New(env, "it is not a Unix socket");
  if (type != SOCK_SEQPACKET) return Napi::String::New(env, "it is a Unix socket of another type (not SOCK_SEQPACKET)");
  if (!SetFlags(fd)) ThrowErrno(env, "fcntl", errno);
  return NativeHandleChannel::Make(env, fd);
}
#endif

}  // namespace

void InitIpc(Napi::Env env, Napi::Object exports) {
  NativeHandleChannel::Init(env, exports);
#if !defined(_WIN32)
  exports.Set("ipcSocketPair", Napi::Function::New(env, SocketPair, "ipcSocketPair"));
  exports.Set("ipcConnect", Napi::Function::New(env, Connect, "ipcConnect"));
  exports.Set("ipcListen", Napi::Function::New(env, Listen, "ipcListen"));
  exports.Set("ipcAdopt", Napi::Function::New(env, Adopt, "ipcAdopt"));
#endif
}

}  // namespace ocl
