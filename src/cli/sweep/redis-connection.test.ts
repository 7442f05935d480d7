import { describe, expect, it } from 'vitest';
import { parseRedisUrl, redactRedisUrl } from './redis-connection';

describe('redis_url', () => {
  it('takes redis:// and rediss://, a user and password, a port and a database', () => {
    expect(parseRedisUrl('redis://127.0.0.1')).toMatchObject({ host: '127.0.0.1', port: 6379, db: 0, tls: false, password: undefined, username: undefined });
    expect(parseRedisUrl('redis://head:6380/2')).toMatchObject({ host: 'head', port: 6380, db: 2, tls: false });
    expect(parseRedisUrl('rediss://head:6390')).toMatchObject({ host: 'head', port: 6390, tls: true });
    expect(parseRedisUrl('redis://alice:s3cret@head:6379/1')).toMatchObject({ username: 'alice', password: 's3cret', db: 1 });
    // No user: the default user with this password, as redis-cli reads `redis://:pw@` and `redis://pw@`.
    expect(parseRedisUrl('redis://:s3cret@head')).toMatchObject({ username: undefined, password: 's3cret' });
    expect(parseRedisUrl('redis://s3cret@head')).toMatchObject({ username: undefined, password: 's3cret' });
    // Percent-encoded characters in a password.
    expect(parseRedisUrl('redis://:p%40ss%3Aword@head').password).toBe('p@ss:word');
  });

  it('takes the password from REDIS_PASSWORD when the URL has none, and the URL\'s own otherwise', () => {
    expect(parseRedisUrl('redis://head:6379', { env: { REDIS_PASSWORD: 'fromenv' } }).password).toBe('fromenv');
    expect(parseRedisUrl('redis://:inurl@head:6379', { env: { REDIS_PASSWORD: 'fromenv' } }).password).toBe('inurl');
  });

  it('shows the URL with the password as *** wherever a message prints it', () => {
    expect(redactRedisUrl('redis://alice:s3cret@head:6379/1')).toBe('redis://alice:***@head:6379/1');
    expect(redactRedisUrl('redis://:s3cret@head')).toBe('redis://:***@head');
    expect(redactRedisUrl('rediss://s3cret@head')).toBe('rediss://***@head');
    expect(redactRedisUrl('redis://head:6379')).toBe('redis://head:6379');
    expect(parseRedisUrl('redis://alice:s3cret@head:6379').display).toBe('redis://alice:***@head:6379');
  });

  it('refuses a malformed URL, a bad port or database, with one sentence that never holds the password', () => {
    const refusal = (url: string) => {
      try {
        parseRedisUrl(url);
      } catch (error) {
        return error as Error & { key?: string };
      }
      throw new Error(`${url} was accepted`);
    };
    expect(refusal('localhost:6379').message).toBe("redis_url is malformed; it must look like redis://[user:password@]host[:port][/db] or rediss://… for TLS (e.g. redis://127.0.0.1:6379), got 'localhost:6379'");
    expect(refusal('http://head:6379').name).toBe('UsageError');
    expect(refusal('redis://:s3cret@head:99999').message).toMatch(/^redis_url has port 99999, outside 1–65535; .* got 'redis:\/\/:\*\*\*@head:99999'$/);
    expect(refusal('redis://:s3cret@head:6379/16').message).toMatch(/database 16, outside 0–15/);
    for (const url of ['redis://:s3cret@head:99999', 'redis://al:s3cret@head/99', 'redis://al:s3cret@he ad']) expect(refusal(url).message).not.toContain('s3cret');
  });

  it('reads tls_ca for rediss:// only, and names a file it cannot read', () => {
    expect(() => parseRedisUrl('redis://head', { tlsCa: '/etc/hostname' })).toThrow(/tls_ca does nothing without TLS; use a rediss:\/\/ URL/);
    expect(() => parseRedisUrl('rediss://head', { tlsCa: '/no/such/ca.pem' })).toThrow("tls_ca file '/no/such/ca.pem' cannot be read (ENOENT)");
    expect(parseRedisUrl('rediss://head', { tlsCa: '/etc/hostname' }).ca).toBeInstanceOf(Buffer);
  });
});
