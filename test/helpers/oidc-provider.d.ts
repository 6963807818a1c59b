/** oidc-provider ships no types; the test identity provider uses it untyped. */
declare module 'oidc-provider';
