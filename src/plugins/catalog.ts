/**
 * The App Store's plugins: title, category, icon, a short description and the zod schema of their
 * input. Field labels and secret flags ride on the schema (`.meta({ label, secret, help })`), so
 * the web form is generated from it (src/plugins/fields.ts). Plugins are instance-wide.
 */
import { z } from 'zod';

export type PluginCategory = 'Email' | 'Storage' | 'Chat' | 'Branding';

/** Categories where only one plugin may be active at a time. */
export const SINGLE_ACTIVE: PluginCategory[] = ['Email', 'Storage'];

export interface PluginDef {
  title: string;
  category: PluginCategory;
  /** lucide icon name the web app draws on the card. */
  icon: string;
  description: string;
  schema: z.ZodObject<Record<string, z.ZodType>>;
}

const httpUrl = (label: string, secret = false) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(2000)
    .refine((u) => {
      try {
        return ['http:', 'https:'].includes(new URL(u).protocol);
      } catch {
        return false;
      }
    }, `${label} is not an http(s) URL`)
    .meta({ label, secret });

const SmtpSchema = z.object({
  host: z.string().trim().min(1, 'Host is required').max(255).meta({ label: 'Host' }),
  port: z.coerce.number<string | number>().int().min(1).max(65535).default(587).meta({ label: 'Port' }),
  secure: z.boolean().default(false).meta({ label: 'Use TLS from the start (port 465)' }),
  user: z.string().max(255).optional().meta({ label: 'User name' }),
  password: z.string().max(1000).optional().meta({ label: 'Password', secret: true }),
  from: z.email('From is not an e-mail address').meta({ label: 'From address' }),
  rejectUnauthorized: z.boolean().default(true).meta({ label: "Check the server's TLS certificate" }),
});

/**
 * Folders of the data directory Tablo keeps for itself (keys, embedded databases, temporary files that
 * are cleaned up, the branding logo, the terminal's workspace): attachments never go there.
 */
const OWN_FOLDERS = ['keys', 'xcdb', 'tmp', 'branding', 'workspace'];

const LocalSchema = z.object({
  folder: z
    .string()
    .trim()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, 'Folder is a path inside the data directory (letters, digits, - and _, separated by /)')
    .refine((f) => !OWN_FOLDERS.includes(f.split('/')[0]!.toLowerCase()), `Folder may not be one Tablo keeps for itself (${OWN_FOLDERS.join(', ')})`)
    .default('attachments')
    .meta({ label: 'Folder inside the data directory' }),
});

const S3Schema = z.object({
  endpoint: httpUrl('Endpoint').meta({ label: 'Endpoint (e.g. https://s3.eu-west-1.amazonaws.com)' }),
  region: z.string().trim().max(100).default('us-east-1').meta({ label: 'Region' }),
  bucket: z
    .string()
    .trim()
    .min(1, 'Bucket is required')
    .min(3, 'A bucket name has 3 to 63 characters')
    .max(63, 'A bucket name has 3 to 63 characters')
    .regex(/^[a-z0-9][a-z0-9.-]+[a-z0-9]$/, 'Bucket is not a valid bucket name').meta({ label: 'Bucket' }),
  accessKeyId: z.string().trim().min(1, 'Access key is required').max(200).meta({ label: 'Access key' }),
  secretAccessKey: z.string().min(1, 'Secret is required').max(500).meta({ label: 'Secret access key', secret: true }),
  pathStyle: z.boolean().default(true).meta({ label: 'Path-style URLs (MinIO and most S3-compatible servers)' }),
  prefix: z.string().trim().max(200).regex(/^[A-Za-z0-9_\-/]*$/, 'Prefix holds letters, digits, -, _ and /').default('').meta({ label: 'Key prefix' }),
});

const chatSchema = (service: string) =>
  z.object({
    webhookUrl: httpUrl('Incoming-webhook URL', true).meta({ label: `${service} incoming-webhook URL`, secret: true }),
  });

const BrandingSchema = z.object({
  title: z.string().trim().min(1, 'Title is required').max(60).meta({ label: 'Title' }),
  logoUrl: z
    .string()
    .trim()
    .max(2000)
    .refine((u) => u === '' || u.startsWith('/api/branding/logo') || /^https?:\/\//.test(u), 'Logo URL is an http(s) URL')
    .default('')
    .meta({ label: 'Logo URL (or upload a file)' }),
});

export const PLUGINS: PluginDef[] = [
  { title: 'SMTP', category: 'Email', icon: 'mail', description: 'Sends invites, password resets and e-mail hooks through an SMTP server.', schema: SmtpSchema },
  { title: 'Local', category: 'Storage', icon: 'hard-drive', description: 'Keeps uploaded attachments in a folder of the data directory (the default).', schema: LocalSchema },
  { title: 'S3', category: 'Storage', icon: 'cloud', description: 'Keeps uploaded attachments in S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, Backblaze B2).', schema: S3Schema },
  { title: 'Slack', category: 'Chat', icon: 'slack', description: 'Posts webhook messages to a Slack channel.', schema: chatSchema('Slack') },
  { title: 'Discord', category: 'Chat', icon: 'message-circle', description: 'Posts webhook messages to a Discord channel.', schema: chatSchema('Discord') },
  { title: 'Microsoft Teams', category: 'Chat', icon: 'users', description: 'Posts webhook messages to a Microsoft Teams channel.', schema: chatSchema('Microsoft Teams') },
  { title: 'Mattermost', category: 'Chat', icon: 'message-square', description: 'Posts webhook messages to a Mattermost channel.', schema: chatSchema('Mattermost') },
  { title: 'Branding', category: 'Branding', icon: 'palette', description: 'Shows your title and logo in the top bar and on the sign-in page.', schema: BrandingSchema },
];

export const pluginByTitle = (title: string): PluginDef | undefined => PLUGINS.find((p) => p.title === title);

/** The chat service a chat plugin feeds. */
export const CHAT_SERVICE: Record<string, 'slack' | 'discord' | 'teams' | 'mattermost'> = {
  Slack: 'slack',
  Discord: 'discord',
  'Microsoft Teams': 'teams',
  Mattermost: 'mattermost',
};
