import { createServer, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent after DATA: headers and body. */
  data: string;
}

export interface SlowSmtpServer {
  url: string;
  /** Messages accepted so far, in order. */
  received: ReceivedMail[];
  /** Connections opened so far. */
  connections(): number;
  /** Greets every connection held so far, and every later one at once (ends a hang on cue). */
  release(): void;
  close(): Promise<void>;
}

/**
 * A minimal SMTP server on 127.0.0.1 for tests: it greets `greetingDelayMs` after a client
 * connects (never, with `Infinity`, like a hung mail server, until `release()`), then accepts
 * every message.
 */
export async function startSlowSmtp(options: { greetingDelayMs: number }): Promise<SlowSmtpServer> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  let opened = 0;
  let released = false;
  const held = new Set<() => void>();
  const server = createServer((socket) => {
    opened++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = '';
    let greeted = false;
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    const onLine = (line: string) => {
      const command = line.slice(0, 4).toUpperCase();
      if (command === 'EHLO' || command === 'HELO') reply('250-slow.test\r\n250 8BITMIME');
      else if (command === 'MAIL') {
        current = { from: /<([^>]*)>/.exec(line)?.[1] ?? '', to: [], data: '' };
        reply('250 OK');
      } else if (command === 'RCPT') {
        current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
        reply('250 OK');
      } else if (command === 'DATA') {
        inData = true;
        reply('354 Go ahead');
      } else if (command === 'QUIT') {
        reply('221 Bye');
        socket.end();
      } else reply('250 OK');
    };
    socket.on('data', (chunk) => {
      if (!greeted) return;
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          reply('250 Queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        onLine(line);
      }
    });
    const greet = () => {
      held.delete(greet);
      if (greeted) return;
      greeted = true;
      reply('220 slow.test ESMTP');
    };
    if (released) greet();
    else {
      held.add(greet);
      if (Number.isFinite(options.greetingDelayMs)) {
        const timer = setTimeout(greet, options.greetingDelayMs);
        socket.on('close', () => clearTimeout(timer));
      }
      socket.on('close', () => held.delete(greet));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections: () => opened,
    release() {
      released = true;
      for (const greet of [...held]) greet();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
