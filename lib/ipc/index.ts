// Exported handles between processes (Unix sockets, SCM_RIGHTS): the area
// imports the core's addon and validators only, nothing of the producers or
// of lib/interop (it takes their exports by shape).
export {
  HandleChannel,
  HandleChannelError,
  HandleListener,
  ReceivedHandle,
  type HandleChannelFailure,
  type HandleKind,
  type HandleListenOptions,
  type HandlePeer,
  type HandleReceiveOptions,
  type HandleSendOptions,
  type ReceivedHandleType,
  type ReceivedHandles,
  type SendableHandle,
} from './handle-channel';
