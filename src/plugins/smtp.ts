/**
 * The SMTP plugin's mail transport, on nodemailer (the maintained standard mailer for Node and Bun:
 * STARTTLS / implicit TLS, AUTH, multipart text + HTML bodies). Set as the app's transport by
 * src/plugins/state.ts, so invites, password resets and e-mail hooks all go through it.
 */
import type { MailTransport } from '../lib/mail';

export interface SmtpInput {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
  rejectUnauthorized: boolean;
}

/**
 * A transport over one SMTP server (a pooled nodemailer transport, closed by `close`). nodemailer
 * loads with the first mail (a module most servers never need).
 */
export function smtpTransport(input: SmtpInput): MailTransport & { close(): void } {
  let made: Promise<import('nodemailer').Transporter> | undefined;
  const transport = () =>
    (made ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: input.host,
        port: input.port,
        secure: input.secure,
        auth: input.user ? { user: input.user, pass: input.password ?? '' } : undefined,
        tls: { rejectUnauthorized: input.rejectUnauthorized },
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    ));
  return {
    async send(m) {
      await (await transport()).sendMail({ from: input.from, to: m.to.join(', '), subject: m.subject, text: m.text, html: m.html });
    },
    close: () => {
      void made?.then((t) => t.close());
    },
  };
}
