import { AppError } from '../errors';
import { classifyAddress, hostPortOf, normaliseHostPort, parseBaseUrl } from './address-safety';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.10.0.5', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.10.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['[::1]', 'loopback'],
    ['not-an-ip', 'reserved'],
  ])('should classify %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'should treat %s as public',
    (address) => {
      expect(classifyAddress(address)).toBeNull();
    },
  );
});

describe('normaliseHostPort', () => {
  it.each([
    ['LocalHost:11434', 'localhost:11434'],
    ['  127.0.0.1:8080 ', '127.0.0.1:8080'],
    ['[::1]:9000', '[::1]:9000'],
    ['Example.COM:443', 'example.com:443'],
  ])('should normalise %s to %s', (raw, expected) => {
    expect(normaliseHostPort(raw)).toBe(expected);
  });

  it.each(['', 'localhost', 'http://x:1', 'a b:1', 'x:0', 'x:70000', 'user@x:1', 'x:1/path', ':80'])(
    'should refuse %j',
    (raw) => {
      expect(() => normaliseHostPort(raw)).toThrow(AppError);
    },
  );
});

describe('hostPortOf and parseBaseUrl', () => {
  it.each([
    ['http://localhost:11434/v1', 'localhost:11434'],
    ['https://api.openai.com/v1', 'api.openai.com:443'],
    ['http://example.com', 'example.com:80'],
  ])('should derive %s → %s', (url, expected) => {
    expect(hostPortOf(new URL(url))).toBe(expected);
  });

  it.each([
    'not a url',
    'ftp://example.com',
    'https://user:pw@example.com',
    'https://example.com/#frag',
    'file:///etc/passwd',
  ])('should refuse base URL %j', (raw) => {
    expect(() => parseBaseUrl(raw)).toThrow(AppError);
  });
});
