/**
 * The mail path: invites, password resets and e-mail hooks hand messages to the transport set for
 * the app. Without one (no mail plugin configured) `sendMail` throws MailNotConfigured and callers
 * fall back (invites log the link; e-mail hooks log the delivery as an error saying so). The SMTP
 * plugin of the App Store sets its transport with `setMailTransport(ctx, transport)`.
 */
export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

export class MailNotConfigured extends Error {
  constructor() {
    super('No mail plugin is configured: set up SMTP in the App Store to send e-mail');
  }
}

const transports = new WeakMap<object, MailTransport>();

/** Sets (or with null removes) the transport of one app context. */
export function setMailTransport(owner: object, transport: MailTransport | null): void {
  if (transport) transports.set(owner, transport);
  else transports.delete(owner);
}

export const mailTransportOf = (owner: object): MailTransport | undefined => transports.get(owner);

/** Sends through the app's transport; throws MailNotConfigured when there is none. */
export async function sendMail(owner: object, message: MailMessage): Promise<void> {
  const t = transports.get(owner);
  if (!t) throw new MailNotConfigured();
  await t.send(message);
}
