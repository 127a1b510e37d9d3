// Exported handles between processes (Unix sockets, SCM_RIGHTS): the area
// imports the core's addon and validators only, nothing of the producers or
// of lib/interop (it takes their exports by shape).
export { HandleChannelError, type HandleChannelFailure } from './errors';
export {
  HandleChannel,
  HandleListener,
  type HandleListenOptions,
  type HandlePeer,
  type HandleReceiveOptions,
  type HandleSendOptions,
  type ReceivedHandles,
} from './handle-channel';
export type { HandleKind, ReceivedHandleType, SendableHandle } from './messages';
export { ReceivedHandle } from './received-handle';
