import { describe, expect, it } from 'vitest';
import { siteOrigin } from './site-origin';

describe('siteOrigin', () => {
  it('is the origin of PUBLIC_URL when it is set, whatever the request came in on', () => {
    expect(siteOrigin({ publicUrl: 'https://kerst.example.nl/sub/path' }, 'http://10.0.0.5:8787/api/account/forgot')).toBe('https://kerst.example.nl');
  });

  it('is the origin the URL parser gives for the request address otherwise', () => {
    for (const url of [
      'http://127.0.0.1:8787/api/account/forgot?x=1',
      'https://kerst.example/sitemap.xml',
      'http://[::1]:8787/robots.txt',
      new Request('HTTP://Kerst.Example:443/a/b').url,
      new Request('https://kerst.example:443/').url,
    ]) {
      expect(siteOrigin({ publicUrl: undefined }, url), url).toBe(new URL(url).origin);
    }
  });
});
