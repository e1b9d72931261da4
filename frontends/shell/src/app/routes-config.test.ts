import { describe, expect, it } from 'vitest';
import { remotePageFor } from './routes-config';

describe('remotePageFor', () => {
  it("names the remote module of each remote page's address, below its prefix and in any case", () => {
    expect(remotePageFor('/')).toEqual({ path: '', remote: 'home', module: './App' });
    expect(remotePageFor('/website-score')?.module).toBe('./WebsiteScore');
    expect(remotePageFor('/ideas/42')?.module).toBe('./Ideas');
    expect(remotePageFor('/Analytics/')).toMatchObject({ remote: 'analytics', module: './App' });
    expect(remotePageFor('/connections')).toMatchObject({ remote: 'connections', module: './App' });
  });

  it("is undefined for the shell's own pages and unknown addresses", () => {
    for (const pathname of ['/dashboard', '/reset-password', '/logout', '/nowhere', '/analyticsx']) {
      expect(remotePageFor(pathname)).toBeUndefined();
    }
  });
});
