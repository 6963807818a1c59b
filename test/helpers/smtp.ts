/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package, port 0) for mail tests: accepts any
 * sender and recipient without TLS or auth, parses each message with `mailparser` and keeps it.
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

export async function startSmtp() {
  const got: ReceivedMail[] = [];
  /** Answers given to the next messages instead of accepting them (SMTP reply code and text). */
  const refusals: { code: number; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const refusal = refusals.shift();
      if (refusal) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error(refusal.text), { responseCode: refusal.code })));
        return;
      }
      simpleParser(stream)
        .then((m) => {
          got.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: m.subject ?? '',
            text: m.text ?? '',
            html: typeof m.html === 'string' ? m.html : '',
            parsed: m,
          });
          callback();
        })
        .catch((e) => callback(e));
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)));
  return {
    port,
    got,
    /** Refuses the next message with this SMTP reply (e.g. 451 try later, 550 no such mailbox). */
    refuseNext: (code: number, text: string) => refusals.push({ code, text }),
    /** Mails sent to one address. */
    to: (address: string) => got.filter((m) => m.to.includes(address)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
