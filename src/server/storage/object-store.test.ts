import { describe, expect, it } from 'vitest';
import {
  assertValidObjectKey,
  contentAddressedKey,
  contentTypeForKey,
  InvalidObjectKeyError,
  isUploadKey,
  isValidObjectKey,
  newUploadKey,
} from './object-store.ts';

describe('object keys', () => {
  it('accepts the keys the server makes', () => {
    const upload = newUploadKey();
    expect(isValidObjectKey(upload)).toBe(true);
    expect(isUploadKey(upload)).toBe(true);
    expect(newUploadKey()).not.toBe(upload);
    const display = contentAddressedKey('memes', Buffer.from('x'), 'jpg');
    expect(display).toMatch(/^memes\/[0-9a-f]{64}\.jpg$/);
    expect(contentAddressedKey('memes', Buffer.from('x'), 'webp', 'thumb')).toMatch(
      /^memes\/[0-9a-f]{64}-thumb\.webp$/,
    );
    expect(isUploadKey(display)).toBe(false);
  });

  it('names the same bytes the same way and different bytes differently', () => {
    const a = contentAddressedKey('memes', Buffer.from('same'), 'png');
    expect(contentAddressedKey('memes', Buffer.from('same'), 'png')).toBe(a);
    expect(contentAddressedKey('memes', Buffer.from('other'), 'png')).not.toBe(a);
  });

  it.each([
    '',
    '../secret',
    'uploads/../../etc/passwd',
    '/etc/passwd',
    'uploads//x',
    'uploads/x/',
    'uploads\\x',
    'uploads/%2e%2e',
    '.tmp/abc',
    'uploads/.hidden',
    'Uploads/X',
    'a/b/c/d',
    'memes/x.tar.gz',
    'memes/x.',
    'memes/x y',
    'memes/x\0.png',
    'x'.repeat(300),
  ])('rejects %j', (key) => {
    expect(isValidObjectKey(key)).toBe(false);
    expect(() => assertValidObjectKey(key)).toThrow(InvalidObjectKeyError);
  });

  it('rejects values that are not strings', () => {
    expect(isValidObjectKey(undefined)).toBe(false);
    expect(isValidObjectKey(['uploads', 'x'])).toBe(false);
  });

  it('maps only image extensions to image types', () => {
    expect(contentTypeForKey('memes/a.jpg')).toBe('image/jpeg');
    expect(contentTypeForKey('memes/a.png')).toBe('image/png');
    expect(contentTypeForKey('memes/a.gif')).toBe('image/gif');
    expect(contentTypeForKey('memes/a-thumb.webp')).toBe('image/webp');
    expect(contentTypeForKey('uploads/abc')).toBe('application/octet-stream');
    expect(contentTypeForKey('memes/a.html')).toBe('application/octet-stream');
    expect(contentTypeForKey('memes/a.svg')).toBe('application/octet-stream');
  });
});
