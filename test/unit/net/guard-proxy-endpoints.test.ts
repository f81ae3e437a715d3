import { describe, expect, it } from 'vitest';
import { authority, endToEndHeaders, endpointKey, networkFailure, parseConnectTarget, parseUpstream } from '../../../src/platform/net/guard-proxy/endpoints.ts';

describe('guard proxy endpoints', () => {
  it('reads a CONNECT target: host or bracketed IPv6, and a port from 1 to 65535', () => {
    expect(parseConnectTarget('example.com:443')).toEqual({ hostname: 'example.com', port: 443 });
    expect(parseConnectTarget('[::1]:8080')).toEqual({ hostname: '::1', port: 8080 });
    expect(parseConnectTarget('10.0.0.1:65535')).toEqual({ hostname: '10.0.0.1', port: 65535 });
    for (const bad of ['example.com', 'example.com:0', 'example.com:65536', '::1:80', 'a:b:80', 'example.com:443/x', ':443']) {
      expect(parseConnectTarget(bad), bad).toBeUndefined();
    }
  });

  it('reads the upstream proxy with its credentials, and only over http', () => {
    expect(parseUpstream('http://proxy.local:3128')).toEqual({ host: 'proxy.local', port: 3128 });
    expect(parseUpstream('http://[::1]')).toEqual({ host: '::1', port: 80 });
    expect(parseUpstream('http://us%40er:p%3Ass@p:1').authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
    expect(() => parseUpstream('https://proxy.local')).toThrow('must be an http:// URL');
  });

  it('drops hop-by-hop headers and those the Connection header names', () => {
    const kept = endToEndHeaders({ connection: 'keep-alive, X-Secret', 'x-secret': '1', 'proxy-authorization': 'Basic x', accept: '*/*', te: 'trailers' });
    expect(kept).toEqual({ accept: '*/*' });
  });

  it('names endpoints and addresses the way requests and tunnels meet them', () => {
    expect(endpointKey('[::1]', 80)).toBe('::1:80');
    expect(endpointKey('Example.COM', 443)).toBe('example.com:443');
    expect(authority({ address: '::1', family: 6 }, 443)).toBe('[::1]:443');
    expect(authority({ address: '10.0.0.1', family: 4 }, 80)).toBe('10.0.0.1:80');
  });

  it('says what a network failure was in words, keeping the code', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:80'), { code: 'ECONNREFUSED' });
    expect(networkFailure(refused)).toBe('the connection was refused (connect ECONNREFUSED 10.0.0.1:80)');
    expect(networkFailure(new Error('odd'))).toBe('the connection failed (odd)');
  });
});
