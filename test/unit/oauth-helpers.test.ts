/** PKCE challenge (RFC 7636 appendix B vector) and the discovery URL of an issuer. */
import { describe, expect, test } from 'bun:test';
import { pkceChallenge } from '../../src/auth/oauth/provider';
import { discoveryUrl } from '../../src/auth/oauth/oidc-client';

describe('OAuth helpers', () => {
  test('S256 challenge of the RFC 7636 example verifier', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
  test('an issuer becomes its discovery URL; a discovery URL stays', () => {
    expect(discoveryUrl('https://accounts.google.com')).toBe('https://accounts.google.com/.well-known/openid-configuration');
    expect(discoveryUrl('https://id.example.com/realms/x/')).toBe('https://id.example.com/realms/x/.well-known/openid-configuration');
    expect(discoveryUrl('https://id.example.com/.well-known/openid-configuration')).toBe('https://id.example.com/.well-known/openid-configuration');
  });
});
