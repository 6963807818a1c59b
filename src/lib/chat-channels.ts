/**
 * Chat channels of the App Store (Slack, Discord, Microsoft Teams, Mattermost): the incoming-webhook
 * URL each installed chat plugin provides. Webhook chat actions without a URL of their own post to
 * the channel of their service. Kept per app context, like the mail transport (src/lib/mail.ts).
 */
export type ChatService = 'slack' | 'discord' | 'teams' | 'mattermost';

const channels = new WeakMap<object, Map<ChatService, string>>();

/** Sets (or with null removes) the channel of one service. */
export function setChatChannel(owner: object, service: ChatService, url: string | null): void {
  let m = channels.get(owner);
  if (!m) channels.set(owner, (m = new Map()));
  if (url) m.set(service, url);
  else m.delete(service);
}

/** The webhook URL of a service's installed plugin, if any. */
export const chatChannelOf = (owner: object, service: ChatService): string | undefined => channels.get(owner)?.get(service);

/** Each chat service's incoming-webhook JSON for a plain text message. */
export function chatBody(service: ChatService, text: string): unknown {
  if (service === 'discord') return { content: text.slice(0, 2000) };
  return { text };
}
