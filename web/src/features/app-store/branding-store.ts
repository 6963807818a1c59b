/** The instance's branding (title and logo of the Branding plugin), read from the public `GET /api/branding`. */
import { signal } from '@preact/signals-react';
import { brandingApi, type Branding } from '../../api/app-store';

export const branding = signal<Branding>({ title: null, logoUrl: null });

/** Reads the branding again (at start and after the App Store saves a plugin). */
export async function loadBranding(): Promise<void> {
  try {
    branding.value = await brandingApi.get();
  } catch {
    // No branding: the default title and logo stay.
  }
}
