import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * A graceful close for the Node HTTP server (docs/decisions/053). `server.close()` of node:http also
 * destroys every connection without a request under way, and that includes one the kernel accepted whose
 * request has not been read yet: its client gets ECONNRESET. Here the listener stops once the requests under
 * way are answered (taking what the kernel had already accepted until then), a request under way
 * (or still arriving) is answered with `Connection: close`, a keep-alive connection is ended once it is
 * idle, and a connection that has sent nothing yet gets a short grace to send its request.
 */
interface Connection {
  responses: Set<ServerResponse>;
  /** Requests answered on it so far. */
  served: number;
  /** socket.bytesRead when its last response ended: more since then is a next request arriving. */
  bytesAtIdle: number;
}

/** How long a connection that has sent no byte yet may take to send its request once the close began. */
const FIRST_REQUEST_GRACE_MS = 2_000;
const SWEEP_MS = 25;
/** How long no connection may have come, with no request under way, before the listener closes. */
const BACKLOG_QUIET_MS = 500;

export interface GracefulHttpServer {
  /**
   * Stops accepting and resolves when every connection is closed; at `deadline` (ms since the epoch)
   * whatever is left is destroyed.
   */
  close(deadline: number): Promise<void>;
}

export function trackConnections(server: Server): GracefulHttpServer {
  const connections = new Map<Socket, Connection>();
  let closing = false;
  let lastAccepted = 0;
  let accepted = 0;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { responses: new Set(), served: 0, bytesAtIdle: 0 });
    lastAccepted = Date.now();
    accepted++;
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request, response: ServerResponse) => {
    const connection = connections.get(request.socket);
    if (!connection) return;
    connection.responses.add(response);
    if (closing) askToClose(response);
    response.once('close', () => {
      connection.responses.delete(response);
      connection.served++;
      connection.bytesAtIdle = request.socket.bytesRead;
    });
  });

  const isIdle = (socket: Socket, connection: Connection, graceOver: boolean) => {
    if (connection.responses.size > 0) return false;
    // Bytes read since the last answer are a request whose headers are still arriving.
    if (socket.bytesRead > connection.bytesAtIdle) return false;
    return connection.served > 0 || graceOver;
  };

  return {
    close(deadline) {
      closing = true;
      const graceEnds = Date.now() + FIRST_REQUEST_GRACE_MS;
      for (const connection of connections.values()) for (const response of connection.responses) askToClose(response);
      return new Promise<void>((resolve) => {
        const closeBegan = Date.now();
        let listenerClosing = false;
        let listenerClosed = false;
        const sweep = setInterval(() => {
          const now = Date.now();
          let busy = false;
          for (const [socket, connection] of connections) {
            if (now >= deadline) socket.destroy();
            else if (isIdle(socket, connection, now >= graceEnds)) {
              // Ended only after a poll phase: after a long task, a request's bytes may wait in the kernel, unread
              // (socket.bytesRead unchanged), and ending the socket on them would reset the client.
              setImmediate(() => {
                if (!socket.destroyed && isIdle(socket, connection, true)) socket.end();
              });
            } else if (connection.responses.size > 0 || socket.bytesRead > connection.bytesAtIdle) busy = true;
          }
          // Connections the kernel completed but Node has not taken yet wait in the listen backlog, and closing
          // the listener resets them. Node takes one of them per event-loop turn (measured on Node 24: three
          // waiting behind a turn that was busy for half a second with requests came in over three turns), so
          // a quiet moment in time is not enough. The listener stays open (what comes is answered with
          // Connection: close) until no request is under way and no connection came for a quiet moment, and
          // closes only after a poll phase that took no connection: then the backlog was empty.
          const quietSince = Math.max(closeBegan, lastAccepted);
          if (!listenerClosing && ((!busy && now - quietSince >= BACKLOG_QUIET_MS) || now >= deadline)) {
            listenerClosing = true;
            const acceptedBefore = accepted;
            setImmediate(() => {
              if (accepted !== acceptedBefore && Date.now() < deadline) {
                listenerClosing = false;
                return;
              }
              // net.Server's close: stop listening, without node:http's destroying of connections it thinks idle.
              NetServer.prototype.close.call(server, () => {
                listenerClosed = true;
              });
            });
          }
          if (connections.size === 0 && listenerClosed) {
            clearInterval(sweep);
            resolve();
          }
        }, SWEEP_MS);
      });
    },
  };
}

/** The client learns the connection ends with this answer, so it sends no further request on it. */
function askToClose(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
}
