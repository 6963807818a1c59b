/** The instance's branding (title and logo of the Branding plugin), read from the public `GET /api/branding`. */
import { signal } from '@preact/signals-react';
import { brandingApi, type Branding } from '../../api/app-store';
import { latestOnly } from '../../lib/latest';

export const branding = signal<Branding>({ title: null, logoUrl: null });

/** Reads of the branding: the first one answered after a save's one does not bring the old title back. */
const reads = latestOnly();

/** Reads the branding again (at start and after the App Store saves a plugin). */
export async function loadBranding(): Promise<void> {
  // No branding (an error): the default title and logo stay.
  await reads(brandingApi.get(), (b) => (branding.value = b));
}
