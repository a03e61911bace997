import type { WebSocket } from "ws";
import type { Session, TokenVerifier } from "../auth/token-verifier";

/** graphql-ws's close code for a connection whose credentials no longer hold. */
export const CLOSE_TOKEN_EXPIRED = 4401;

/**
 * The open sockets and the token each one was opened with. A socket is closed with 4401 the
 * moment its token expires: at the next operation or result on it, or at the next sweep (every
 * `checkMs`, by the verifier's clock), whichever comes first; its subscriptions end with it.
 */
export class SocketSessions {
  private readonly open = new Map<WebSocket, Session>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly verifier: TokenVerifier,
    checkMs: number,
  ) {
    this.timer = setInterval(() => this.sweep(), checkMs);
    this.timer.unref();
  }

  track(socket: WebSocket, session: Session): void {
    this.open.set(socket, session);
  }

  forget(socket: WebSocket): void {
    this.open.delete(socket);
  }

  /** True when nothing more may run for this socket: it is closing or gone, or its token has expired (then it is closed with 4401). */
  ended(socket: WebSocket): boolean {
    if (socket.readyState !== socket.OPEN) return true;
    const session = this.open.get(socket);
    if (!session) return true;
    if (!this.verifier.isExpired(session)) return false;
    this.open.delete(socket);
    socket.close(CLOSE_TOKEN_EXPIRED, "Token expired");
    return true;
  }

  sweep(): void {
    for (const socket of [...this.open.keys()]) this.ended(socket);
  }

  stop(): void {
    clearInterval(this.timer);
    this.open.clear();
  }
}
