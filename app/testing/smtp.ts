import type { Socket } from "node:net";

export interface ReceivedMail {
  to: string;
  data: string;
}

/**
 * Speaks enough SMTP on one connection of a test's mail server to take the mail: each message is
 * pushed to `received`. `answerRcpt` gives the reply to each recipient ("250 OK" unless told), so a
 * test can refuse some for good (550) or for now (451).
 */
export function speakSmtp(
  socket: Socket,
  received: ReceivedMail[],
  answerRcpt: (to: string) => string = () => "250 OK",
): void {
  let buffer = "";
  let inData = false;
  let to = "";
  socket.write("220 mail.test ESMTP\r\n");
  socket.on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    for (;;) {
      if (inData) {
        const end = buffer.indexOf("\r\n.\r\n");
        if (end === -1) return;
        received.push({ to, data: buffer.slice(0, end) });
        buffer = buffer.slice(end + 5);
        inData = false;
        socket.write("250 2.0.0 queued\r\n");
        continue;
      }
      const lineEnd = buffer.indexOf("\r\n");
      if (lineEnd === -1) return;
      const line = buffer.slice(0, lineEnd);
      buffer = buffer.slice(lineEnd + 2);
      const command = line.slice(0, 4).toUpperCase();
      if (command === "EHLO") socket.write("250-mail.test\r\n250 8BITMIME\r\n");
      else if (command === "RCPT") {
        to = /<([^>]*)>/.exec(line)?.[1] ?? "";
        socket.write(`${answerRcpt(to)}\r\n`);
      } else if (command === "DATA") {
        inData = true;
        socket.write("354 go ahead\r\n");
      } else if (command === "QUIT") socket.end("221 bye\r\n");
      else socket.write("250 OK\r\n");
    }
  });
}
