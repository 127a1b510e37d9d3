// Video decoding: the H.264 bitstream room (lib/video/h264).
export * from './h264';
