// Whether a TCP connection to host:port opens within 500 ms: how a test waits for a server
// (Redis across a bridge, a node of a lab) before it speaks to it.
import { createConnection } from 'node:net';

export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: 500 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
